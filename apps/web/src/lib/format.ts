/**
 * pt-BR formatting for the page: numbers with a decimal comma and dot thousands, R$ amounts,
 * percentages, dd/mm/aaaa dates and "mai/2025" months. Pure (no DOM): unit-tested in Node.
 */

/** The units of the measure catalog (policies/measures.yaml). */
export type Unit = 'brl' | 'pct' | 'points' | 'count' | 'ratio' | 'pct_month' | 'pct_year' | 'pct_day';

const MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];
const MONTH_NAMES = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];

const cache = new Map<string, Intl.NumberFormat>();
function nf(min: number, max: number): Intl.NumberFormat {
  const k = `${min}:${max}`;
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping: true })));
  return f;
}

/** 1234.5 → "1.234,50" (fixed decimals) ; with `trim`, trailing zeros go ("1.234,5"). */
export function formatNumber(v: number, decimals = 2, trim = false): string {
  if (!Number.isFinite(v)) return '—';
  // Intl's minus is U+002D in pt-BR; "-0,00" is shown as "0,00".
  const s = nf(trim ? 0 : decimals, decimals).format(v);
  return /^-0(,0+)?$/.test(s) ? s.slice(1) : s;
}

/** 1234.5 → "R$ 1.234,50"; -3 → "-R$ 3,00". */
export function formatBRL(v: number, decimals = 2): string {
  if (!Number.isFinite(v)) return '—';
  const body = formatNumber(Math.abs(v), decimals);
  return v < 0 && body !== formatNumber(0, decimals) ? `-R$ ${body}` : `R$ ${body}`;
}

/** Large amounts shortened the Brazilian way: "R$ 5,41 bi", "R$ 12,3 mi", "R$ 1,2 mil". */
export function formatBRLCompact(v: number): string {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  const sign = v < 0 ? '-' : '';
  if (a >= 1e9) return `${sign}R$ ${formatNumber(a / 1e9, 2, true)} bi`;
  if (a >= 1e6) return `${sign}R$ ${formatNumber(a / 1e6, 2, true)} mi`;
  if (a >= 1e4) return `${sign}R$ ${formatNumber(a / 1e3, 1, true)} mil`;
  return formatBRL(v);
}

/** 8.25 → "8,25%" (the value is already in percent). */
export function formatPct(v: number, decimals = 2): string {
  if (!Number.isFinite(v)) return '—';
  return `${formatNumber(v, decimals)}%`;
}

/** "2025-05-30" (or an ISO timestamp) → "30/05/2025"; anything else is returned as it came. */
export function formatDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

/** "2025-05-30" or "2025-05" → "mai/2025". */
export function formatMonth(iso: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(iso);
  if (!m) return iso;
  const i = Number(m[2]) - 1;
  return i >= 0 && i < 12 ? `${MONTHS[i]}/${m[1]}` : iso;
}

/** "2025-05" → "maio de 2025" (for screen-reader labels). */
export function formatMonthLong(iso: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(iso);
  if (!m) return iso;
  const i = Number(m[2]) - 1;
  return i >= 0 && i < 12 ? `${MONTH_NAMES[i]} de ${m[1]}` : iso;
}

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
