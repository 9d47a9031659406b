import { z } from 'zod';
import { RpcDef } from './define';
import { QueryParams } from './common';
import type { StructuredQuestion } from './question';
import { PlannerSubjects } from './subjects/planner';
import { ContextSubjects } from './subjects/context';
import { ExecutorSubjects } from './subjects/executor';
import { ToolGateSubjects } from './subjects/tool-gate';
import { RagSubjects } from './subjects/rag';
import { NarratorSubjects } from './subjects/narrator';
import { HealthSubjects } from './subjects/health';
import { PrivacySubjects } from './subjects/privacy';
import { WarehouseEvents, type WarehouseEventName } from './subjects/warehouse-events';

/**
 * One valid request and reply per subject: contract tests round-trip them on both transports,
 * and they document each subject by example.
 */
const caller = { request_id: 'req-1', client_id: 'cliente-demo-1', conversation_id: 'conv-1' };
const params: z.infer<typeof QueryParams> = {
  ticker: 'HGLG11',
  tickers: ['HGLG11'],
  agg: 'latest',
  window: 'rows:1',
  limit: null,
  order: null,
  order_by: null,
  filters: {},
};
const plannerMeta = {
  normalized: 'qual o cnpj do hglg11',
  score: 3.2,
  gap: 2.1,
  accepted: true,
  thresholds: { min_score: 1, min_gap: 0.5 },
  candidates: [{ entity: 'fiis_cadastro', score: 3.2, signals: ['cnpj'] }],
  llm_used: false,
  reason: 'deterministic',
};
const queryResult = {
  entity: 'fiis_cadastro',
  columns: [
    { name: 'ticker', type: 'text' as const, label: 'Ticker' },
    { name: 'fii_cnpj', type: 'cnpj' as const, label: 'CNPJ' },
  ],
  rows: [{ ticker: 'HGLG11', fii_cnpj: '11.728.688/0001-47' }],
  row_count: 1,
  truncated: false,
  as_of: '2025-11-22',
  sources: ['araquem'],
  params,
};
const toolMeta = { name: 'gerar_relatorio_diario', args: {}, injected: [], status: 'executed' as const };
const ragMeta = {
  enabled: true,
  reason: 'allowed',
  used_collections: ['concepts-fiis'],
  chunks: [{ text: 'P/VP compara preço e valor patrimonial.', score: 0.8, doc_id: 'pvp', chunk_id: 'pvp#0', collection: 'concepts-fiis', entity: null, source_id: null, tags: [] }],
  total_chunks: 1,
  policy: { max_chunks: 3 },
  error: null,
};
const turn = { role: 'user' as const, content: 'CNPJ do HGLG11?', created_at: '2026-01-01T00:00:00.000Z', meta: {} };

const ifixIn2024 = {
  subjects: [{ kind: 'index' as const, id: 'IFIX' }],
  measure: 'index_points',
  agg: 'variation' as const,
  period: { kind: 'range' as const, from: '2024-01-01', to: '2024-12-31', grain: 'year' as const },
  group_by: null,
  compare: null,
  condition: null,
};

/** A turn's reading, as the planner returns it: samples, tests and benchmarks share it. */
export const SAMPLE_READING = {
  kind: 'entity' as const,
  intent: 'fiis_cadastro',
  entity: 'fiis_cadastro',
  tickers_in_text: ['HGLG11'],
  unknown_tickers: [],
  params,
  context: { last_reference_used: false, reason: 'explicit_ticker_in_text' },
  ticker_sources: ['text' as const, 'context' as const],
  ticker_required: true,
  tool: null,
  smalltalk: null,
  out_of_scope: null,
  advice: false,
  confirmation: null,
  elliptic: false,
  follow_up_candidate: false,
  question: null,
  plan: null,
  follow_up: null,
  planner: plannerMeta,
};

