import { CotaError, queryParams, SAMPLE_READING } from '@cota/contracts';
import { ContextManager } from './context-manager';
import { InMemoryContextStore, InMemoryHistoryStore } from './in-memory-store';
import { ContextPolicy, loadContextPolicy, resolveLastReference } from '@cota/dialogue';
import { ExtractiveSummarizer } from './summarizer';

const shipped = loadContextPolicy();

/** A commit as a turn of the given entity whose answer was about `tickers`. */
function commitOf(c: {
  request_id: string;
  client_id: string;
  conversation_id: string;
  turn_index: number;
  answer: string;
  status: 'ok' | 'error' | 'needs_clarification';
  intent: string;
  entity: string | null;
  accepted: boolean;
  tickers: string[];
  meta?: object;
}) {
  const reading = {
    ...SAMPLE_READING,
    kind: c.entity ? ('entity' as const) : ('smalltalk' as const),
    intent: c.intent,
    entity: c.entity,
    planner: { ...SAMPLE_READING.planner, accepted: c.accepted },
  };
  const params = queryParams({ ticker: c.tickers.length === 1 ? c.tickers[0] : null, tickers: c.tickers });
  const outcome = { status: c.status, problem: null, question: null, params, row_tickers: [], values: [], winner: null, also_questions: [] };
  return { request_id: c.request_id, client_id: c.client_id, conversation_id: c.conversation_id, turn_index: c.turn_index, answer: c.answer, reading, outcome };
}

function setup(policy: ContextPolicy = shipped) {
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  const clock = () => now;
  const store = new InMemoryContextStore(clock);
  const history = new InMemoryHistoryStore();
  const manager = new ContextManager({ policy, store, history, summarizer: new ExtractiveSummarizer(), clock });
  let current = manager;
  /** The hot store restarts empty (a Redis restart); the durable history stays. */
  const restartHotStore = () => (current = new ContextManager({ policy, store: new InMemoryContextStore(clock), history, summarizer: new ExtractiveSummarizer(), clock }));
  const advance = (ms: number) => (now += ms);
  let seq = 0;

  /** One question through open, the planner's fund decision and commit, as a turn goes. */
  async function ask(
    q: { client?: string; conv?: string; question: string; entity: string | null; tickers?: string[]; sources?: Array<'text' | 'context'> },
    answer: { status?: 'ok' | 'error' | 'needs_clarification'; accepted?: boolean; tickers?: string[] } = {},
  ) {
    const caller = { request_id: `r${++seq}`, client_id: q.client ?? 'c1', conversation_id: q.conv ?? 'conv1' };
    const opened = await current.open({ ...caller, question: q.question });
    const sources = q.sources ?? (q.entity && !q.entity.startsWith('history_') && !q.entity.startsWith('client_') ? ['text', 'context'] : []);
    const decided = resolveLastReference({
      policy,
      entity: q.entity,
      tickersInText: q.tickers ?? [],
      tickerSources: sources as Array<'text' | 'context'>,
      reference: opened.state.last_reference,
      currentTurn: opened.state.turn_index,
      unansweredTurns: opened.state.unanswered_since_reference,
    });
    const resolved = { ...decided, turn_index: opened.state.turn_index, memory: opened.memory, state: opened.state };
    const tickers = answer.tickers ?? decided.tickers;
    const reading = { ...SAMPLE_READING, kind: q.entity ? ('entity' as const) : ('smalltalk' as const), intent: q.entity ?? 'smalltalk', entity: q.entity };
    const accepted = answer.accepted ?? true;
    const committed = await current.commit({
      ...caller,
      turn_index: opened.state.turn_index,
      answer: `Resposta ${seq} sobre ${tickers.join(', ') || 'o mercado'}.`,
      reading: { ...reading, planner: { ...reading.planner, accepted } },
      outcome: {
        status: answer.status ?? 'ok',
        problem: null,
        question: null,
        params: queryParams({ ticker: tickers.length === 1 ? tickers[0] : null, tickers }),
        row_tickers: [],
        values: [],
        winner: null,
        also_questions: [],
      },
    });
    await current.drain();
    return { resolved, committed };
  }
  /** A question opened whose answer never commits (a 5xx or a timeout in a later step). */
  const fail = (question: string) => current.open({ request_id: `r${++seq}`, client_id: 'c1', conversation_id: 'conv1', question });
  return { manager, store, history, ask, fail, advance, restartHotStore };
}

