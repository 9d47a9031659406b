import {
  CommitRequest,
  ContextSubjects,
  ConversationState,
  ExecutorSubjects,
  InvokeRequest,
  NarrateRequest,
  NarratorSubjects,
  PlannerSubjects,
  PlanRequest,
  PlanResponse,
  QueryParams,
  RagSubjects,
  ToolGateSubjects,
} from '@cota/contracts';
import { Bus, BusClient, InProcessTransport } from '@cota/messaging';
import { z } from 'zod';
import { AskPipeline } from './ask-pipeline';

const params: QueryParams = { ticker: null, tickers: [], agg: 'latest', window: null, limit: null, order: null, order_by: null, filters: {} };
const plannerMeta = {
  normalized: '',
  score: 2,
  gap: 1,
  accepted: true,
  thresholds: { min_score: 1, min_gap: 0.3 },
  candidates: [{ entity: 'fiis_financials_risk', score: 2, signals: [] }],
  llm_used: false,
  reason: 'test',
};

function plan(over: Partial<PlanResponse>): PlanResponse {
  return {
    kind: 'entity',
    intent: 'fiis_financials_risk',
    entity: 'fiis_financials_risk',
    tickers_in_text: [],
    unknown_tickers: [],
    params,
    ticker_sources: ['text', 'context'],
    ticker_required: true,
    tool: null,
    smalltalk: null,
    out_of_scope: null,
    confirmation: null,
    advice: false,
    elliptic: false,
    follow_up_candidate: false,
    question: null,
    follow_up: null,
    plan: null,
    planner: plannerMeta,
    context: { last_reference_used: false, reason: 'test' },
    ...over,
  };
}

/** Fake services on an in-process bus: each records what it received, and the order of the calls. */
function setup(opts: { plan: PlanResponse; rows?: number; rowTicker?: string; ragDown?: boolean; commitDown?: boolean }) {
  const transport = new InProcessTransport();
  const bus = new Bus(transport, 'test');
  const seen = {
    calls: [] as string[],
    plan: [] as z.infer<typeof PlanRequest>[],
    commit: [] as z.infer<typeof CommitRequest>[],
    narrate: [] as NarrateRequest[],
    queries: [] as QueryParams[],
    invoke: [] as z.infer<typeof InvokeRequest>[],
  };
  const state = ConversationState.parse({ turn_index: 2, last_entity: 'fiis_cadastro', last_tickers: ['HGLG11'], last_reference: null });
  bus.serve(ContextSubjects.open, () => (seen.calls.push('open'), { state, memory: { recent: [], summary: null } }));
  bus.serve(PlannerSubjects.plan, (req) => (seen.calls.push('plan'), seen.plan.push(req), opts.plan));
  if (!opts.commitDown) bus.serve(ContextSubjects.commit, (req) => (seen.calls.push('commit'), seen.commit.push(req), { reference_updated: true }));
  bus.serve(ExecutorSubjects.query, (req) => {
    seen.calls.push('query');
    seen.queries.push(req.params);
    const rows = Array.from({ length: opts.rows ?? 1 }, () => ({ ticker: req.params.ticker ?? opts.rowTicker ?? null, sharpe_ratio: 0.42 }));
    return { entity: req.entity, columns: [], rows, row_count: rows.length, truncated: false, as_of: null, sources: ['araquem'], params: req.params };
  });
  if (!opts.ragDown) {
    bus.serve(RagSubjects.retrieve, (req) => ({ enabled: false, reason: `denied:${req.intent}`, used_collections: [], chunks: [], total_chunks: 0, policy: null, error: null }));
  }
  bus.serve(NarratorSubjects.narrate, (req) => {
    seen.calls.push('narrate');
    seen.narrate.push(req);
    return { answer: `resposta ${req.problem ?? 'ok'}`, narrator: { llm_used: false, reason: 'llm_disabled', model: null, latency_ms: 0 } };
  });
  bus.serve(ToolGateSubjects.invoke, (req) => {
    seen.invoke.push(req);
    return {
      status: req.confirmation ? ('ok' as const) : ('confirmation_required' as const),
      tool: {
        name: 'enviar_relatorio_email',
        args: { report_id: 'rel_1' },
        injected: [{ arg: 'report_id', value: 'rel_1', source: 'session.active_report_id' }],
        status: req.confirmation ? ('executed' as const) : ('confirmation_required' as const),
      },
      result: null,
      message: 'Posso enviar?',
    };
  });
  return { pipeline: new AskPipeline(new BusClient(bus)), seen, transport, state };
}

