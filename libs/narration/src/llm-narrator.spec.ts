import type { ChatMessage, CompleteOptions, LlmClient } from '@cota/llm';
import { LlmError } from '@cota/llm';
import { loadCatalogColumns } from './catalog-columns';
import { createNarrator, Narrator } from './narrator';
import { araquemCsv, realResult, tickerRecords } from './testing/real-rows';
import { narrateRequest, recentTurns } from './testing/requests';

/** The model narrator is optional and guarded: its text reaches the person only when it is right. */

type Behaviour = (messages: ChatMessage[], opts: CompleteOptions) => Promise<string>;

class ScriptedLlm implements LlmClient {
  readonly model = 'scripted-model';
  calls: ChatMessage[][] = [];
  constructor(public behaviour: Behaviour) {}
  complete(messages: ChatMessage[], opts: CompleteOptions): Promise<string> {
    this.calls.push(messages);
    return this.behaviour(messages, opts);
  }
  async *stream(messages: ChatMessage[], opts: CompleteOptions): AsyncIterable<string> {
    const text = await this.complete(messages, opts);
    for (const piece of text.match(/.{1,7}/gs) ?? []) yield piece;
  }
}

const catalog = loadCatalogColumns() ?? undefined;
const dividend = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date')[0];
const data = realResult('fiis_dividendos', [dividend], { ticker: 'ABCP11', agg: 'latest' });
const request = (over: Parameters<typeof narrateRequest>[0] = { question: 'Qual o último dividendo do ABCP11?' }) => narrateRequest({ data, ...over });

function withLlm(behaviour: Behaviour, tweak?: (n: Narrator) => void): { narrator: Narrator; llm: ScriptedLlm } {
  const llm = new ScriptedLlm(behaviour);
  const narrator = createNarrator({ llm, catalog });
  tweak?.(narrator);
  return { narrator, llm };
}

