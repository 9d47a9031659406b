import {
  CommitRequest,
  ContextSubjects,
  ExecutorSubjects,
  NarrateRequest,
  NarratorSubjects,
  PlannerSubjects,
  PlanResponse,
  QueryParams,
  RagSubjects,
  ResolveRequest,
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
    confirmation: null,
    advice: false,
    elliptic: false,
    follow_up_candidate: false,
    question: null,
    follow_up: null,
    plan: null,
    planner: plannerMeta,
    ...over,
  };
}

/** Fake services on an in-process bus: each records what it received. */
function setup(opts: { plan: PlanResponse; inherited?: string | null; rows?: number; rowTicker?: string; ragDown?: boolean; commitDown?: boolean }) {
  const transport = new InProcessTransport();
  const bus = new Bus(transport, 'test');
  const seen = { resolve: [] as z.infer<typeof ResolveRequest>[], commit: [] as z.infer<typeof CommitRequest>[], narrate: [] as NarrateRequest[], queries: [] as QueryParams[] };
  bus.serve(PlannerSubjects.plan, () => opts.plan);
  bus.serve(ContextSubjects.resolve, (req) => {
    seen.resolve.push(req);
    const t = req.tickers_in_text.length ? req.tickers_in_text : opts.inherited ? [opts.inherited] : [];
    return {
      turn_index: 2,
      ticker: t.length === 1 ? t[0] : null,
      tickers: t,
      context: { last_reference_used: !req.tickers_in_text.length && Boolean(opts.inherited), reason: 'test' },
      memory: { recent: [], summary: null },
    };
  });
  if (!opts.commitDown) bus.serve(ContextSubjects.commit, (req) => (seen.commit.push(req), { reference_updated: req.accepted }));
  bus.serve(ExecutorSubjects.query, (req) => {
    seen.queries.push(req.params);
    const rows = Array.from({ length: opts.rows ?? 1 }, () => ({ ticker: req.params.ticker ?? opts.rowTicker ?? null, sharpe_ratio: 0.42 }));
    return { entity: req.entity, columns: [], rows, row_count: rows.length, truncated: false, as_of: null, sources: ['araquem'], params: req.params };
  });
  if (!opts.ragDown) {
    bus.serve(RagSubjects.retrieve, (req) => ({ enabled: false, reason: `denied:${req.intent}`, used_collections: [], chunks: [], total_chunks: 0, policy: null, error: null }));
  }
  bus.serve(
    NarratorSubjects.narrate,
    (req) => (seen.narrate.push(req), { answer: `resposta ${req.problem ?? 'ok'}`, narrator: { llm_used: false, reason: 'llm_disabled', model: null, latency_ms: 0 } }),
  );
  bus.serve(ToolGateSubjects.invoke, (req) => ({
    status: req.confirmation ? ('ok' as const) : ('confirmation_required' as const),
    tool: {
      name: 'enviar_relatorio_email',
      args: { report_id: 'rel_1' },
      injected: [{ arg: 'report_id', value: 'rel_1', source: 'session.active_report_id' }],
      status: req.confirmation ? ('executed' as const) : ('confirmation_required' as const),
    },
    result: null,
    message: 'Posso enviar?',
  }));
  return { pipeline: new AskPipeline(new BusClient(bus)), seen, transport };
}

const input = { request_id: 'r-1', client_id: 'ana', conversation_id: 'c-1', nickname: 'Ana', question: 'Esse fundo tem Sharpe bom?' };

