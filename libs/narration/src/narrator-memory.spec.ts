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

describe('out of scope answers', () => {
  const det = base.deterministic;
  const ask = (out_of_scope: { reason: 'asset' | 'measure' | 'topic'; term: string | null }) =>
    det.narrate(narrateRequest({ question: '...', kind: 'smalltalk', smalltalk: 'out_of_scope', entity: null, out_of_scope })).answer;

  it('names what is not covered and says what is', () => {
    expect(ask({ reason: 'asset', term: 'criptomoedas (bitcoin)' })).toMatch(/^Não tenho dados de criptomoedas \(bitcoin\): a Cota cobre fundos imobiliários/);
    expect(ask({ reason: 'measure', term: 'EBITDA' })).toMatch(/^Não tenho EBITDA: fundos imobiliários não divulgam.*dividendos e dividend yield, P\/VP/);
    // (asked of a fund, the answer names it)
    const ofFund = narrateRequest({ question: '...', kind: 'smalltalk', smalltalk: 'out_of_scope', entity: null, out_of_scope: { reason: 'measure', term: 'EBITDA' } });
    ofFund.params = { ...ofFund.params!, tickers: ['HGLG11'] };
    expect(det.narrate(ofFund).answer).toMatch(/^Não tenho EBITDA do HGLG11: fundos imobiliários não divulgam/);
    // (a verdict asked of what is not covered says that Cota gives none either)
    const verdict = narrateRequest({
      question: '...',
      kind: 'smalltalk',
      smalltalk: 'out_of_scope',
      entity: null,
      out_of_scope: { reason: 'asset', term: 'criptomoedas (bitcoin)' },
    });
    expect(det.narrate({ ...verdict, advice: true }).answer).toMatch(/\n\nE mesmo para o que cubro a Cota não recomenda comprar nem vender/);
    expect(det.narrate(verdict).answer).not.toMatch(/recomenda/);
    expect(ask({ reason: 'topic', term: null })).toMatch(/^Não tenho dados sobre isso: a Cota responde sobre fundos imobiliários/);
  });
});
