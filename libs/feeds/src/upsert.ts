import type { QueryRunner } from 'typeorm';
import { tableSpec } from '@cota/warehouse';
import type { Row } from './rows';

/** Postgres accepts at most 65535 parameters per statement. */
const MAX_PARAMS = 60000;

export interface UpsertResult {
  table: string;
  inserted: Row[];
  updated: Row[];
}

/**
 * Adds or corrects rows of a warehouse table by its natural key, never deleting: a value the source
 * left empty keeps the one already known, and a row whose values are all the same is not touched, so
 * a re-run reports nothing. Returns the rows it inserted and the ones it changed (the change events).
 */
export async function upsertRows(q: QueryRunner, table: string, rows: Row[]): Promise<UpsertResult> {
  const spec = tableSpec(table);
  const cols = spec.columns.map(([n]) => n);
  const quoted = cols.map((c) => `"${c}"`);
  const nonKey = cols.filter((c) => !spec.pk.includes(c));
  const merged = (c: string) => `COALESCE(EXCLUDED."${c}", t."${c}")`;
  const result: UpsertResult = { table, inserted: [], updated: [] };
  // The last of several rows with one key wins inside a batch (Postgres refuses a key twice in one upsert).
  const byKey = new Map<string, Row>();
  for (const r of rows) byKey.set(spec.pk.map((c) => String(r[c])).join('\u0001'), r);
  const unique = [...byKey.values()];
  const perBatch = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  for (let i = 0; i < unique.length; i += perBatch) {
    const values: unknown[] = [];
    const tuples = unique.slice(i, i + perBatch).map((r) => `(${cols.map((c) => (values.push(r[c] ?? null), `$${values.length}`)).join(', ')})`);
    const typed = spec.columns.map(([n, type]) => `"${n}"::${type.split(' ')[0]}`);
    const sql = `INSERT INTO "${table}" AS t (${quoted.join(', ')})
      SELECT ${typed.join(', ')} FROM (VALUES ${tuples.join(', ')}) AS v (${quoted.join(', ')})
      ON CONFLICT (${spec.pk.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET ${nonKey.map((c) => `"${c}" = ${merged(c)}`).join(', ')}
      WHERE (${nonKey.map((c) => `t."${c}"`).join(', ')}) IS DISTINCT FROM (${nonKey.map(merged).join(', ')})
      RETURNING (xmax = 0) AS _inserted, ${spec.columns.map(([n, type]) => `t."${n}"${returned(type)} AS "${n}"`).join(', ')}`;
    for (const r of (await q.query(sql, values)) as Array<Row & { _inserted: boolean }>) {
      const { _inserted, ...row } = r;
      (_inserted ? result.inserted : result.updated).push(row);
    }
  }
  return result;
}

/** Dates as ISO text and numerics as numbers in the rows handed back (the driver would give Date and strings). */
function returned(sqlType: string): string {
  const t = sqlType.split(' ')[0];
  return t === 'date' ? '::text' : t === 'numeric' ? '::float8' : '';
}
