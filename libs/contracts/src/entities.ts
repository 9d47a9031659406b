import { QueryParams } from './common';

/**
 * The 22 entity names fixed by the external contract (CONTRACT.md). What each is (its class: fund,
 * market, client) is the entity catalog's to say (policies/entities/*.yaml, libs/catalog).
 */
export const CATALOG_ENTITIES = [
  'fiis_cadastro',
  'fiis_precos',
  'fiis_dividendos',
  'fiis_yield_history',
  'fiis_dividends_yields',
  'fiis_financials_snapshot',
  'fiis_financials_revenue_schedule',
  'fiis_financials_risk',
  'fiis_imoveis',
  'fiis_noticias',
  'fiis_processos',
  'fii_overview',
  'fiis_rankings',
  'history_b3_indexes',
  'history_currency_rates',
  'history_market_indicators',
  'macro_consolidada',
  'client_fiis_positions',
  'client_fiis_enriched_portfolio',
  'client_fiis_dividends_evolution',
  'client_fiis_performance_vs_benchmark',
  'client_fiis_performance_vs_benchmark_summary',
] as const;
export type EntityName = (typeof CATALOG_ENTITIES)[number];

/** Complete QueryParams from a partial set: what is not given takes the entity's defaults. */
export function queryParams(p: Partial<QueryParams> = {}): QueryParams {
  return { ticker: null, tickers: [], agg: 'list', window: null, limit: null, order: null, order_by: null, filters: {}, ...p };
}
