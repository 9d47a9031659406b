import type { ChatMessage, CompleteOptions, LlmClient } from '@cota/llm';
import { LlmError } from '@cota/llm';
import { dataDir } from '@cota/config';
import { readFundTickers } from './fund-list';
import { Planner } from './planner';
import { loadPlanningPolicies } from './policies';

/** In-memory model: answers what the test says and records the calls. */
class ScriptedLlm implements LlmClient {
  readonly model = 'scripted';
  calls: ChatMessage[][] = [];
  constructor(private readonly answer: (messages: ChatMessage[]) => string | Error) {}
  async complete(messages: ChatMessage[], _opts: CompleteOptions): Promise<string> {
    this.calls.push(messages);
    const a = this.answer(messages);
    if (a instanceof Error) throw a;
    return a;
  }
  async *stream(): AsyncIterable<string> {
    throw new Error('not used by the planner');
  }
}

describe('LLM fallback', () => {
  const policies = loadPlanningPolicies();
  const funds = readFundTickers(dataDir());
  const make = (llm: LlmClient) => new Planner({ policies, funds, llm });
  const ambiguous = 'carteira vs cdi';

  it('is never asked when the deterministic decision is accepted', async () => {
    const llm = new ScriptedLlm(() => '{"entity":"fiis_noticias"}');
    const p = await make(llm).plan('Qual o CNPJ do HGLG11?');
    expect(p.entity).toBe('fiis_cadastro');
    expect(p.planner.llm_used).toBe(false);
    expect(llm.calls).toHaveLength(0);
  });

  it('is never asked for small talk, tools or concepts', async () => {
    const llm = new ScriptedLlm(() => '{"entity":"fiis_noticias"}');
    const planner = make(llm);
    for (const q of ['oi', 'o que é P/VP?', 'relatório diário', 'sim']) await planner.plan(q);
    expect(llm.calls).toHaveLength(0);
  });

  it('is never asked for an elliptic follow-up (its subject comes from the conversation)', async () => {
    const llm = new ScriptedLlm(() => '{"entity":"fiis_noticias"}');
    const p = await make(llm).plan('e em 2023?');
    expect(p).toMatchObject({ kind: 'unknown', elliptic: true, planner: { llm_used: false, accepted: false } });
    expect(llm.calls).toHaveLength(0);
  });

  it('chooses among the catalog when the planner would ask back', async () => {
    const llm = new ScriptedLlm(() => '{"entity":"client_fiis_performance_vs_benchmark_summary","confidence":0.8}');
    const p = await make(llm).plan(ambiguous);
    expect(p).toMatchObject({ kind: 'entity', entity: 'client_fiis_performance_vs_benchmark_summary', intent: 'client_fiis_performance_vs_benchmark_summary' });
    expect(p.planner).toMatchObject({ llm_used: true, accepted: true });
    expect(p.planner.gap).toBeLessThan(p.planner.thresholds.min_gap); // the deterministic numbers are kept
    expect(p.planner.reason).toMatch(/not accepted: .*; accepted by the llm fallback, which chose client_fiis_performance_vs_benchmark_summary/);
    expect(p.params.filters).toEqual({ benchmark: 'CDI' });
    const system = llm.calls[0][0].content;
    expect(system).toContain('fiis_rankings');
    expect(llm.calls[0][1]).toEqual({ role: 'user', content: ambiguous });
  });

  it.each([
    ['an entity outside the catalog', () => '{"entity":"drop_table_users"}', /not in the catalog/],
    ['non-JSON text', () => 'acho que é fiis_precos', /not JSON/],
    ['JSON without entity', () => '{"answer":"fiis_precos"}', /no valid "entity"/],
    ['a null choice', () => '{"entity":null}', /chose no entity/],
    ['a timeout', () => new LlmError('timeout', 'the model did not answer in time'), /did not answer in time/],
  ])('keeps the deterministic outcome on %s', async (_label, answer, reason) => {
    const p = await make(new ScriptedLlm(answer as () => string | Error)).plan(ambiguous);
    expect(p.kind).toBe('clarification');
    expect(p.planner.llm_used).toBe(true);
    expect(p.planner.reason).toMatch(reason);
  });

  it('without a model the result is the deterministic one', async () => {
    const p = await new Planner({ policies, funds }).plan(ambiguous);
    expect(p.kind).toBe('clarification');
    expect(p.planner.llm_used).toBe(false);
  });
});
