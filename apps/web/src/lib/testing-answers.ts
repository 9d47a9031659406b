/**
 * Answers shaped like the gateway's real ones (seen by running the system), with made-up numbers:
 * the page's unit tests build on them. No data from the source files.
 */
import { TICKER_RE } from '@cota/text';
import { AskReply, EntityClasses, MeasureCatalog, MeasureValueLike } from './types';

export const CATALOG: MeasureCatalog = {
  price: { unit: 'brl', label: 'preço de fechamento', kind: 'level', better: 'none' },
  dividend: { unit: 'brl', label: 'dividendos por cota', kind: 'flow', better: 'higher' },
  dy: { unit: 'pct', label: 'dividend yield', kind: 'yield', better: 'higher' },
  dy_monthly: { unit: 'pct', label: 'dividend yield mensal', kind: 'level', better: 'higher' },
  received: { unit: 'brl', label: 'dividendos recebidos', kind: 'flow', better: 'higher' },
  pvp: { unit: 'ratio', label: 'P/VP', kind: 'level', better: 'lower' },
  index_points: { unit: 'points', label: 'pontos', kind: 'level', better: 'none' },
  monthly_rate: { unit: 'pct_month', label: 'taxa mensal', kind: 'monthly_rate', better: 'none' },
  annual_rate: { unit: 'pct_year', label: 'taxa anual', kind: 'annual_rate', better: 'none' },
};

/** Entity classes as the build puts them in (a few of policies/entities). */
export const ENTITY_CLASSES: EntityClasses = {
  fii_overview: 'fund',
  fiis_precos: 'fund',
  fiis_dividendos: 'fund',
  fiis_dividends_yields: 'fund',
  client_fiis_positions: 'client',
  client_fiis_dividends_evolution: 'client',
  history_b3_indexes: 'market',
};

export function mv(id: string, value: number | null, rows: Array<[string, number]> = [], extra: Partial<MeasureValueLike> = {}): MeasureValueLike {
  return {
    subject: { kind: id === 'PORTFOLIO' ? 'portfolio' : TICKER_RE.test(id) ? 'fund' : 'index', id },
    value,
    date: rows.length ? rows[rows.length - 1][0] : '2025-05-30',
    rows: rows.map(([date, v]) => ({ date, value: v })),
    period: rows.length ? { from: rows[0][0], to: rows[rows.length - 1][0] } : null,
    ...extra,
  };
}

export function reply(entity: string | null, results: unknown[], question: Record<string, unknown> | null, over: Partial<AskReply> = {}): AskReply {
  return {
    status: 'ok',
    answer: 'Resposta.',
    results: entity ? { [entity]: results } : {},
    meta: {
      intent: entity ?? 'tool',
      entity,
      params: { ticker: null, tickers: [], agg: 'list', window: null, limit: null, order: 'desc' },
      context: { last_reference_used: false, reason: 'explicit_ticker_in_text', turn_index: 1 },
      planner: { kind: question ? 'measure' : 'entity', score: 5, gap: 3, accepted: true, candidates: [], question: question as never, follow_up: null },
      rag: { enabled: false, reason: 'not_needed', chunks: [], total_chunks: 0 },
      narrator: { llm_used: false, reason: 'llm_not_configured' },
      timings_ms: { planner: 12, executor: 10, narrator: 3, total: 30 },
    },
    ...over,
  };
}

const monthEnds = [
  '2024-05-31',
  '2024-06-28',
  '2024-07-31',
  '2024-08-30',
  '2024-09-30',
  '2024-10-31',
  '2024-11-29',
  '2024-12-30',
  '2025-01-31',
  '2025-02-28',
  '2025-03-31',
  '2025-04-30',
  '2025-05-30',
];

/** "dividendos do HGLG11 nos últimos 12 meses": a total with the 13 payments as rows. */
export const dividends12m = reply(
  'fiis_dividendos',
  [
    mv(
      'HGLG11',
      13.1,
      monthEnds.map((d, i) => [d, 1 + (i % 3) * 0.05]),
    ),
  ],
  {
    subjects: [{ kind: 'fund', id: 'HGLG11' }],
    measure: 'dividend',
    agg: 'total',
    period: { kind: 'trailing', unit: 'month', n: 12 },
    group_by: null,
    compare: null,
  },
);

/** "evolução do preço do KNRI11 em 2024": daily closes. */
export const priceHistory = reply(
  'fiis_precos',
  [
    mv('KNRI11', 126.6, [
      ['2024-01-02', 160.1],
      ['2024-01-03', 159.5],
      ['2024-06-03', 150.25],
      ['2024-12-30', 126.6],
    ]),
  ],
  {
    subjects: [{ kind: 'fund', id: 'KNRI11' }],
    measure: 'price',
    agg: 'list',
    period: { kind: 'range', from: '2024-01-01', to: '2024-12-31', grain: 'year' },
    group_by: null,
    compare: null,
  },
);

/** "compare o DY do HGLG11 e do KNRI11": one value each, no rows. */
export const dyCompare = reply('fiis_dividends_yields', [mv('HGLG11', 8.3), mv('KNRI11', 8.1)], {
  subjects: [
    { kind: 'fund', id: 'HGLG11' },
    { kind: 'fund', id: 'KNRI11' },
  ],
  measure: 'dy',
  agg: 'value',
  period: null,
  group_by: null,
  compare: null,
});

