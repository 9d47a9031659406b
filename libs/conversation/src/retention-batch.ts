import type { DataSource } from 'typeorm';

/**
 * One batch of a retention sweep over a table with `id` and `created_at`: at most `limit` rows older
 * than `cutoff`. Rows another replica is deleting at the same moment are skipped (SKIP LOCKED), so
 * replicas sweeping together neither block nor double count. `table` is a constant of the caller.
 */
export async function deleteOldestBatch(ds: DataSource, table: 'conversation_turns' | 'answer_feedback', cutoff: Date, limit: number): Promise<number> {
  const [row] = (await ds.query(
    `WITH gone AS (
       DELETE FROM ${table} WHERE id IN (
         SELECT id FROM ${table} WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ) RETURNING 1
     ) SELECT count(*)::int AS n FROM gone`,
    [cutoff.toISOString(), limit],
  )) as Array<{ n: number }>;
  return Number(row?.n ?? 0);
}
