import type { ErasedStore } from '@cota/contracts';

/** Anything that runs SQL and returns rows (a DataSource, or the EntityManager of a transaction). */
export interface SqlQueryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Tables of the tools library that hold a client's rows, in the order they are erased (the outbox
 * references reports). A new client table of this library belongs here; the erasure test
 * (test/privacy) finds every table with a client_id column and fails when one is left behind.
 */
export const TOOLS_CLIENT_TABLES = ['email_outbox', 'tool_reports', 'client_transactions'] as const;

/** Deletes the client's rows of one table and says how many went (0 when the table does not exist yet). */
export async function deleteClientRows(db: SqlQueryable, table: string, clientId: string): Promise<number> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a table name: ${table}`);
  // Resolved on the search path, like the DELETE below.
  const [exists] = (await db.query('SELECT to_regclass($1) IS NOT NULL AS ok', [table])) as Array<{ ok: boolean }>;
  if (!exists?.ok) return 0;
  const rows = (await db.query(`WITH gone AS (DELETE FROM "${table}" WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [clientId])) as Array<{ n: number }>;
  return Number(rows[0]?.n ?? 0);
}

/** The executor's tool stores of one client: e-mail outbox, reports, personal transactions. Idempotent. */
export async function eraseToolsClientData(db: SqlQueryable, clientId: string): Promise<ErasedStore[]> {
  const out: ErasedStore[] = [];
  for (const table of TOOLS_CLIENT_TABLES) {
    out.push({ service: 'executor', store: table, backend: 'postgres', count: await deleteClientRows(db, table, clientId) });
  }
  return out;
}