/** "compare os dividendos do HGLG11, KNRI11 e XPML11 em 2024": totals with monthly payments. */
export const dividendsCompare = reply(
  'fiis_dividendos',
  [
    mv('HGLG11', 3.3, [
      ['2024-01-31', 1.1],
      ['2024-02-29', 1.1],
      ['2024-03-28', 1.1],
    ]),
    mv('KNRI11', 3.0, [
      ['2024-01-30', 1.0],
      ['2024-02-28', 1.0],
      ['2024-03-27', 1.0],
    ]),
    mv('XPML11', 2.7, [
      ['2024-01-31', 0.9],
      ['2024-02-29', 0.9],
      ['2024-03-28', 0.9],
    ]),
  ],
  {
    subjects: [
      { kind: 'fund', id: 'HGLG11' },
      { kind: 'fund', id: 'KNRI11' },
      { kind: 'fund', id: 'XPML11' },
    ],
    measure: 'dividend',
    agg: 'total',
    period: { kind: 'range', from: '2024-01-01', to: '2024-03-31', grain: 'custom' },
    group_by: null,
    compare: null,
  },
);

/** "IPCA mês a mês em 2024": monthly rates dated on the 1st. */
export const ipcaMonthly = reply(
  'history_market_indicators',
  [
    mv(
      'IPCA',
      0.52,
      [
        ['2024-01-01', 0.42],
        ['2024-02-01', 0.83],
        ['2024-03-01', 0.16],
      ],
      { subject: { kind: 'indicator', id: 'IPCA' } },
    ),
  ],
  {
    subjects: [{ kind: 'indicator', id: 'IPCA' }],
    measure: 'monthly_rate',
    agg: 'list',
    period: { kind: 'range', from: '2024-01-01', to: '2024-12-31', grain: 'year' },
    group_by: 'month',
    compare: null,
  },
);

/** "minha carteira": entity rows of the client's positions. */
export const portfolio = reply(
  'client_fiis_enriched_portfolio',
  [
    { ticker: 'HGLG11', weight_pct: 40, market_value: 20000, expected_monthly_income_amt: 130, dy_12m_pct: 8.3, is_demo: true },
    { ticker: 'KNRI11', weight_pct: 35, market_value: 17500, expected_monthly_income_amt: 118, dy_12m_pct: 8.1, is_demo: true },
    { ticker: 'XPML11', weight_pct: 25, market_value: 12500, expected_monthly_income_amt: 95.5, dy_12m_pct: 10.2, is_demo: true },
  ],
  { subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: null, agg: null, period: null, group_by: null, compare: null },
);

/** "renda mensal da minha carteira": entity rows by month, newest first. */
export const incomeByMonth = reply(
  'client_fiis_dividends_evolution',
  [
    { ref_month: '2025-03-01', dividends_amt: 389.6, paying_tickers: 4, is_demo: true },
    { ref_month: '2025-02-01', dividends_amt: 389.6, paying_tickers: 4, is_demo: true },
    { ref_month: '2025-01-01', dividends_amt: 392, paying_tickers: 4, is_demo: true },
  ],
  { subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: null, agg: null, period: null, group_by: 'month', compare: null },
);

/** "compare HGLG11, KNRI11 e XPML11": fund overviews side by side. */
export const overviewCompare = reply(
  'fii_overview',
  [
    {
      ticker: 'HGLG11',
      snapshot_date: '2025-11-22',
      display_name: 'Fundo A',
      sector: 'Logística',
      last_price: 157.6,
      price_book_ratio: 0.99,
      dy_12m_pct: 8.25,
      sharpe_ratio: -1.05,
      market_cap_value: 5.4e9,
    },
    {
      ticker: 'KNRI11',
      snapshot_date: '2025-11-22',
      display_name: 'Fundo B',
      sector: 'Híbrido',
      last_price: 143.3,
      price_book_ratio: 0.9,
      dy_12m_pct: 8.13,
      sharpe_ratio: -1.2,
      market_cap_value: 4.2e9,
    },
    {
      ticker: 'XPML11',
      snapshot_date: '2025-11-22',
      display_name: 'Fundo C',
      sector: 'Shoppings',
      last_price: 102.6,
      price_book_ratio: 0.92,
      dy_12m_pct: 10.43,
      sharpe_ratio: -1.08,
      market_cap_value: 6.1e9,
    },
  ],
  {
    subjects: [
      { kind: 'fund', id: 'HGLG11' },
      { kind: 'fund', id: 'KNRI11' },
      { kind: 'fund', id: 'XPML11' },
    ],
    measure: null,
    agg: null,
    period: null,
    group_by: null,
    compare: null,
  },
);

/** "manda por e-mail" after a briefing: waits for a yes. */
export const confirmation = reply('', [], null, {
  status: 'confirmation_required',
  answer: 'Posso enviar o relatório "Briefing diário" para ana@exemplo.com.br? Responda sim ou não.',
  results: { tool: { report_id: 'rel_1', destinatario: 'ana@exemplo.com.br', text: 'Posso enviar...' } },
});
confirmation.meta.entity = null;
confirmation.meta.tool = {
  name: 'enviar_relatorio_email',
  args: { report_id: 'rel_1', destinatario: 'ana@exemplo.com.br' },
  injected: [{ arg: 'report_id', value: 'rel_1', source: 'session:last_report_id' }],
  status: 'confirmation_required',
};
