/**
 * Warehouse base tables. Every fact row carries `source` (the folder it came from, or `derived`
 * when the project computed it, or `demo` for demo clients). Natural keys are primary keys so the
 * ingest can upsert and a second run changes nothing.
 *
 * `pk` lists the natural key; the ingest sync uses it (and the column list) to upsert.
 */
export interface TableSpec {
  name: string;
  columns: Array<[name: string, sqlType: string]>;
  pk: string[];
  indexes?: string[][];
}

export const WAREHOUSE_TABLES: TableSpec[] = [
  {
    name: 'wh_segment_map',
    columns: [
      ['source', 'text NOT NULL'],
      ['raw_label', 'text NOT NULL'],
      ['segment', 'text NOT NULL'],
      ['is_generic', 'boolean NOT NULL'],
    ],
    pk: ['source', 'raw_label'],
  },
  {
    name: 'wh_funds',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['fii_cnpj', 'text'],
      ['display_name', 'text'],
      ['b3_name', 'text'],
      ['isin', 'text'],
      ['classification', 'text'],
      ['sector', 'text'],
      ['sub_sector', 'text'],
      ['management_type', 'text'],
      ['target_market', 'text'],
      ['is_exclusive', 'boolean'],
      ['mandate', 'text'],
      ['ipo_date', 'date'],
      ['website_url', 'text'],
      ['admin_name', 'text'],
      ['admin_cnpj', 'text'],
      ['manager_name', 'text'],
      ['custodian_name', 'text'],
      ['ifil_weight_pct', 'numeric'],
      ['ifix_weight_pct', 'numeric'],
      ['shares_count', 'numeric'],
      ['shareholders_count', 'numeric'],
      ['sector_source', 'text'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker'],
    indexes: [['fii_cnpj']],
  },
  {
    name: 'wh_cvm_monthly',
    columns: [
      ['fii_cnpj', 'text NOT NULL'],
      ['ref_date', 'date NOT NULL'],
      ['ticker', 'text'],
      ['fund_name', 'text'],
      ['segment_raw', 'text'],
      ['shares_count', 'numeric'],
      ['shareholders_count', 'numeric'],
      ['total_assets_amt', 'numeric'],
      ['equity_value', 'numeric'],
      ['equity_per_share', 'numeric'],
      ['dy_monthly_ratio', 'numeric'],
      ['return_monthly_ratio', 'numeric'],
      ['cash_amt', 'numeric'],
      ['dividend_reserve_amt', 'numeric'],
      ['admin_fee_due_amt', 'numeric'],
      ['perf_fee_due_amt', 'numeric'],
      ['liabilities_total_amt', 'numeric'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['fii_cnpj', 'ref_date'],
    indexes: [['ticker', 'ref_date']],
  },
  {
    name: 'wh_prices',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['traded_at', 'date NOT NULL'],
      ['close_price', 'numeric'],
      ['adj_close_price', 'numeric'],
      ['open_price', 'numeric'],
      ['max_price', 'numeric'],
      ['min_price', 'numeric'],
      ['volume', 'numeric'],
      ['daily_variation_pct', 'numeric'],
      ['frequency', 'text NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'traded_at'],
  },
  {
    name: 'wh_dividends',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['traded_until_date', 'date NOT NULL'],
      ['payment_date', 'date'],
      ['dividend_amt', 'numeric NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'traded_until_date'],
  },
  {
    name: 'wh_yield_history',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['ref_month', 'date NOT NULL'],
      ['dividends_sum', 'numeric NOT NULL'],
      ['price_ref', 'numeric NOT NULL'],
      ['dy_monthly', 'numeric NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'ref_month'],
  },
  {
    name: 'wh_dividends_yields',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['ref_month', 'date NOT NULL'],
      ['month_dividends_amt', 'numeric NOT NULL'],
      ['month_price_ref', 'numeric NOT NULL'],
      ['dy_monthly', 'numeric NOT NULL'],
      ['dividends_12m_amt', 'numeric NOT NULL'],
      ['dy_12m_pct', 'numeric NOT NULL'],
      ['last_dividend_amt', 'numeric'],
      ['last_payment_date', 'date'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'ref_month'],
  },
  {
    name: 'wh_snapshots',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['ref_date', 'date NOT NULL'],
      ['dy_monthly_pct', 'numeric'],
      ['dy_pct', 'numeric'],
      ['sum_anual_dy_amt', 'numeric'],
      ['last_dividend_amt', 'numeric'],
      ['last_payment_date', 'date'],
      ['market_cap_value', 'numeric'],
      ['enterprise_value', 'numeric'],
      ['price_book_ratio', 'numeric'],
      ['equity_per_share', 'numeric'],
      ['revenue_per_share', 'numeric'],
      ['dividend_payout_pct', 'numeric'],
      ['growth_rate', 'numeric'],
      ['cap_rate', 'numeric'],
      ['leverage_ratio', 'numeric'],
      ['equity_value', 'numeric'],
      ['total_assets_amt', 'numeric'],
      ['variation_month_ratio', 'numeric'],
      ['variation_year_ratio', 'numeric'],
      ['equity_month_ratio', 'numeric'],
      ['dividend_reserve_amt', 'numeric'],
      ['admin_fee_due_amt', 'numeric'],
      ['perf_fee_due_amt', 'numeric'],
      ['total_cash_amt', 'numeric'],
      ['expected_revenue_amt', 'numeric'],
      ['liabilities_total_amt', 'numeric'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker'],
  },
  {
    name: 'wh_revenue_schedule',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['ref_date', 'date NOT NULL'],
      ...(
        [
          'revenue_due_0_3m_pct', 'revenue_due_3_6m_pct', 'revenue_due_6_9m_pct', 'revenue_due_9_12m_pct',
          'revenue_due_12_15m_pct', 'revenue_due_15_18m_pct', 'revenue_due_18_21m_pct', 'revenue_due_21_24m_pct',
          'revenue_due_24_27m_pct', 'revenue_due_27_30m_pct', 'revenue_due_30_33m_pct', 'revenue_due_33_36m_pct',
          'revenue_due_over_36m_pct', 'revenue_due_undetermined_pct', 'revenue_igpm_pct', 'revenue_inpc_pct',
          'revenue_ipca_pct', 'revenue_incc_pct',
        ] as const
      ).map((c) => [c, 'numeric'] as [string, string]),
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker'],
  },
  {
    name: 'wh_risk',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['source', 'text NOT NULL'],
      ['ref_date', 'date NOT NULL'],
      ['window_start', 'date'],
      ['observations', 'integer'],
      ['volatility_ratio', 'numeric'],
      ['sharpe_ratio', 'numeric'],
      ['treynor_ratio', 'numeric'],
      ['jensen_alpha', 'numeric'],
      ['beta_index', 'numeric'],
      ['sortino_ratio', 'numeric'],
      ['max_drawdown', 'numeric'],
      ['r_squared', 'numeric'],
    ],
    pk: ['ticker', 'source'],
  },
  {
    name: 'wh_properties',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['seq', 'integer NOT NULL'],
      ['asset_name', 'text'],
      ['asset_class', 'text'],
      ['asset_address', 'text'],
      ['city', 'text'],
      ['state', 'text'],
      ['total_area', 'numeric'],
      ['units_count', 'numeric'],
      ['vacancy_ratio', 'numeric'],
      ['non_compliant_ratio', 'numeric'],
      ['revenue_share_ratio', 'numeric'],
      ['assets_status', 'text'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'seq'],
  },
  {
    name: 'wh_news',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['url', 'text NOT NULL'],
      ['source', 'text'],
      ['title', 'text'],
      ['tags', 'text'],
      ['description', 'text'],
      ['image_url', 'text'],
      ['published_at', 'date'],
      ['data_source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'url'],
  },
  {
    name: 'wh_legal',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['process_number', 'text NOT NULL'],
      ['judgment', 'text'],
      ['instance', 'text'],
      ['initiation_date', 'date'],
      ['cause_amt', 'numeric'],
      ['process_parts', 'text'],
      ['loss_risk_pct', 'text'],
      ['main_facts', 'text'],
      ['loss_impact_analysis', 'text'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'process_number'],
  },
  {
    name: 'wh_rankings',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['ref_date', 'date NOT NULL'],
      ['users_rank_position', 'integer'],
      ['sirios_rank_position', 'integer'],
      ['ifix_rank_position', 'integer'],
      ['ifil_rank_position', 'integer'],
      ['rank_dy_12m', 'integer'],
      ['rank_dy_monthly', 'integer'],
      ['rank_dividends_12m', 'integer'],
      ['rank_market_cap', 'integer'],
      ['rank_equity', 'integer'],
      ['rank_sharpe', 'integer'],
      ['rank_sortino', 'integer'],
      ['rank_low_volatility', 'integer'],
      ['rank_low_drawdown', 'integer'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker'],
  },
  {
    // Splits and inplits detected from the data (derived/corporate-actions.ts), with their evidence.
    name: 'wh_corporate_actions',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['event_date', 'date NOT NULL'],
      ['factor', 'numeric NOT NULL'],
      ['kind', 'text NOT NULL'],
      ['evidence', 'text NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'event_date'],
  },
  {
    // market16's quarterly fundamentals (per quarter's last session): cash revenue, cash profit, delinquency.
    name: 'wh_quarterly_fundamentals',
    columns: [
      ['ticker', 'text NOT NULL'],
      ['ref_date', 'date NOT NULL'],
      ['cash_revenue_amt', 'numeric'],
      ['cash_profit_amt', 'numeric'],
      ['delinquency_pct', 'numeric'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ticker', 'ref_date'],
  },
  {
    // The date each source's snapshot-like facts stand for (registry, properties): the newest date
    // that source's own dated rows carry. Undated answers say it as their as-of date.
    name: 'wh_source_dates',
    columns: [
      ['source', 'text NOT NULL'],
      ['as_of_date', 'date NOT NULL'],
      ['basis', 'text NOT NULL'],
    ],
    pk: ['source'],
  },
  {
    // What the ingest's plausibility checks flagged or dropped (derived/plausibility.ts), per rule.
    name: 'wh_quality_flags',
    columns: [
      ['table_name', 'text NOT NULL'],
      ['row_key', 'text NOT NULL'],
      ['column_name', 'text NOT NULL'],
      ['value', 'numeric'],
      ['rule', 'text NOT NULL'],
    ],
    pk: ['table_name', 'row_key', 'column_name', 'rule'],
  },
  {
    name: 'wh_index_history',
    columns: [
      ['index_name', 'text NOT NULL'],
      ['index_date', 'date NOT NULL'],
      ['points', 'numeric NOT NULL'],
      ['var_pct', 'numeric'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['index_name', 'index_date'],
  },
  {
    name: 'wh_currency_rates',
    columns: [
      ['currency', 'text NOT NULL'],
      ['rate_date', 'date NOT NULL'],
      ['buy_amt', 'numeric'],
      ['sell_amt', 'numeric'],
      ['var_pct', 'numeric'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['currency', 'rate_date'],
  },
  {
    name: 'wh_market_indicators',
    columns: [
      ['indicator_name', 'text NOT NULL'],
      ['indicator_date', 'date NOT NULL'],
      ['indicator_amt', 'numeric NOT NULL'],
      ['unit', 'text NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['indicator_name', 'indicator_date'],
  },
  {
    name: 'wh_macro_consolidated',
    columns: [
      ['ref_date', 'date NOT NULL'],
      ['ipca', 'numeric'],
      ['selic', 'numeric'],
      ['cdi', 'numeric'],
      ['ifix_points', 'numeric'],
      ['ifix_var_pct', 'numeric'],
      ['ibov_points', 'numeric'],
      ['ibov_var_pct', 'numeric'],
      ['usd_buy_amt', 'numeric'],
      ['usd_sell_amt', 'numeric'],
      ['usd_var_pct', 'numeric'],
      ['eur_buy_amt', 'numeric'],
      ['eur_sell_amt', 'numeric'],
      ['eur_var_pct', 'numeric'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['ref_date'],
  },
  {
    name: 'wh_clients',
    columns: [
      ['client_id', 'text NOT NULL'],
      ['display_name', 'text NOT NULL'],
      ['email', 'text NOT NULL'],
      ['is_demo', 'boolean NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['client_id'],
  },
  {
    name: 'wh_client_transactions',
    columns: [
      ['client_id', 'text NOT NULL'],
      ['seq', 'integer NOT NULL'],
      ['trade_date', 'date NOT NULL'],
      ['ticker', 'text NOT NULL'],
      ['side', "text NOT NULL CHECK (side IN ('buy','sell'))"],
      ['quantity', 'integer NOT NULL CHECK (quantity > 0)'],
      ['price', 'numeric NOT NULL'],
      ['price_source', 'text NOT NULL'],
      ['is_demo', 'boolean NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['client_id', 'seq'],
    indexes: [['ticker', 'trade_date']],
  },
  {
    name: 'wh_client_performance',
    columns: [
      ['client_id', 'text NOT NULL'],
      ['benchmark', 'text NOT NULL'],
      ['ref_month', 'date NOT NULL'],
      ['portfolio_value', 'numeric NOT NULL'],
      ['portfolio_return_pct', 'numeric NOT NULL'],
      ['benchmark_return_pct', 'numeric NOT NULL'],
      ['portfolio_cum_return_pct', 'numeric NOT NULL'],
      ['benchmark_cum_return_pct', 'numeric NOT NULL'],
      ['excess_return_pct', 'numeric NOT NULL'],
      ['is_demo', 'boolean NOT NULL'],
      ['source', 'text NOT NULL'],
    ],
    pk: ['client_id', 'benchmark', 'ref_month'],
  },
  {
    name: 'wh_ingest_runs',
    columns: [
      ['run_id', 'text NOT NULL'],
      ['finished_at', 'timestamptz NOT NULL'],
      ['summary', 'jsonb NOT NULL'],
    ],
    pk: ['run_id'],
  },
];

export function tableSpec(name: string): TableSpec {
  const t = WAREHOUSE_TABLES.find((x) => x.name === name);
  if (!t) throw new Error(`unknown warehouse table ${name}`);
  return t;
}

export function createTableSql(t: TableSpec): string[] {
  const cols = t.columns.map(([n, ty]) => `"${n}" ${ty}`).join(', ');
  const out = [`CREATE TABLE IF NOT EXISTS "${t.name}" (${cols}, PRIMARY KEY (${t.pk.map((c) => `"${c}"`).join(', ')}))`];
  for (const idx of t.indexes ?? []) {
    out.push(`CREATE INDEX IF NOT EXISTS "${t.name}_${idx.join('_')}_idx" ON "${t.name}" (${idx.map((c) => `"${c}"`).join(', ')})`);
  }
  return out;
}
