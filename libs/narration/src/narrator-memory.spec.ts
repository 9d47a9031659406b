import { loadContextPolicy } from '@cota/dialogue';
import { createNarrator, Narrator } from './narrator';
import { narrateRequest, recentTurns } from './testing/requests';

const base = createNarrator({ llm: null });

function narratorDenying(entity: string): Narrator {
  const scope = { ...loadContextPolicy().narrator, denied_entities: [entity] };
  return new Narrator(base.policy, base.templates, base.measures, null, scope);
}

describe('Narrator memory scope (policies/context.yaml, narrator block)', () => {
  it('an answer whose entity the scope denies is narrated without the conversation memory', async () => {
    const narrator = narratorDenying('fiis_cadastro');
    const seen: unknown[] = [];
    const spy = jest.spyOn(narrator.deterministic, 'narrate').mockImplementation((req) => (seen.push(req.memory), base.deterministic.narrate(req)));
    const memory = { recent: recentTurns(['O CNPJ é 11.728.688/0001-47.']), summary: 'Resumo' };
    await narrator.narrate(narrateRequest({ question: 'cnpj?', entity: 'fiis_cadastro', memory }));
    await narrator.narrate(narrateRequest({ question: 'preço?', entity: 'fiis_precos', memory }));
    expect(seen).toEqual([{ recent: [], summary: null }, memory]);
    spy.mockRestore();
  });
});