describe('AskPipeline', () => {
  it('a list across funds that came down to one fund is about that fund (the reference it commits)', async () => {
    const across = plan({ ticker_sources: [], ticker_required: false, params: { ...params, ticker: null, tickers: [], order_by: 'sharpe_ratio', limit: 1 } });
    const { pipeline, seen } = setup({ plan: across, rowTicker: 'CNES11' });
    await pipeline.ask({ ...input, question: 'qual fii de lajes tem o maior sharpe?' });
    expect(seen.commit[0]).toMatchObject({ accepted: true, tickers: ['CNES11'], listed_tickers: ['CNES11'] });
  });

  it('uses the inherited ticker, answers, and commits an accepted single-ticker answer', async () => {
    const { pipeline, seen } = setup({ plan: plan({}), inherited: 'HGLG11' });
    const out = await pipeline.ask(input);
    expect(out.status).toBe('ok');
    expect(seen.queries[0]).toMatchObject({ ticker: 'HGLG11', tickers: ['HGLG11'] });
    expect(out.meta).toMatchObject({
      request_id: 'r-1',
      intent: 'fiis_financials_risk',
      entity: 'fiis_financials_risk',
      params: { ticker: 'HGLG11', tickers: ['HGLG11'], agg: 'latest' },
      context: { last_reference_used: true },
      planner: { accepted: true },
      narrator: { llm_used: false },
    });
    expect(out.results).toEqual({ fiis_financials_risk: [{ ticker: 'HGLG11', sharpe_ratio: 0.42 }] });
    expect(seen.commit[0]).toMatchObject({ accepted: true, tickers: ['HGLG11'], status: 'ok', turn_index: 2 });
    expect(Object.keys(out.meta.timings_ms)).toEqual(expect.arrayContaining(['planner', 'context_resolve', 'executor', 'rag', 'narrator', 'context_commit', 'total']));
  });

  it('asks back for a fund when the entity needs one and none is known, without querying', async () => {
    const { pipeline, seen } = setup({ plan: plan({}), inherited: null });
    const out = await pipeline.ask(input);
    expect(out.status).toBe('needs_clarification');
    expect(seen.queries).toHaveLength(0);
    expect(seen.narrate[0].problem).toBe('ticker_required');
    expect(seen.commit[0].accepted).toBe(false);
  });

  it('does not pass an entity to context resolution for non-entity plans (nothing to inherit)', async () => {
    const { pipeline, seen } = setup({ plan: plan({ kind: 'smalltalk', intent: 'smalltalk', entity: null, smalltalk: 'greeting', ticker_sources: [] }) });
    const out = await pipeline.ask({ ...input, question: 'oi' });
    expect(out.status).toBe('ok');
    expect(seen.resolve[0].entity).toBeNull();
    expect(out.meta.rag).toMatchObject({ enabled: false, reason: 'not_needed' });
  });

  it('still answers when RAG is down, and says so in meta.rag', async () => {
    const { pipeline } = setup({ plan: plan({}), inherited: 'HGLG11', ragDown: true });
    const out = await pipeline.ask(input);
    expect(out.status).toBe('ok');
    expect(out.meta.rag).toMatchObject({ enabled: false, reason: 'rag_unavailable', error: 'UNAVAILABLE' });
  });

  it('reports no data without updating the reference', async () => {
    const { pipeline, seen } = setup({ plan: plan({}), inherited: 'HGLG11', rows: 0 });
    const out = await pipeline.ask(input);
    expect(seen.narrate[0].problem).toBe('no_data');
    expect(out.answer).toBe('resposta no_data');
    expect(seen.commit[0].accepted).toBe(false);
  });

  it('gives no answer whose turn could not be recorded: UNAVAILABLE naming the context service', async () => {
    const { pipeline } = setup({ plan: plan({}), inherited: 'HGLG11', commitDown: true });
    await expect(pipeline.ask(input)).rejects.toMatchObject({ code: 'UNAVAILABLE', service: 'context' });
  });

  it('passes tools to the tool gate and carries meta.tool and confirmation status', async () => {
    const { pipeline } = setup({
      plan: plan({ kind: 'tool', intent: 'enviar_relatorio_email', entity: null, tool: { name: 'enviar_relatorio_email', args: {} }, ticker_sources: [] }),
    });
    const out = await pipeline.ask({ ...input, question: 'manda por e-mail' });
    expect(out.status).toBe('confirmation_required');
    expect(out.meta.tool).toMatchObject({ name: 'enviar_relatorio_email', injected: [{ arg: 'report_id', source: 'session.active_report_id' }] });
  });

  it('fails with UNAVAILABLE naming the service when the planner is down', async () => {
    const down = new AskPipeline(new BusClient(new Bus(new InProcessTransport(), 'empty')));
    await expect(down.ask(input)).rejects.toMatchObject({ code: 'UNAVAILABLE', service: 'planner' });
  });

  it('re-plans an elliptic follow-up with the subject of the previous answer', async () => {
    const transport = new InProcessTransport();
    const bus = new Bus(transport, 'test');
    const planned: Array<string | null> = [];
    const sentFilters: Array<Record<string, string>> = [];
    bus.serve(PlannerSubjects.plan, (req) => {
      planned.push(req.previous_entity);
      sentFilters.push(req.previous_filters);
      return req.previous_entity
        ? plan({ entity: req.previous_entity, intent: req.previous_entity, tickers_in_text: ['XPML11'], params: { ...params, ticker: 'XPML11', tickers: ['XPML11'] } })
        : plan({ kind: 'clarification', entity: 'fii_overview', elliptic: true, tickers_in_text: ['XPML11'], planner: { ...plannerMeta, accepted: false } });
    });
    bus.serve(ContextSubjects.peek, () => ({
      last_entity: 'fiis_financials_snapshot',
      last_tickers: ['VISC11'],
      last_filters: { sector: 'Shoppings' },
      last_question: null,
      last_listed_tickers: [],
      earlier_subjects: [],
      earlier_period: null,
      last_params: null,
      pending_call: null,
      last_call: null,
      last_kind: 'entity',
      last_reference: null,
    }));
    bus.serve(ContextSubjects.resolve, (req) => ({
      turn_index: 2,
      ticker: req.tickers_in_text[0] ?? null,
      tickers: req.tickers_in_text,
      context: { last_reference_used: false, reason: 'explicit_ticker_in_text' },
      memory: { recent: [], summary: null },
    }));
    bus.serve(ContextSubjects.commit, () => ({ reference_updated: true }));
    bus.serve(ExecutorSubjects.query, (req) => ({
      entity: req.entity,
      columns: [],
      rows: [{ ticker: 'XPML11' }],
      row_count: 1,
      truncated: false,
      as_of: null,
      sources: [],
      params: req.params,
    }));
    bus.serve(NarratorSubjects.narrate, () => ({ answer: 'ok', narrator: { llm_used: false, reason: 'llm_disabled', model: null, latency_ms: 0 } }));
    const out = await new AskPipeline(new BusClient(bus)).ask({ ...input, question: 'E o do XPML11?' });
    expect(planned).toEqual([null, 'fiis_financials_snapshot']);
    // The planner edits the previous parameters (libs/planning follow-up): the pipeline only sends them.
    expect(sentFilters).toEqual([{}, { sector: 'Shoppings' }]);
    expect(out.meta).toMatchObject({ entity: 'fiis_financials_snapshot', params: { ticker: 'XPML11' } });
    expect(out.meta.timings_ms).toHaveProperty('planner_followup');
  });
});
