import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { dataDir, policiesDir, loadPolicyFolder } from '@cota/config';
import { Column, QueryParams, QueryResult, Row, queryParams } from '@cota/contracts';
import { z } from 'zod';

/**
 * Test support: real rows for narration tests, read in place from the araquem samples under
 * `dataDir()` (never copied into the repo) and shaped the way the executor returns them: only the
 * entity's view columns, dates as `YYYY-MM-DD` / `YYYY-MM-DDTHH:MM:SS`, numerics as text (what
 * `pg` gives for `numeric`), missing values as null. Column types and labels come from the entity
 * catalog (`policies/entities`).
 */

const CatalogEntity = z
  .object({
    entity: z.string(),
    columns: z.array(z.object({ name: z.string(), type: Column.shape.type, label: z.string() }).passthrough()),
    sources: z.array(z.string()).optional(),
    date_column: z.string().nullable().optional(),
  })
  .passthrough();

let catalogCache: Record<string, z.infer<typeof CatalogEntity>> | null = null;

export function testCatalog(): Record<string, z.infer<typeof CatalogEntity>> {
  if (!catalogCache) catalogCache = loadPolicyFolder('entities', CatalogEntity, policiesDir());
  return catalogCache;
}

export function hasCatalog(): boolean {
  const folder = join(policiesDir(), 'entities');
  return existsSync(folder) && existsSync(join(folder, 'fiis_cadastro.yaml'));
}

const csvCache = new Map<string, Record<string, string>[]>();

/** Every row of an araquem sample CSV, as text records. */
export function araquemCsv(name: string): Record<string, string>[] {
  let rows = csvCache.get(name);
  if (!rows) {
    const path = join(dataDir(), 'araquem', 'samples', `${name}.csv`);
    rows = parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, relax_quotes: true }) as Record<string, string>[];
    csvCache.set(name, rows);
  }
  return rows;
}

const clean = (v: string | undefined): string | null => (v === undefined || v === '' || v === 'NULL' ? null : v);

function shapeValue(value: string | null, type: Column['type']): unknown {
  if (value === null) return null;
  if (type === 'date') return value.slice(0, 10);
  if (type === 'datetime') return value.replace(' ', 'T').slice(0, 19);
  if (type === 'boolean') return /^(true|t|1)$/i.test(value);
  if (type === 'integer') return Number(value);
  return value;
}

/** Builds a QueryResult as the executor would for `entity` from source records. */
export function realResult(
  entity: string,
  records: Array<Record<string, string | null | undefined>>,
  params: Partial<QueryParams> = {},
  sources: string[] = ['araquem'],
): QueryResult {
  const def = testCatalog()[entity];
  if (!def) throw new Error(`entity ${entity} is not in the catalog`);
  const columns: Column[] = def.columns.map((c) => ({ name: c.name, type: c.type, label: c.label }));
  const rows: Row[] = records.map((rec) => Object.fromEntries(columns.map((c) => [c.name, shapeValue(clean(rec[c.name] ?? undefined), c.type)])));
  // as_of: the newest value of the entity's date column (undated entities have none).
  const dated = def.date_column ? columns.find((c) => c.name === def.date_column) : undefined;
  const dates = dated
    ? rows
        .map((r) => r[dated.name])
        .filter((v): v is string => typeof v === 'string')
        .sort()
    : [];
  const full: QueryParams = queryParams(params);
  if (full.ticker && full.tickers.length === 0) full.tickers = [full.ticker];
  return {
    entity,
    columns,
    rows,
    row_count: rows.length,
    truncated: false,
    as_of: dates.length ? dates[dates.length - 1].slice(0, 10) : null,
    sources,
    params: full,
  };
}

/** Records of one ticker from a CSV, newest first by a date column. */
export function tickerRecords(csv: string, ticker: string, dateColumn?: string): Record<string, string>[] {
  const rows = araquemCsv(csv).filter((r) => r.ticker === ticker);
  return dateColumn ? [...rows].sort((a, b) => (b[dateColumn] ?? '').localeCompare(a[dateColumn] ?? '')) : rows;
}

/** The update date of a one-row-per-ticker sample, used where the view has `ref_date`. */
export function withRefDate(rec: Record<string, string>): Record<string, string> {
  return { ...rec, ref_date: rec.updated_at ?? rec.ref_date };
}
