import { Dec, Numeric } from '@cota/finance';
import { formatDate, formatDecimal, formatMoney, formatPercent } from '@cota/text';

/** A fraction as percent: 0.126825 → "12,6825%" (more digits for rates, where they matter). */
export function formatRate(fraction: Numeric, decimals = 4): string {
  return `${formatDecimal(new Dec(fraction).times(100), decimals, true)}%`;
}

export function toNumeric(v: unknown): Numeric | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(v.trim())) return v.trim();
  return null;
}

/** Formats one cell by its catalog column type (money, percent, date...). */
export function formatCell(type: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  const n = toNumeric(v);
  switch (type) {
    case 'money':
      return n !== null ? formatMoney(n) : String(v);
    case 'percent':
      return n !== null ? formatPercent(n) : String(v);
    case 'number':
    case 'ratio':
      return n !== null ? formatDecimal(n, 2) : String(v);
    case 'integer':
      return n !== null ? formatDecimal(n, 0) : String(v);
    case 'date':
    case 'datetime':
      return formatDate(v);
    case 'boolean':
      return v === true || v === 'true' ? 'sim' : 'não';
    default:
      return String(v);
  }
}
