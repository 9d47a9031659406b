import { QueryParams } from './common';

/** Fund entities (CONTRACT.md): the only ones that may inherit a ticker from the conversation. */
export const FUND_ENTITIES = [
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
] as const;

/** Market entities: about the market, never about one fund. */
export const MARKET_ENTITIES = ['history_b3_indexes', 'history_currency_rates', 'history_market_indicators', 'macro_consolidada'] as const;

/** Client entities: private to the authenticated client. */
export const CLIENT_ENTITIES = [
  'client_fiis_positions',
  'client_fiis_enriched_portfolio',
  'client_fiis_dividends_evolution',
  'client_fiis_performance_vs_benchmark',
  'client_fiis_performance_vs_benchmark_summary',
] as const;

/** The 22 entity names fixed by the external contract. */
export const CATALOG_ENTITIES = [...FUND_ENTITIES, ...MARKET_ENTITIES, ...CLIENT_ENTITIES] as const;
export type EntityName = (typeof CATALOG_ENTITIES)[number];

export const isFundEntity = (e: string): boolean => (FUND_ENTITIES as readonly string[]).includes(e);
export const isMarketEntity = (e: string): boolean => (MARKET_ENTITIES as readonly string[]).includes(e);
export const isClientEntity = (e: string): boolean => (CLIENT_ENTITIES as readonly string[]).includes(e);

/** Complete QueryParams from a partial set: what is not given takes the entity's defaults. */
export function queryParams(p: Partial<QueryParams> = {}): QueryParams {
  return { ticker: null, tickers: [], agg: 'list', window: null, limit: null, order: null, order_by: null, filters: {}, ...p };
}
