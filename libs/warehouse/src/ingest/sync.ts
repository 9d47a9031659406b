import type { QueryRunner } from 'typeorm';
import { Row } from './model';
import { TableSpec } from '../schema/tables';

export interface TableChange {
  table: string;
  rows: number;
  inserted: number;
  updated: number;
  deleted: number;
}

/**
 * Sources the live feeds (libs/feeds) write between batch ingests: the batch ingest neither has nor
 * deletes their rows (a fact it also has, same key, is simply rewritten with its own value).
 */
export const LIVE_SOURCES = ['bcb-sgs', 'b3-cotahist', 'cvm-dados', 'fnet'] as const;

/** Postgres accepts at most 65535 parameters per statement. */
const MAX_PARAMS = 60000;

/**
 * Makes `spec.name` hold exactly `rows` (by natural key), inside the caller's transaction:
 * rows go to a temporary staging table in multi-row INSERT batches, then one upsert that only
 * touches rows whose values differ, and one delete of rows no source has any more (rows of the live feeds excepted). Running it
 * twice with the same rows reports zero changes. (Batched INSERTs rather than COPY so the same
 * path works on the embedded PGlite.) With `scope` (a boolean column, e.g. `is_demo`) only rows where it
 * holds are the ingest's to delete: a table shared with what clients write keeps their rows.
 */
export async function syncTable(q: QueryRunner, spec: TableSpec, rows: Row[], scope?: string): Promise<TableChange> {
  const cols = spec.columns.map(([n]) => n);
  const quoted = cols.map((c) => `"${c}"`);
  const stage = `stage_${spec.name}`;
  await q.query(`CREATE TEMP TABLE "${stage}" (LIKE "${spec.name}") ON COMMIT DROP`);

  // Last occurrence of a natural key would violate the upsert: keep the first (highest precedence).
  const seen = new Set<string>();
  const unique = rows.filter((r) => {
    const k = spec.pk.map((c) => String(r[c])).join('\u0001');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });

  const perBatch = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  for (let i = 0; i < unique.length; i += perBatch) {
    const batch = unique.slice(i, i + perBatch);
    const values: unknown[] = [];
    const tuples = batch.map((r) => {
      const ph = cols.map((c) => {
        const v = r[c];
        values.push(v === undefined ? null : v);
        return `$${values.length}`;
      });
      return `(${ph.join(', ')})`;
    });
    await q.query(`INSERT INTO "${stage}" (${quoted.join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }

  const pkList = spec.pk.map((c) => `"${c}"`).join(', ');
  const joinOn = spec.pk.map((c) => `s."${c}" = t."${c}"`).join(' AND ');
  const keepLive = cols.includes('source') ? ` AND t."source" <> ALL($1::text[])` : '';
  const del = await q.query(
    `WITH d AS (DELETE FROM "${spec.name}" t WHERE ${scope ? `t."${scope}" AND ` : ''}NOT EXISTS (SELECT 1 FROM "${stage}" s WHERE ${joinOn})${keepLive} RETURNING 1) SELECT count(*)::int AS n FROM d`,
    keepLive ? [[...LIVE_SOURCES]] : [],
  );
  const nonKey = cols.filter((c) => !spec.pk.includes(c));
  const set = nonKey.length ? nonKey.map((c) => `"${c}" = EXCLUDED."${c}"`).join(', ') : null;
  const changed = nonKey.length ? `(${nonKey.map((c) => `t."${c}"`).join(', ')}) IS DISTINCT FROM (${nonKey.map((c) => `EXCLUDED."${c}"`).join(', ')})` : 'false';
  const up = await q.query(
    `WITH u AS (INSERT INTO "${spec.name}" AS t (${quoted.join(', ')}) SELECT ${quoted.join(', ')} FROM "${stage}"
       ON CONFLICT (${pkList}) ${set ? `DO UPDATE SET ${set} WHERE ${changed}` : 'DO NOTHING'}
       RETURNING (xmax = 0) AS inserted)
     SELECT count(*) FILTER (WHERE inserted)::int AS ins, count(*) FILTER (WHERE NOT inserted)::int AS upd FROM u`,
  );
  await q.query(`DROP TABLE "${stage}"`);
  return { table: spec.name, rows: unique.length, inserted: up[0].ins, updated: up[0].upd, deleted: del[0].n };
}
