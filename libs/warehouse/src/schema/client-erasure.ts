import type { ErasedStore } from '@cota/contracts';
import { WAREHOUSE_TABLES } from './tables';

/**
 * The warehouse's tables keyed by client (wh_clients, wh_client_transactions, wh_client_performance
 * today; any future table with a `client_id` column is included automatically), children first.
 */
export const WAREHOUSE_CLIENT_TABLES: string[] = WAREHOUSE_TABLES.filter((t) => t.columns.some(([name]) => name === 'client_id'))
  .map((t) => t.name)
  .sort((a, b) => Number(a === 'wh_clients') - Number(b === 'wh_clients') || a.localeCompare(b));

/**
 * Erases one client's portfolio from the warehouse: the registry row, its trades (the positions,
 * enriched portfolio and dividends views derive from them) and its performance series. Applies to
 * every client, demo ones included: "everything Cota holds about the client" has no exception.
 * Demo clients are generated data; the next `npm run ingest` generates them again. Idempotent.
 */
export async function eraseWarehouseClient(db: { query(sql: string, params?: unknown[]): Promise<unknown> }, clientId: string): Promise<ErasedStore[]> {
  const out: ErasedStore[] = [];
  for (const table of WAREHOUSE_CLIENT_TABLES) {
    const rows = (await db.query(`WITH gone AS (DELETE FROM "${table}" WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [clientId])) as Array<{ n: number }>;
    out.push({ service: 'executor', store: table, backend: 'postgres', count: Number(rows[0]?.n ?? 0) });
  }
  return out;
}