/** What the sample reading's answer found: one fund's row. */
/** A question with no subject of its own over 2023: what a tool that measured that year leaves ("e o IFIX no mesmo período?"). */
export const SAMPLE_PERIOD_QUESTION: StructuredQuestion = {
  subjects: [],
  measure: null,
  agg: 'variation',
  also: [],
  period: { kind: 'range', from: '2023-01-01', to: '2023-12-31', grain: 'year' },
  group_by: null,
  compare: null,
  condition: null,
};

export const SAMPLE_OUTCOME = { status: 'ok' as const, problem: null, question: null, params, row_tickers: ['HGLG11'], values: [], winner: null, also_questions: [] };

const conversationState = {
  turn_index: 2,
  last_entity: 'fiis_cadastro',
  last_tickers: ['HGLG11'],
  last_reference: { ticker: 'HGLG11', entity: 'fiis_cadastro', intent: 'fiis_cadastro', updated_at: '2026-01-01T00:00:00.000Z', turn_index: 1 },
};

/** One alert notification (libs/alerts), as GET /me/notifications lists it. */
export const SAMPLE_NOTIFICATION = {
  notification_id: 7,
  rule_id: 'alr_3f2b9c1e',
  title: 'XPML11 anunciou provento',
  body: 'O XPML11 anunciou R$ 0,92 por cota (data-com 28/11/2026, pagamento em 12/12/2026).',
  created_at: '2026-11-27T21:31:02.000Z',
  read: false,
};

/** One of the client's alert rules, as GET /me/alerts lists it. */
export const SAMPLE_ALERT = {
  alert_id: 'alr_3f2b9c1e',
  number: 1,
  description: 'quando o XPML11 anunciar um provento',
  status: 'active' as const,
  created_at: '2026-11-27T20:02:11.000Z',
};

