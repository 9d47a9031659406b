import { Column, QueryResult, Row } from '@cota/contracts';
import { codeOf } from '@cota/text';
import { toNumeric } from '../format';

/**
 * The briefing reads entities through the catalog, whose column names are the warehouse's to
 * choose; it finds the columns it needs by name patterns and catalog types instead of hard-coding them.
 */
export function findColumn(result: QueryResult, patterns: RegExp[], types?: Column['type'][]): Column | undefined {
  for (const p of patterns) {
    const c = result.columns.find((col) => p.test(col.name) && (!types || types.includes(col.type)));
    if (c) return c;
  }
  return undefined;
}

export const NUMERIC_TYPES: Column['type'][] = ['number', 'money', 'percent', 'ratio', 'integer'];

export function dateColumn(result: QueryResult): Column | undefined {
  return result.columns.find((c) => c.type === 'date' || c.type === 'datetime');
}

/** Rows newest first by the entity's date column (when it has one). */
export function newestFirst(result: QueryResult): Row[] {
  const d = dateColumn(result);
  if (!d) return result.rows;
  return [...result.rows].sort((a, b) => String(b[d.name] ?? '').localeCompare(String(a[d.name] ?? '')));
}

export function isPresent(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '' && (typeof v !== 'string' || toNumeric(v) !== null || v.trim() !== '');
}

/** Upper-case code without punctuation: "IPCA-15" → "IPCA15", "selic" → "SELIC". */
export function code(v: unknown): string {
  return codeOf(String(v ?? ''));
}

export function maxDate(rows: Row[], column: string | undefined): string | null {
  if (!column) return null;
  let best: string | null = null;
  for (const r of rows) {
    const v = r[column];
    if (typeof v === 'string' && v && (!best || v > best)) best = v;
  }
  return best ? best.slice(0, 10) : null;
}
