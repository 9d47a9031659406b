import Decimal from 'decimal.js';
import type { Column } from '@cota/contracts';
import { formatDate as writeDate, formatDecimal, formatMoney as writeMoney, formatMoneyInWords, formatMonthYear, formatPercent as writePercent } from '@cota/text';

/**
 * Warehouse values as the answers show them. Values arrive as the executor returns them: numbers,
 * numeric strings (Postgres `numeric` comes back as text), ISO date strings or Date objects; a
 * missing one is MISSING. The pt-BR writing itself is libs/text's.
 */

export type ColumnType = Column['type'];

/** The placeholder shown in tables for a missing value. */
export const MISSING = '—';

export function isMissing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') {
    const t = value.trim();
    return t === '' || t.toUpperCase() === 'NULL' || t.toUpperCase() === 'NAN';
  }
  if (typeof value === 'number') return !Number.isFinite(value);
  return false;
}

/** A Decimal from a number or numeric string, or null when the value is not numeric. */
export function toDecimal(value: unknown): Decimal | null {
  if (isMissing(value)) return null;
  if (value instanceof Decimal) return value;
  if (typeof value === 'number') return new Decimal(value);
  if (typeof value === 'bigint') return new Decimal(value.toString());
  if (typeof value === 'string') {
    const t = value.trim();
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
    return new Decimal(t);
  }
  return null;
}

/** R$ 1.234,56 (always two decimals, the way prices and dividends are quoted). */
export function formatMoney(value: unknown): string {
  const d = toDecimal(value);
  return d ? writeMoney(d) : MISSING;
}

/** Large amounts the way people say them: R$ 350,40 milhões; below a million, exact (R$ 107.968,90). */
export function formatMoneyCompact(value: unknown): string {
  const d = toDecimal(value);
  return d ? formatMoneyInWords(d) : MISSING;
}

/** A value already in percent: 9.87 -> "9,87%". */
export function formatPercent(value: unknown, decimals = 2): string {
  const d = toDecimal(value);
  return d ? writePercent(d, decimals) : MISSING;
}

/** A fraction shown as percent: 0.0131 -> "1,31%". */
export function formatRatio(value: unknown, decimals = 2): string {
  const d = toDecimal(value);
  return d ? writePercent(d.times(100), decimals) : MISSING;
}

/**
 * A plain number: whole numbers without decimals ("3.617"), others with two ("0,70"),
 * and four when the value is too small for two to show it ("0,0089").
 */
export function formatNumber(value: unknown): string {
  const d = toDecimal(value);
  if (!d) return MISSING;
  if (d.isInteger()) return formatDecimal(d, 0);
  const small = d.abs().lt(0.01);
  return formatDecimal(d, small ? 4 : 2);
}

/** 1234567 -> "1.234.567". */
export function formatInteger(value: unknown): string {
  const d = toDecimal(value);
  if (!d) return MISSING;
  return formatDecimal(d, 0);
}

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Year, month, day (and time) of a date value, without time-zone surprises for plain dates. */
export function dateParts(value: unknown): { y: string; m: string; d: string; hh: string; mm: string } | null {
  if (isMissing(value)) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    const iso = value.toISOString();
    return { y: iso.slice(0, 4), m: iso.slice(5, 7), d: iso.slice(8, 10), hh: iso.slice(11, 13), mm: iso.slice(14, 16) };
  }
  if (typeof value !== 'string') return null;
  const m = ISO_DATE_RE.exec(value.trim());
  if (!m) {
    const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
    return br ? { y: br[3], m: br[2], d: br[1], hh: '00', mm: '00' } : null;
  }
  return { y: m[1], m: m[2], d: m[3], hh: m[4] ?? '00', mm: m[5] ?? '00' };
}

/** "2025-10-31" or "2025-10-31 00:00:00" -> "31/10/2025". */
export function formatDate(value: unknown): string {
  const p = dateParts(value);
  if (!p) return isMissing(value) ? MISSING : String(value);
  return writeDate(`${p.y}-${p.m}-${p.d}`);
}