describe('ContextManager', () => {
  it('flow cadastro -> risco -> overview inherits HGLG11', async () => {
    const { ask } = setup();
    const a = await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    expect(a.resolved.context).toEqual({ last_reference_used: false, reason: 'explicit_ticker_in_text' });
    expect(a.committed.reference_updated).toBe(true);
    const b = await ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(b.resolved).toMatchObject({ turn_index: 2, ticker: 'HGLG11', context: { last_reference_used: true, reason: 'inherited_last_reference' } });
    const c = await ask({ question: 'E o overview dele?', entity: 'fii_overview' });
    expect(c.resolved).toMatchObject({ turn_index: 3, ticker: 'HGLG11', context: { last_reference_used: true } });
  });

  it('a market question neither inherits nor erases the reference', async () => {
    const { ask, manager } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const usd = await ask({ question: 'Quanto está o dólar?', entity: 'history_currency_rates' });
    expect(usd.resolved.ticker).toBeNull();
    expect(usd.resolved.context.last_reference_used).toBe(false);
    expect(usd.committed.reference_updated).toBe(false);
    expect((await manager.debug({ client_id: 'c1', conversation_id: 'conv1' })).last_reference?.ticker).toBe('HGLG11');
    const risk = await ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(risk.resolved.ticker).toBe('HGLG11');
  });

  it('the reference expires after max_age_turns questions without a new one', async () => {
    const { ask } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    for (let i = 0; i < 3; i++) await ask({ question: 'E o IPCA?', entity: 'history_market_indicators' });
    const late = await ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(late.resolved.state.turn_index).toBe(5);
    expect(late.resolved.context).toEqual({ last_reference_used: false, reason: 'last_reference_expired' });
  });

  it('after the hot store restarts empty, the next turn reads the same state as without the restart', async () => {
    const run = async (restart: boolean) => {
      const s = setup();
      await s.ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
      await s.ask({ question: 'Quanto está o dólar?', entity: 'history_currency_rates' });
      if (restart) s.restartHotStore();
      const next = await s.ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
      const after = await s.ask({ question: 'E o overview dele?', entity: 'fii_overview' });
      return { next: next.resolved, after: after.resolved };
    };
    const kept = await run(false);
    const restarted = await run(true);
    expect(restarted.next).toMatchObject({ turn_index: 3, ticker: 'HGLG11', context: { last_reference_used: true, reason: 'inherited_last_reference' } });
    expect(restarted.next.state).toEqual(kept.next.state);
    const memory = (m: typeof kept.next.memory) => ({ summary: m.summary, recent: m.recent.map((t) => [t.role, t.content, t.meta.turn_index]) });
    expect(memory(restarted.next.memory)).toEqual(memory(kept.next.memory));
    expect(restarted.next.memory.recent).toHaveLength(4);
    // The rebuilt hot state carries on: the turn after it still inherits.
    expect(restarted.after).toMatchObject({ turn_index: 4, ticker: 'HGLG11' });
    expect(restarted.after.state).toEqual(kept.after.state);
  });

  it('a conversation idle past the TTL starts again from its numbering only, restart or not', async () => {
    const { ask, advance, restartHotStore } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    advance((shipped.ttl_seconds + 1) * 1000);
    restartHotStore();
    const next = await ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(next.resolved).toMatchObject({ turn_index: 2, ticker: null, context: { reason: 'no_last_reference' } });
  });

  it('questions whose answer never came do not age the reference, and leave the visible history but not the audit', async () => {
    const { ask, fail, manager, history } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    for (let i = 0; i < 3; i++) await fail(`Pergunta que falhou ${i}`);
    await ask({ question: 'E o IPCA?', entity: 'history_market_indicators' });
    const late = await ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(late.resolved.state).toMatchObject({ turn_index: 6, unanswered_since_reference: 3 });
    expect(late.resolved).toMatchObject({ ticker: 'HGLG11', context: { last_reference_used: true, reason: 'inherited_last_reference' } });
    const visible = (await manager.history({ client_id: 'c1', conversation_id: 'conv1', limit: 50 })).turns;
    expect(visible.map((t) => t.content).filter((c) => c.startsWith('Pergunta que falhou'))).toEqual([]);
    expect(visible.map((t) => t.meta.turn_index)).toEqual([1, 1, 5, 5, 6, 6]);
    const audit = await history.recent({ clientId: 'c1', conversationId: 'conv1' }, 50);
    expect(audit.filter((t) => t.turn.meta.unanswered === true).map((t) => t.turnIndex)).toEqual([2, 3, 4]);
    // Answered questions still age it: three more and it has expired.
    for (let i = 0; i < 3; i++) await ask({ question: 'E o IPCA?', entity: 'history_market_indicators' });
    const expired = await ask({ question: 'E o overview dele?', entity: 'fii_overview' });
    expect(expired.resolved.context).toEqual({ last_reference_used: false, reason: 'last_reference_expired' });
  });

  it('a question still running when the next one opens shows again once its answer lands', async () => {
    const { ask, manager } = setup();
    const key = { client_id: 'c1', conversation_id: 'conv1' };
    const slow = await manager.open({ ...key, request_id: 'slow', question: 'CNPJ do HGLG11?' });
    await ask({ question: 'Quanto está o dólar?', entity: 'history_currency_rates' });
    expect((await manager.history({ ...key, limit: 50 })).turns.map((t) => t.content)).not.toContain('CNPJ do HGLG11?');
    await manager.commit(
      commitOf({
        ...key,
        request_id: 'slow',
        turn_index: slow.state.turn_index,
        answer: 'O CNPJ é 11.728.688/0001-47.',
        status: 'ok',
        intent: 'fiis_cadastro',
        entity: 'fiis_cadastro',
        accepted: true,
        tickers: ['HGLG11'],
      }),
    );
    expect((await manager.history({ ...key, limit: 50 })).turns.map((t) => t.content)).toContain('CNPJ do HGLG11?');
  });

  it('an unaccepted or failed answer does not update the reference', async () => {
    const { ask, manager } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const failed = await ask({ question: 'Preço do MXRF11?', entity: 'fiis_precos', tickers: ['MXRF11'] }, { status: 'error' });
    expect(failed.committed.reference_updated).toBe(false);
    const rejected = await ask({ question: 'Dividendos do KNRI11?', entity: 'fiis_dividendos', tickers: ['KNRI11'] }, { accepted: false });
    expect(rejected.committed.reference_updated).toBe(false);
    expect((await manager.debug({ client_id: 'c1', conversation_id: 'conv1' })).last_reference?.ticker).toBe('HGLG11');
  });

  it('keeps conversations and clients apart, even with the same conversation_id', async () => {
    const { ask } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const otherConv = await ask({ conv: 'conv2', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(otherConv.resolved).toMatchObject({ turn_index: 1, ticker: null, context: { reason: 'no_last_reference' } });
    const otherClient = await ask({ client: 'c2', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(otherClient.resolved).toMatchObject({ turn_index: 1, ticker: null, context: { reason: 'no_last_reference' } });
  });

  it('a late answer to an older turn never overwrites a newer reference', async () => {
    const { manager } = setup();
    const caller = { client_id: 'c1', conversation_id: 'conv1' };
    const base = { intent: 'fiis_precos', entity: 'fiis_precos', ticker_sources: ['text', 'context'] as Array<'text' | 'context'> };
    const first = await manager.open({ ...caller, ...base, request_id: 'a', question: 'Preço do HGLG11?' });
    const second = await manager.open({ ...caller, ...base, request_id: 'b', question: 'Preço do MXRF11?' });
    const commit = { ...caller, status: 'ok' as const, intent: 'fiis_precos', entity: 'fiis_precos', accepted: true, meta: {} };
    expect((await manager.commit(commitOf({ ...commit, request_id: 'b', turn_index: second.state.turn_index, answer: 'MXRF11', tickers: ['MXRF11'] }))).reference_updated).toBe(
      true,
    );
    expect((await manager.commit(commitOf({ ...commit, request_id: 'a', turn_index: first.state.turn_index, answer: 'HGLG11', tickers: ['HGLG11'] }))).reference_updated).toBe(
      false,
    );
    expect((await manager.debug(caller)).last_reference).toMatchObject({ ticker: 'MXRF11', turn_index: 2 });
  });

  it('rejects a commit for a turn that was never opened', async () => {
    const { manager, ask } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const err = await manager
      .commit(
        commitOf({
          request_id: 'x',
          client_id: 'c1',
          conversation_id: 'conv1',
          turn_index: 9,
          answer: '',
          status: 'ok',
          intent: 'i',
          entity: null,
          accepted: true,
          tickers: [],
          meta: {},
        }),
      )
      .catch((e) => e);
    expect(CotaError.is(err, 'BAD_REQUEST')).toBe(true);
  });

  it('a commit whose hot store fails after the resolve still records the answer durably, and fails', async () => {
    const { manager, store, history } = setup();
    const caller = { request_id: 'r1', client_id: 'c1', conversation_id: 'conv1' };
    const resolved = await manager.open({
      ...caller,
      question: 'CNPJ do HGLG11?',
    });
    store.closeTurn = () => Promise.reject(new Error('redis down'));
    const err = await manager
      .commit(
        commitOf({
          ...caller,
          turn_index: resolved.state.turn_index,
          answer: 'O CNPJ é 11.728.688/0001-47.',
          status: 'ok',
          intent: 'fiis_cadastro',
          entity: 'fiis_cadastro',
          accepted: true,
          tickers: ['HGLG11'],
          meta: {},
        }),
      )
      .catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    const turns = await history.list({ clientId: 'c1', conversationId: 'conv1' }, 10);
    expect(turns.filter((t) => t.role === 'assistant').map((t) => t.content)).toEqual(['O CNPJ é 11.728.688/0001-47.']);
  });

  it('records the full history durably and continues numbering after the hot state expires', async () => {
    const { ask, manager, advance } = setup();
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    await ask({ question: 'E o Sharpe?', entity: 'fiis_financials_risk' });
    advance((shipped.ttl_seconds + 1) * 1000);
    const after = await ask({ question: 'E o overview dele?', entity: 'fii_overview' });
    expect(after.resolved.state.turn_index).toBe(3);
    expect(after.resolved.context.reason).toBe('no_last_reference');
    const h = await manager.history({ client_id: 'c1', conversation_id: 'conv1', limit: 100 });
    expect(h.turns.map((t) => [t.role, t.meta.turn_index])).toEqual([
      ['user', 1],
      ['assistant', 1],
      ['user', 2],
      ['assistant', 2],
      ['user', 3],
      ['assistant', 3],
    ]);
    expect(h.turns[0].content).toBe('CNPJ do HGLG11?');
    expect((await manager.history({ client_id: 'c2', conversation_id: 'conv1', limit: 100 })).turns).toEqual([]);
  });

  it('hands the narrator the last cycles verbatim and a summary of older ones', async () => {
    const { ask } = setup();
    for (let i = 1; i <= 4; i++) await ask({ question: `Pergunta número ${i} sobre o HGLG11?`, entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const r = await ask({ question: 'E agora?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    expect(r.resolved.memory.recent.map((t) => [t.role, t.meta.turn_index])).toEqual([
      ['user', 3],
      ['assistant', 3],
      ['user', 4],
      ['assistant', 4],
    ]);
    expect(r.resolved.memory.summary).toContain('Pergunta 1: Pergunta número 1 sobre o HGLG11?');
    expect(r.resolved.memory.summary).toContain('Pergunta 2:');
    expect(r.resolved.memory.summary).not.toContain('Pergunta 3:');
  });

  it('folds nothing while every turn is among the recent cycles; folds once one is older, from what the commit brought back', async () => {
    const { ask, store } = setup();
    const snapshots = jest.spyOn(store, 'snapshot');
    const closes = jest.spyOn(store, 'closeTurn');
    for (let i = 1; i <= shipped.memory.recent_cycles; i++) await ask({ question: `Pergunta ${i} sobre o HGLG11?`, entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    for (const r of closes.mock.results) expect((await r.value).forFolding).toBeUndefined();
    await ask({ question: 'Mais uma sobre o HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    expect((await closes.mock.results.at(-1)!.value).forFolding).toBeDefined();
    // No second read of the store: the commit's own round trip carried the turns.
    expect(snapshots).not.toHaveBeenCalled();
    expect((await store.snapshot({ clientId: 'c1', conversationId: 'conv1' })).summary?.through).toBe(1);
  });

  it('in a long conversation, folding memory reads only the newest turns and misses no question', async () => {
    const { ask, store } = setup();
    for (let i = 1; i <= 12; i++) await ask({ question: `Pergunta número ${i} sobre o HGLG11?`, entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const snapshots = jest.spyOn(store, 'snapshot');
    const closes = jest.spyOn(store, 'closeTurn');
    await ask({ question: 'Pergunta número 13 sobre o HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    // One fold: the newest turns only (what the summary has not folded, two turns per question), brought back by the commit.
    expect((await closes.mock.results[0].value).forFolding.turns).toHaveLength(2 * (shipped.memory.recent_cycles + 1) + 2);
    expect(snapshots).not.toHaveBeenCalled();
    const summary = (await store.snapshot({ clientId: 'c1', conversationId: 'conv1' })).summary!;
    expect(summary.through).toBe(13 - shipped.memory.recent_cycles);
    for (let i = 1; i <= summary.through; i++) expect(summary.text).toContain(`Pergunta ${i}: Pergunta número ${i} sobre`);
  });

  it('folding reads the whole hot list when a question is not among the newest turns', async () => {
    const { manager, store, advance } = setup();
    const key = { clientId: 'c1', conversationId: 'conv1' };
    const caller = { client_id: 'c1', conversation_id: 'conv1' };
    const open = (n: number) =>
      manager.open({
        ...caller,
        request_id: `q${n}`,
        question: `Pergunta número ${n}?`,
      });
    const close = async (n: number) => {
      await manager.commit(
        commitOf({
          ...caller,
          request_id: `q${n}`,
          turn_index: n,
          answer: `Resposta ${n}.`,
          status: 'ok',
          intent: 'fiis_cadastro',
          entity: 'fiis_cadastro',
          accepted: true,
          tickers: ['HGLG11'],
          meta: {},
        }),
      );
      await manager.drain();
    };
    // Questions 1-4 go unanswered long enough to be skipped as abandoned; 5-9 are asked and answered.
    for (let n = 1; n <= 4; n++) await open(n);
    advance(120_000);
    for (let n = 5; n <= 9; n++) {
      await open(n);
      await close(n);
    }
    expect((await store.snapshot(key)).summary?.through).toBe(7);
    // The late answers to 1-4 arrive, then question 10: its fold needs question 8, which those
    // late answers pushed out of the newest turns.
    for (let n = 1; n <= 4; n++) await close(n);
    await open(10);
    const snapshots = jest.spyOn(store, 'snapshot');
    await close(10);
    // The commit brought back the newest 2 * 3 + 2 turns; question 8 is not among them, so the whole list is read.
    expect(snapshots.mock.calls.map((c) => c[1])).toStrictEqual([undefined]);
    const summary = (await store.snapshot(key)).summary!;
    expect(summary.through).toBe(8);
    expect(summary.text).toContain('Pergunta 8: Pergunta número 8?');
  });

  it('hands the memory over whatever the entity: the narrator applies its own scope once the entity is known', async () => {
    const policy = { ...shipped, narrator: { ...shipped.narrator, denied_entities: ['client_fiis_positions'] } };
    const { ask } = setup(policy);
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const r = await ask({ question: 'Minha carteira?', entity: 'client_fiis_positions' });
    expect(r.resolved.memory.recent).toHaveLength(2);
    expect(r.resolved.context.reason).toBe('entity_never_inherits');
  });

  it('with context disabled: no inheritance, no memory, history still recorded', async () => {
    const { ask, manager } = setup({ ...shipped, enabled: false });
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const r = await ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(r.resolved.context).toEqual({ last_reference_used: false, reason: 'context_disabled' });
    expect(r.resolved.memory).toEqual({ recent: [], summary: null });
    expect((await manager.history({ client_id: 'c1', conversation_id: 'conv1', limit: 10 })).turns).toHaveLength(4);
  });

  it('session values expire after their own TTL and can be deleted', async () => {
    const { manager, advance } = setup();
    const key = { client_id: 'c1', conversation_id: 'conv1' };
    await manager.sessionSet({ ...key, key: 'pending_action', value: { tool: 'enviar_email' }, ttl_seconds: null });
    await manager.sessionSet({ ...key, key: 'active_report_id', value: 'rel_1', ttl_seconds: null });
    expect((await manager.sessionGet(key)).values).toEqual({ pending_action: { tool: 'enviar_email' }, active_report_id: 'rel_1' });
    advance((shipped.session.keys.pending_action.ttl_seconds + 1) * 1000);
    expect((await manager.sessionGet(key)).values).toEqual({ active_report_id: 'rel_1' });
    await manager.sessionSet({ ...key, key: 'active_report_id', value: null, ttl_seconds: null });
    expect((await manager.sessionGet({ ...key, keys: ['active_report_id'] })).values).toEqual({});
    await expect(manager.sessionSet({ ...key, key: 'x', value: 1, ttl_seconds: shipped.session.max_ttl_seconds + 1 })).rejects.toThrow(/exceeds/);
  });

  it('clear forgets the reference and session but not the history', async () => {
    const { ask, manager } = setup();
    const key = { client_id: 'c1', conversation_id: 'conv1' };
    await ask({ question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    await manager.sessionSet({ ...key, key: 'active_report_id', value: 'rel_1', ttl_seconds: 60 });
    expect(await manager.clear(key)).toEqual({ cleared: true });
    const debug = await manager.debug(key);
    expect(debug).toMatchObject({ turn_count: 0, last_reference: null, session: {}, recent: [] });
    const r = await ask({ question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(r.resolved).toMatchObject({ turn_index: 2, ticker: null });
    expect(await manager.clear({ client_id: 'c1', conversation_id: 'nada' })).toEqual({ cleared: false });
  });
});

describe('ContextManager scopes and limits', () => {
  it('loadRecent applies the planner block (entity filter, max_turns) and keeps long answers whole only in history', async () => {
    const policy = { ...shipped, max_chars: 200, narrator: { ...shipped.narrator, max_chars: 100 }, planner: { ...shipped.planner, denied_entities: ['client_fiis_positions'] } };
    const store = new InMemoryContextStore();
    const history = new InMemoryHistoryStore();
    const manager = new ContextManager({ policy, store, history, summarizer: new ExtractiveSummarizer() });
    const caller = { request_id: 'r', client_id: 'c', conversation_id: 'x' };
    const r = await manager.open({
      ...caller,
      question: 'CNPJ do HGLG11?',
    });
    const long = 'O CNPJ do HGLG11 é 11.728.688/0001-47. ' + 'x'.repeat(500);
    await manager.commit(
      commitOf({
        ...caller,
        turn_index: r.state.turn_index,
        answer: long,
        status: 'ok',
        intent: 'fiis_cadastro',
        entity: 'fiis_cadastro',
        accepted: true,
        tickers: ['HGLG11'],
        meta: {},
      }),
    );
    // The capped answer alone fills max_chars, so the question before it is dropped.
    const planner = await manager.loadRecent(caller, { name: 'planner', entity: 'fiis_precos' });
    expect(planner.map((t) => [t.role, t.content.length])).toEqual([['assistant', 200]]);
    for (const q of ['E o preço?', 'E o P/VP?']) {
      await manager.open({ ...caller, question: q });
    }
    expect((await manager.loadRecent(caller, { name: 'planner', entity: 'fiis_precos' })).map((t) => t.content)).toEqual(['E o preço?', 'E o P/VP?']);
    expect(await manager.loadRecent(caller, { name: 'planner', entity: 'client_fiis_positions' })).toEqual([]);
    expect((await manager.history({ ...caller, limit: 10 })).turns[1].content).toBe(long);
  });
});
