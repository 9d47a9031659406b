/**
 * The entity catalog as the context policy needs it (names fixed by the external contract).
 * Only fund entities may ever inherit a ticker; market and client entities never do.
 */
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

/** Market entities (history_*, macro_consolidada): about the market, never about one fund. */
export function isMarketEntity(entity: string): boolean {
  return entity.startsWith('history_') || entity === 'macro_consolidada';
}

/** Client entities (client_*): private to the asking client, never scoped by an inherited ticker. */
export function isClientEntity(entity: string): boolean {
  return entity.startsWith('client_');
}

export function isFundEntity(entity: string): boolean {
  return (FUND_ENTITIES as readonly string[]).includes(entity);
}
