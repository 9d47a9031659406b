import type { ErasedStore } from '@cota/contracts';

interface SqlQueryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The alert tables holding a client's rows, in the order they are erased (a rule's evaluations go with it). */
export const ALERTS_CLIENT_TABLES = ['client_notifications', 'alert_rules'] as const;

/** The executor's part of an erasure for alerts: the client's notifications and rules. Idempotent. */
export async function eraseAlertsClientData(db: SqlQueryable, clientId: string): Promise<ErasedStore[]> {
  const out: ErasedStore[] = [];
  for (const table of ALERTS_CLIENT_TABLES) {
    const [exists] = (await db.query('SELECT to_regclass($1) IS NOT NULL AS ok', [table])) as Array<{ ok: boolean }>;
    const rows = exists?.ok
      ? ((await db.query(`WITH gone AS (DELETE FROM ${table} WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [clientId])) as Array<{ n: number }>)
      : [{ n: 0 }];
    out.push({ service: 'executor', store: table, backend: 'postgres', count: Number(rows[0]?.n ?? 0) });
  }
  return out;
}