/** Date and time; midnight (date-only data stored as timestamps) shows just the date. */
export function formatDateTime(value: unknown): string {
  const p = dateParts(value);
  if (!p) return isMissing(value) ? MISSING : String(value);
  const day = writeDate(`${p.y}-${p.m}-${p.d}`);
  return p.hh === '00' && p.mm === '00' ? day : `${day} ${p.hh}:${p.mm}`;
}

/** "2025-11-01" -> "novembro de 2025" (monthly series). */
export function formatMonth(value: unknown): string {
  const p = dateParts(value);
  if (!p) return isMissing(value) ? MISSING : String(value);
  return formatMonthYear(`${p.y}-${p.m}`);
}

/** 11728688000147 -> "11.728.688/0001-47"; an already masked value is kept as is. */
export function formatCnpj(value: unknown): string {
  if (isMissing(value)) return MISSING;
  const digits = String(value).replace(/\D/g, '');
  if (digits.length > 14 || digits.length < 13) return String(value).trim();
  const d = digits.padStart(14, '0');
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
}

export function formatBoolean(value: unknown): string {
  if (isMissing(value)) return MISSING;
  if (typeof value === 'boolean') return value ? 'sim' : 'não';
  const t = String(value).trim().toLowerCase();
  if (['true', 't', '1', 'sim', 'yes'].includes(t)) return 'sim';
  if (['false', 'f', '0', 'não', 'nao', 'no'].includes(t)) return 'não';
  return String(value);
}

/** Text as stored, with runs of blanks collapsed (some sources pad names). */
export function formatText(value: unknown): string {
  if (isMissing(value)) return MISSING;
  return String(value).replace(/\s+/g, ' ').trim();
}

/** A percent column whose label says "(p.p.)" holds a difference of percentages. */
export function isPercentagePoints(column: Pick<Column, 'type' | 'label'> | undefined): boolean {
  return !!column && column.type === 'percent' && /\(p\.\s?p\.\)/i.test(column.label);
}

/** "13,48 p.p." (a difference between two returns is not a return). */
export function formatPercentagePoints(value: unknown): string {
  const d = toDecimal(value);
  if (!d) return MISSING;
  return `${formatDecimal(d, 2)} p.p.`;
}

/** Formats one value of a catalog column: its type, and percentage points when the label says so. */
export function formatColumnValue(value: unknown, column: Pick<Column, 'type' | 'label'> | undefined): string {
  if (isPercentagePoints(column)) return formatPercentagePoints(value);
  return formatValue(value, column?.type ?? 'text');
}

/** Formats one value by its catalog column type. */
export function formatValue(value: unknown, type: ColumnType): string {
  switch (type) {
    case 'money':
      return formatMoneyCompact(value);
    case 'percent':
      return formatPercent(value);
    case 'ratio':
      return formatRatio(value);
    case 'number':
      return formatNumber(value);
    case 'integer':
      return formatInteger(value);
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDateTime(value);
    case 'cnpj':
      return formatCnpj(value);
    case 'boolean':
      return formatBoolean(value);
    case 'url':
    case 'text':
    default:
      return formatText(value);
  }
}

/** "a, b e c". */
export function joinPt(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} e ${items[items.length - 1]}`;
}

/** First letter upper-cased (sentences built from lower-case phrases). */
export function capitalize(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * A catalog label for a person: unit notes the formatted value already shows are dropped
 * ("Dividendo por cota (R$)" -> "Dividendo por cota", "Vacância (fração: 0,05 = 5%)" -> "Vacância",
 * "Diferença (p.p.)" -> "Diferença": its values read "13,48 p.p."),
 * informative ones kept ("SELIC (% a.a.)", "Área (m²)").
 */
export function displayLabel(label: string): string {
  return label.replace(/\s*\((?:R\$|%|p\.\s?p\.|[^)]*fra[cç][aã]o[^)]*)\)\s*$/i, '').trim() || label;
}