export const CONTRACT_SAMPLES: Array<{ def: RpcDef; request: unknown; response: unknown }> = [
  {
    def: PlannerSubjects.plan,
    request: { ...caller, question: 'Qual o CNPJ do HGLG11?', state: conversationState },
    response: SAMPLE_READING,
  },
  {
    def: ContextSubjects.open,
    request: { ...caller, question: 'Esse fundo tem Sharpe bom?' },
    response: { state: conversationState, memory: { recent: [turn], summary: null } },
  },
  {
    def: ContextSubjects.commit,
    request: { ...caller, turn_index: 1, answer: 'O CNPJ é 11.728.688/0001-47.', reading: SAMPLE_READING, outcome: SAMPLE_OUTCOME },
    response: { reference_updated: true },
  },
  { def: ContextSubjects.history, request: { client_id: 'c', conversation_id: 'k', limit: 10 }, response: { conversation_id: 'k', turns: [turn] } },
  {
    def: ContextSubjects.debug,
    request: { client_id: 'c', conversation_id: 'k' },
    response: { key: { client_id: 'c', conversation_id: 'k' }, turn_count: 1, last_reference: null, session: {}, recent: [turn], summary: null },
  },
  { def: ContextSubjects.clear, request: { client_id: 'c', conversation_id: 'k' }, response: { cleared: true } },
  {
    def: ContextSubjects.list,
    request: { client_id: 'c', limit: 20, cursor: null },
    response: { conversations: [{ id: 'k', title: 'CNPJ do HGLG11?', last_activity: '2026-11-27T10:00:00.000Z', questions: 2 }], next_cursor: null },
  },
  { def: ContextSubjects.rename, request: { client_id: 'c', conversation_id: 'k', title: 'Logística' }, response: { renamed: true } },
  { def: ContextSubjects.remove, request: { client_id: 'c', conversation_id: 'k' }, response: { deleted: true, turns: 4 } },
  {
    def: ContextSubjects.feedback,
    request: { client_id: 'c', conversation_id: 'k', request_id: 'req-1', rating: 'down', comment: 'o DY está errado' },
    response: { stored: true },
  },
  {
    def: ContextSubjects.feedbackExport,
    request: { rating: 'down', since: null, limit: 100 },
    response: {
      cases: [{ id: 'FB-20261127-req1', category: 'feedback_down', client_id: 'c', turns: [{ q: 'dy do HGLG11', expect: { subjects: ['HGLG11'] } }], evidence: 'feedback 👎' }],
    },
  },
  { def: ContextSubjects.sessionGet, request: { client_id: 'c', conversation_id: 'k', keys: ['active_report_id'] }, response: { values: { active_report_id: 'rel_1' } } },
  { def: ContextSubjects.sessionSet, request: { client_id: 'c', conversation_id: 'k', key: 'active_report_id', value: 'rel_1', ttl_seconds: 3600 }, response: { ok: true } },
  { def: ExecutorSubjects.query, request: { request_id: 'req-1', client_id: 'c', entity: 'fiis_cadastro', params }, response: queryResult },
  {
    def: ExecutorSubjects.measure,
    request: { request_id: 'req-1', client_id: 'c', question: ifixIn2024 },
    response: {
      measure: 'index_points',
      entity: 'history_b3_indexes',
      agg: 'variation',
      unit: 'points',
      value_unit: 'pct',
      group_by: null,
      winner: null,
      values: [
        {
          subject: { kind: 'index', id: 'IFIX' },
          value: -5.89,
          date: '2024-12-30',
          start: { date: '2023-12-28', value: 3311.43 },
          end: { date: '2024-12-30', value: 3116.28 },
          count: 251,
          rows: [],
          coverage: { from: '2010-12-30', to: '2025-12-23' },
          period: { from: '2024-01-01', to: '2024-12-31' },
          adjusted: false,
          sources: ['opbrreit'],
        },
      ],
    },
  },
  { def: ExecutorSubjects.funds, request: {}, response: { funds: [{ ticker: 'HGLG11', name: 'CSHG Logística', cnpj: '11.728.688/0001-47' }] } },
  {
    def: ExecutorSubjects.stageImport,
    request: { ...caller, file_name: 'negociacao.csv', content_base64: 'RGF0YSBkbyBOZWfDs2Npbw==' },
    response: {
      import: {
        import_id: 'imp_1',
        status: 'staged',
        file_name: 'negociacao.csv',
        conversation_id: 'conv-1',
        summary: { trades: 2, funds: ['HGLG11'] },
        preview: '2 negociações de 1 fundo (HGLG11), de 01/2024 a 02/2024.',
        added: null,
        created_at: '2026-11-27T12:00:00.000Z',
        confirmed_at: null,
      },
      message: '2 negociações de 1 fundo (HGLG11), de 01/2024 a 02/2024. Confirma a importação?',
      errors: [],
    },
  },
  { def: ExecutorSubjects.getImport, request: { client_id: 'cliente-demo-1', import_id: 'imp_1' }, response: { import: null } },
  {
    def: ExecutorSubjects.taxReport,
    request: { client_id: 'cliente-demo-1', year: 2025 },
    response: { file_name: 'ir-2025.csv', csv: 'secao;campo;valor\n', empty: true },
  },
  {
    def: ExecutorSubjects.runTool,
    request: { ...caller, name: 'gerar_relatorio_diario', args: {} },
    response: { name: 'gerar_relatorio_diario', ok: true, result: { report_id: 'rel_1' }, session_updates: [{ key: 'active_report_id', value: 'rel_1', ttl_seconds: 3600 }] },
  },
  {
    def: ToolGateSubjects.invoke,
    request: { ...caller, question: 'o que temos pra hoje?', tool: { name: 'gerar_relatorio_diario', args: {} }, confirmation: null },
    response: { status: 'ok', tool: toolMeta, result: { report_id: 'rel_1' }, message: null },
  },
  { def: RagSubjects.retrieve, request: { request_id: 'req-1', question: 'o que é P/VP?', intent: 'concept', entity: null, tickers: [] }, response: ragMeta },
  { def: RagSubjects.reindex, request: {}, response: { indexed: { 'concepts-fiis': 10 }, embedder: 'hashing-512', vector_backend: 'in-process' } },
  {
    def: NarratorSubjects.narrate,
    request: {
      request_id: 'req-1',
      question: 'Qual o CNPJ do HGLG11?',
      nickname: 'Ana',
      status: 'ok',
      kind: 'entity',
      intent: 'fiis_cadastro',
      entity: 'fiis_cadastro',
      params,
      smalltalk: null,
      unknown_tickers: [],
      candidates: [],
      problem: null,
      data: queryResult,
      tool: null,
      rag: [],
      memory: { recent: [], summary: null },
      context_used: false,
      stream: false,
    },
    response: { answer: 'O CNPJ do HGLG11 é 11.728.688/0001-47.', narrator: { llm_used: false, reason: 'llm_disabled', model: null, latency_ms: 0.4 } },
  },
  ...Object.values(HealthSubjects).map((def) => ({
    def,
    request: {},
    response: { service: def.service, instance: 'abc', ok: true, checks: { nats: { ok: true } } },
  })),
  {
    def: ExecutorSubjects.notifications,
    request: { client_id: 'cliente-demo-1', limit: 20 },
    response: { notifications: [SAMPLE_NOTIFICATION], unread: 1 },
  },
  { def: ExecutorSubjects.notificationsRead, request: { client_id: 'cliente-demo-1', up_to: 7 }, response: { marked: 1, unread: 0 } },
  { def: ExecutorSubjects.alerts, request: { client_id: 'cliente-demo-1' }, response: { alerts: [SAMPLE_ALERT] } },
  {
    def: ExecutorSubjects.alertChange,
    request: { client_id: 'cliente-demo-1', alert_id: 'alr_3f2b9c1e', action: 'pause' },
    response: {
      found: true,
      changed: true,
      message: 'Pausei o alerta quando o XPML11 anunciar um provento: ele não avisa até você pedir "reativar alerta".',
      alerts: [{ ...SAMPLE_ALERT, status: 'paused' }],
    },
  },
  {
    def: PrivacySubjects.fenceGateway,
    request: { erasure_id: 'erasure_1', client_id: 'cliente-demo-1' },
    response: { keys: 2, drained: true },
  },
  ...[PrivacySubjects.eraseContext, PrivacySubjects.eraseExecutor, PrivacySubjects.eraseGateway].map((def) => ({
    def,
    request: { erasure_id: 'erasure_1', client_id: 'cliente-demo-1' },
    response: { erased: [{ service: def.service, store: 'api_keys', backend: 'postgres' as const, count: 1 }] },
  })),
];