describe('LlmNarrator through the Narrator', () => {
  it('uses a faithful rephrasing and keeps the source line', async () => {
    const { narrator } = withLlm(async () => 'O ABCP11 pagou R$ 0,65 por cota; a data-com foi 31/10/2025 e o pagamento, 07/11/2025.');
    const res = await narrator.narrate(request());
    expect(res.narrator).toMatchObject({ llm_used: true, reason: 'llm_ok', model: 'scripted-model' });
    expect(res.answer).toBe('O ABCP11 pagou R$ 0,65 por cota; a data-com foi 31/10/2025 e o pagamento, 07/11/2025.\n\nFonte: CVM/B3, dados até 31/10/2025.');
  });

  it('never lets an invented number through', async () => {
    const { narrator } = withLlm(async () => 'O ABCP11 pagou R$ 0,72 por cota em 07/11/2025.');
    const res = await narrator.narrate(request());
    expect(res.narrator).toMatchObject({ llm_used: false, reason: 'guard_rejected:0,72' });
    expect(res.answer).toContain('R$ 0,65');
    expect(res.answer).not.toContain('0,72');
  });

  it.each([
    ['flips a sign', 'O dividendo foi de R$ -0,65 por cota, pago em 07/11/2025.', 'guard_rejected:-0,65'],
    ['rounds loosely', 'O ABCP11 pagou cerca de R$ 0,7 por cota em 07/11/2025.', 'guard_rejected:0,7'],
    ['echoes a number of the question', 'Com R$ 5.000 você receberia R$ 0,65 por cota.', 'guard_rejected:5.000'],
  ])('keeps the deterministic answer when the model %s', async (_what, text, reason) => {
    const { narrator } = withLlm(async () => text);
    const res = await narrator.narrate(request({ question: 'Quanto rende R$ 5.000 no ABCP11, último dividendo?' }));
    expect(res.narrator).toMatchObject({ llm_used: false, reason });
    expect(res.answer).toContain('R$ 0,65');
  });

  it('falls back within the time limit when the model hangs', async () => {
    const { narrator } = withLlm(
      (_m, opts) => new Promise((_, reject) => opts.signal?.addEventListener('abort', () => reject(new LlmError('timeout', 'aborted')))),
      (n) => ((n.policy.llm as { timeout_ms: number }).timeout_ms = 150),
    );
    const started = performance.now();
    const res = await narrator.narrate(request());
    const took = performance.now() - started;
    expect(res.narrator).toMatchObject({ llm_used: false, reason: 'llm_timeout' });
    expect(took).toBeLessThan(150 + 250);
    expect(res.answer).toContain('Último dividendo do ABCP11: R$ 0,65 por cota');
  });

  it('falls back on a model that ignores its deadline', async () => {
    const { narrator } = withLlm(
      () => new Promise(() => undefined), // never settles, never looks at the signal
      (n) => ((n.policy.llm as { timeout_ms: number }).timeout_ms = 100),
    );
    const res = await narrator.narrate(request());
    expect(res.narrator.reason).toBe('llm_timeout');
    expect(res.narrator.latency_ms).toBeLessThan(100 + 250);
  });

  it('falls back on endpoint errors, garbage and overlong text', async () => {
    const cases: Array<[Behaviour, string]> = [
      [async () => Promise.reject(new LlmError('http', 'HTTP 500')), 'llm_error'],
      [async () => '{"choices": null, "error": 42}', 'llm_garbage'],
      [async () => '   ', 'llm_garbage'],
      [async () => `O ABCP11 pagou R$ 0,65. ${'Muito texto. '.repeat(200)}`, 'llm_too_long'],
    ];
    for (const [behaviour, reason] of cases) {
      const { narrator } = withLlm(behaviour);
      const res = await narrator.narrate(request());
      expect(res.narrator).toMatchObject({ llm_used: false, reason });
      expect(res.answer).toContain('R$ 0,65 por cota');
    }
  });

  it('is not asked when the policy, the kind, the entity or the status says no', async () => {
    const { narrator, llm } = withLlm(async () => 'nunca');
    const positions = realResult('client_fiis_positions', [], {});
    const cases: Array<[Parameters<typeof narrateRequest>[0], string]> = [
      [{ question: 'minha carteira', data: { ...positions, rows: [{ ticker: 'ABCP11', quantity: 10 }] }, entity: 'client_fiis_positions' }, 'entity_not_allowed'],
      [{ question: 'oi', kind: 'smalltalk', smalltalk: 'greeting', data: null }, 'kind_not_allowed'],
      [{ question: 'x', status: 'error', problem: 'service_unavailable', data: null }, 'status_not_ok'],
    ];
    for (const [req, reason] of cases) {
      const res = await narrator.narrate(narrateRequest(req));
      expect(res.narrator).toMatchObject({ llm_used: false, reason });
    }
    expect(llm.calls).toHaveLength(0);
    (narrator.policy.llm as { enabled: boolean }).enabled = false;
    expect((await narrator.narrate(request())).narrator.reason).toBe('llm_disabled');
  });

  it('needs nothing from a model when none is configured', async () => {
    const narrator = createNarrator({ llm: null, catalog });
    const res = await narrator.narrate(request());
    expect(res.narrator).toEqual({ llm_used: false, reason: 'llm_not_configured', model: null, latency_ms: expect.any(Number) });
    expect(res.answer).toContain('Último dividendo do ABCP11: R$ 0,65 por cota');
  });

  it('gives the model the answer, the rows, the history and the chunks', async () => {
    const { narrator, llm } = withLlm(async () => 'O ABCP11 pagou R$ 0,65 por cota.');
    await narrator.narrate(
      request({
        question: 'Qual o último dividendo do ABCP11?',
        nickname: 'Ana',
        memory: { recent: recentTurns(['Olá, Ana!']), summary: 'Falamos do ABCP11.' },
      }),
    );
    const [system, user] = llm.calls[0];
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/Não invente nada/);
    expect(user.content).toContain('Último dividendo do ABCP11: R$ 0,65 por cota');
    expect(user.content).toContain('"dividend_amt":"0.65"');
    expect(user.content).toContain('- Cota: Olá, Ana!');
    expect(user.content).toContain('Resumo da conversa: Falamos do ABCP11.');
    expect(user.content).not.toContain('Fonte:');
  });

  it('guards a streamed text before any of it is released', async () => {
    const { narrator } = withLlm(async () => 'O ABCP11 pagou R$ 0,99 por cota.');
    const deltas: string[] = [];
    const req = request();
    const outcome = await narrator.llm!.rephraseStream({ request: req, deterministic: narrator.deterministic.narrate(req) }, (d) => deltas.push(d));
    expect(deltas).toEqual([]); // the invented 0,99 never reaches the page
    expect(outcome.meta.reason).toBe('guard_rejected:0,99');
    expect(outcome.answer).toContain('R$ 0,65');
  });

  it('accepts a rephrased table answer that keeps the numbers', async () => {
    const recs = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date').slice(0, 3);
    const table = realResult('fiis_dividendos', recs, { ticker: 'ABCP11', window: 'rows:3' });
    const { narrator } = withLlm(async () => 'Nos 3 últimos pagamentos, o ABCP11 distribuiu R$ 0,65, R$ 0,50 e R$ 0,50 por cota (novembro, outubro e setembro de 2025).');
    const res = await narrator.narrate(narrateRequest({ question: 'Dividendos do ABCP11 nos últimos 3 pagamentos', data: table }));
    expect(res.narrator.reason).toBe('llm_ok');
    expect(araquemCsv('fiis_dividends').length).toBeGreaterThan(0);
  });
});