const input = { request_id: 'r-1', client_id: 'ana', conversation_id: 'c-1', nickname: 'Ana', question: 'Esse fundo tem Sharpe bom?' };
const inherited = plan({ params: { ...params, ticker: 'HGLG11', tickers: ['HGLG11'] }, context: { last_reference_used: true, reason: 'inherited_last_reference' } });

describe('AskPipeline', () => {
  it('says a fund Cota does not know is not found, for a measure as for an entity, without querying', async () => {
    const question = { condition: null, subjects: [], measure: 'dividend', agg: 'total' as const, also: [], period: null, group_by: null, compare: null };
    for (const p of [plan({ unknown_tickers: ['KNXP11'] }), plan({ kind: 'measure', entity: 'fiis_dividendos', unknown_tickers: ['KNXP11'], question })]) {
      const { pipeline, seen } = setup({ plan: p });
      const out = await pipeline.ask({ ...input, question: 'quanto o knxp11 pagou de dividendos em 2024' });
      expect(out.status).toBe('error');
      expect(seen.narrate[0]).toMatchObject({ problem: 'unknown_ticker', unknown_tickers: ['KNXP11'] });
      expect(seen.calls).toEqual(['open', 'plan', 'narrate', 'commit']);
    }
  });

  it('makes five sequential calls: open, plan (with what the conversation holds), act, narrate, commit (with the reading and what the answer found)', async () => {
    const { pipeline, seen, state } = setup({ plan: inherited });
    const out = await pipeline.ask(input);
    expect(seen.calls).toEqual(['open', 'plan', 'query', 'narrate', 'commit']);
    expect(seen.plan[0]).toMatchObject({ question: input.question, state });
    expect(Object.keys(out.meta.timings_ms)).toEqual(['open', 'plan', 'act', 'narrate', 'commit', 'total']);
    expect(seen.commit[0]).toMatchObject({
      turn_index: 2,
      reading: { kind: 'entity', entity: 'fiis_financials_risk' },
      outcome: { status: 'ok', problem: null, row_tickers: ['HGLG11'] },
    });
  });

  it('queries with the funds the reading decided and answers with the contract meta', async () => {
    const { pipeline, seen } = setup({ plan: inherited });
    const out = await pipeline.ask(input);
    expect(out.status).toBe('ok');
    expect(seen.queries[0]).toMatchObject({ ticker: 'HGLG11', tickers: ['HGLG11'] });
    expect(out.meta).toMatchObject({
      request_id: 'r-1',
      intent: 'fiis_financials_risk',
      entity: 'fiis_financials_risk',
      params: { ticker: 'HGLG11', tickers: ['HGLG11'], agg: 'latest' },
      context: { last_reference_used: true, reason: 'inherited_last_reference', turn_index: 2 },
      planner: { accepted: true },
      narrator: { llm_used: false },
    });
    expect(out.results).toEqual({ fiis_financials_risk: [{ ticker: 'HGLG11', sharpe_ratio: 0.42 }] });
  });

  it('answers a compound question part by part: each part queried and worded for its own words, one answer, one commit', async () => {
    const fund = { ...params, ticker: 'GTWR11', tickers: ['GTWR11'] };
    const cnpj = plan({ entity: 'fiis_cadastro', intent: 'fiis_cadastro', params: fund, asked: 'qual o cnpj do gtwr11?' });
    const pvp = plan({ entity: 'fiis_financials_snapshot', intent: 'fiis_financials_snapshot', params: fund, asked: 'qual o p/vp do gtwr11?' });
    const { pipeline, seen } = setup({ plan: { ...cnpj, parts: [pvp] } });
    const out = await pipeline.ask({ ...input, question: 'qual o cnpj e o p/vp do gtwr11?' });
    expect(seen.calls.filter((c) => c === 'query')).toHaveLength(2);
    expect(seen.narrate.map((n) => [n.entity, n.question])).toEqual([
      ['fiis_cadastro', 'qual o cnpj do gtwr11?'],
      ['fiis_financials_snapshot', 'qual o p/vp do gtwr11?'],
    ]);
    expect(out.answer).toBe('resposta ok\n\nresposta ok');
    expect(Object.keys(out.results).sort()).toEqual(['fiis_cadastro', 'fiis_financials_snapshot']);
    expect(seen.calls.filter((c) => c === 'commit')).toHaveLength(1);
    expect(seen.commit[0].reading).toMatchObject({ entity: 'fiis_cadastro', parts: [{ entity: 'fiis_financials_snapshot' }] });
  });

  it('asks back for a fund when the entity needs one and none is known, without querying', async () => {
    const { pipeline, seen } = setup({ plan: plan({}) });
    const out = await pipeline.ask(input);
    expect(out.status).toBe('needs_clarification');
    expect(seen.queries).toHaveLength(0);
    expect(seen.narrate[0].problem).toBe('ticker_required');
    expect(seen.commit[0].outcome).toMatchObject({ status: 'needs_clarification', problem: 'ticker_required' });
  });

  it('asks back which series when a market measure names none, never an error, without querying', async () => {
    const question = { condition: null, subjects: [], measure: 'index_points', agg: 'variation' as const, also: [], period: null, group_by: null, compare: null };
    const { pipeline, seen } = setup({ plan: plan({ kind: 'measure', entity: 'history_b3_indexes', ticker_required: false, question }) });
    const out = await pipeline.ask({ ...input, question: 'e em 2023?' });
    expect(out.status).toBe('needs_clarification');
    expect(seen.calls).not.toContain('measure');
    expect(seen.narrate[0].problem).toBe('series_required');
  });

  it('small talk fetches nothing', async () => {
    const { pipeline, seen } = setup({ plan: plan({ kind: 'smalltalk', intent: 'smalltalk', entity: null, smalltalk: 'greeting', ticker_sources: [] }) });
    const out = await pipeline.ask({ ...input, question: 'oi' });
    expect(out.status).toBe('ok');
    expect(seen.calls).toEqual(['open', 'plan', 'narrate', 'commit']);
    expect(out.meta.rag).toMatchObject({ enabled: false, reason: 'not_needed' });
  });

  it('still answers when RAG is down, and says so in meta.rag', async () => {
    const { pipeline } = setup({ plan: inherited, ragDown: true });
    const out = await pipeline.ask(input);
    expect(out.status).toBe('ok');
    expect(out.meta.rag).toMatchObject({ enabled: false, reason: 'rag_unavailable', error: 'UNAVAILABLE' });
  });

  it('reports no data to the narrator and the conversation', async () => {
    const { pipeline, seen } = setup({ plan: inherited, rows: 0 });
    const out = await pipeline.ask(input);
    expect(seen.narrate[0].problem).toBe('no_data');
    expect(out.answer).toBe('resposta no_data');
    expect(seen.commit[0].outcome.problem).toBe('no_data');
  });

  it('gives no answer whose turn could not be recorded: UNAVAILABLE naming the context service', async () => {
    const { pipeline } = setup({ plan: inherited, commitDown: true });
    await expect(pipeline.ask(input)).rejects.toMatchObject({ code: 'UNAVAILABLE', service: 'context' });
  });

  it("hands the tool gate the reading's call, never the question, and carries meta.tool and the confirmation status", async () => {
    const tool = { name: 'enviar_relatorio_email', args: { destinatario: 'ana@exemplo.com' }, continuation: 'none' as const, own: true, context_ticker: null };
    const { pipeline, seen } = setup({ plan: plan({ kind: 'tool', intent: 'enviar_relatorio_email', entity: null, tool, ticker_sources: [] }) });
    const out = await pipeline.ask({ ...input, question: 'manda por e-mail pra ana@exemplo.com' });
    expect(out.status).toBe('confirmation_required');
    expect(seen.invoke[0]).toEqual({ request_id: 'r-1', client_id: 'ana', conversation_id: 'c-1', tool, confirmation: null });
    expect(out.meta.tool).toMatchObject({ name: 'enviar_relatorio_email', injected: [{ arg: 'report_id', source: 'session.active_report_id' }] });
  });

  it('fails with UNAVAILABLE naming the service when the context is down', async () => {
    const down = new AskPipeline(new BusClient(new Bus(new InProcessTransport(), 'empty')));
    await expect(down.ask(input)).rejects.toMatchObject({ code: 'UNAVAILABLE', service: 'context' });
  });
});