/** One valid payload per warehouse change event (the AsyncAPI examples; contracts tests parse each). */
const warehouseBase = { source: 'fnet', change: 'new' as const, at: '2026-11-27T21:30:00.000Z' };
export const WAREHOUSE_EVENT_SAMPLES: { [K in WarehouseEventName]: z.input<(typeof WarehouseEvents)[K]['payload']> } = {
  distributionAnnounced: {
    ...warehouseBase,
    event_id: '5f0c3b1e8a7d4c2b9e6f1a0d3c5b7e9f',
    ticker: 'XPML11',
    record_date: '2026-11-28',
    payment_date: '2026-12-12',
    amount_per_share: 0.92,
  },
  priceClosed: {
    ...warehouseBase,
    source: 'b3-cotahist',
    event_id: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
    ticker: 'HGLG11',
    traded_at: '2026-11-27',
    close: 158.4,
    open: 157.9,
    max: 159.1,
    min: 157.5,
    volume: 12840,
  },
  indicatorPublished: {
    ...warehouseBase,
    source: 'bcb-sgs',
    event_id: '9e8d7c6b5a4f30211f2e3d4c5b6a7988',
    indicator: 'SELIC',
    date: '2026-11-27',
    value: 14.9,
    unit: '% a.a.',
  },
  monthlyReportLoaded: {
    ...warehouseBase,
    source: 'cvm-dados',
    event_id: '1234abcd5678ef901234abcd5678ef90',
    cnpj: '11.728.688/0001-47',
    ticker: 'HGLG11',
    ref_month: '2026-10-01',
    equity_per_share: 161.27,
    dy_monthly_ratio: 0.0068,
  },
};
