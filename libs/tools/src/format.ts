import { Dec, Numeric } from '@cota/finance';

/** Groups thousands with dots and uses a decimal comma: 12697.35 → "12.697,35". */
export function formatBrDecimal(v: Numeric, decimals = 2): string {
  const d = new Dec(v).toDecimalPlaces(decimals, Dec.ROUND_HALF_EVEN);
  const [int, frac] = d.abs().toFixed(decimals).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}${grouped}${frac ? `,${frac}` : ''}`;
}

/** "R$ 12.697,35" (negative: "-R$ 10,00"). */
export function formatMoney(v: Numeric): string {
  const s = formatBrDecimal(v, 2);
  return s.startsWith('-') ? `-R$ ${s.slice(1)}` : `R$ ${s}`;
}

/** A value already in percent units: 0.71 → "0,71%". */
export function formatPercent(v: Numeric, decimals = 2): string {
  return `${formatBrDecimal(v, decimals)}%`;
}

/** A fraction as percent: 0.126825 → "12,6825%" (more digits for rates, where they matter). */
export function formatRate(fraction: Numeric, decimals = 4): string {
  const s = formatBrDecimal(new Dec(fraction).times(100), decimals).replace(/,?0+$/, '');
  return `${s}%`;
}

/** ISO date (or timestamp) → dd/mm/aaaa, without any time-zone shift of plain dates. */
export function formatDate(v: unknown): string {
  const s = String(v ?? '');
  const m = s.match(/^(\d{4})-(\d{2})-(\d{2})/);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : s;
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
      return n !== null ? formatBrDecimal(n, 2) : String(v);
    case 'integer':
      return n !== null ? formatBrDecimal(n, 0) : String(v);
    case 'date':
    case 'datetime':
      return formatDate(v);
    case 'boolean':
      return v === true || v === 'true' ? 'sim' : 'não';
    default:
      return String(v);
  }
}
