import { formatDate, formatDecimal, formatMoney, formatMoneyShort, formatMonthShort, formatMonthYear, formatPercent } from '@cota/text';

/**
 * pt-BR formatting for the page, written by libs/text as the answers are: numbers with a decimal
 * comma and dot thousands, R$ amounts, percentages, dd/mm/aaaa dates and "mai/2025" months. Pure (no DOM): unit-tested in Node.
 */

/** The units of the measure catalog (policies/measures.yaml). */
export type Unit = 'brl' | 'pct' | 'points' | 'count' | 'ratio' | 'pct_month' | 'pct_year' | 'pct_day';

export { formatDate };

/** "—" for a value that is not a finite number. */
const NOT_A_NUMBER = '—';

/** 1234.5 → "1.234,50" (fixed decimals) ; with `trim`, trailing zeros go ("1.234,5"). */
export function formatNumber(v: number, decimals = 2, trim = false): string {
  return Number.isFinite(v) ? formatDecimal(v, decimals, trim) : NOT_A_NUMBER;
}

/** 1234.5 → "R$ 1.234,50"; -3 → "-R$ 3,00". */
export function formatBRL(v: number, decimals = 2): string {
  return Number.isFinite(v) ? formatMoney(v, decimals) : NOT_A_NUMBER;
}

/** Large amounts shortened the Brazilian way: "R$ 5,41 bi", "R$ 12,3 mi", "R$ 52,5 mil". */
export function formatBRLCompact(v: number): string {
  return Number.isFinite(v) ? formatMoneyShort(v) : NOT_A_NUMBER;
}

/** 8.25 → "8,25%" (the value is already in percent). */
export function formatPct(v: number, decimals = 2): string {
  return Number.isFinite(v) ? formatPercent(v, decimals) : NOT_A_NUMBER;
}

/** "2025-05-30" or "2025-05" → "mai/2025". */
export const formatMonth = (iso: string): string => formatMonthShort(iso);

/** "2025-05" → "maio de 2025" (for screen-reader labels). */
export const formatMonthLong = (iso: string): string => formatMonthYear(iso);

/** A value with its unit, as the answer text writes it (tooltips, cards, labels). */
export function formatValue(unit: Unit, v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  switch (unit) {
    case 'brl':
      return Math.abs(v) >= 1e6 ? formatBRLCompact(v) : formatBRL(v);
    case 'pct':
      return formatPct(v);
    case 'pct_month':
      return `${formatPct(v)} ao mês`;
    case 'pct_year':
      return `${formatPct(v)} ao ano`;
    case 'pct_day':
      return `${formatPct(v, 4)} ao dia`;
    case 'points':
      return `${formatNumber(v, 2)} pontos`;
    case 'count':
      return formatNumber(v, 0);
    case 'ratio':
      return formatNumber(v, 2);
  }
}

/**
 * A tick of a chart axis: short ("R$ 150", "R$ 1,10", "8,5%", "3.100"). `fractional`: some tick of
 * the same axis has cents, so whole ones get them too ("R$ 1,00" beside "R$ 1,50").
 */
export function formatTick(unit: Unit, v: number, fractional = false): string {
  if (!Number.isFinite(v)) return '';
  const whole = !fractional && Math.abs(v - Math.round(v)) < 1e-9;
  switch (unit) {
    case 'brl':
      if (Math.abs(v) >= 1e6) return formatBRLCompact(v);
      return `${v < 0 ? '-' : ''}R$ ${formatNumber(Math.abs(v), whole ? 0 : 2)}`;
    case 'pct':
    case 'pct_month':
    case 'pct_year':
    case 'pct_day':
      return `${formatNumber(v, 2, true)}%`;
    case 'points':
    case 'count':
      return formatNumber(v, whole ? 0 : 2, true);
    case 'ratio':
      return formatNumber(v, 2, true);
  }
}

/** A label of the x axis: dates dd/mm/aaaa, months "mai/2025", anything else as it is. */
export function formatAxisLabel(kind: 'date' | 'month' | 'category', key: string): string {
  if (kind === 'date') return formatDate(key);
  if (kind === 'month') return formatMonth(key);
  return key;
}

/** Milliseconds as the explain panel shows them: "12 ms", "1,3 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms >= 1000 ? `${formatNumber(ms / 1000, 1)} s` : `${formatNumber(ms, ms < 10 ? 1 : 0)} ms`;
}
