import Decimal from 'decimal.js';
import { monthAbbreviation, monthName } from './months';
import { SCALES } from './numbers';

/**
 * pt-BR writing of numbers, money, percentages and dates. Intl writes them; decimal.js only rounds
 * (half away from zero, the way a person expects "0,005" to round, never the float way).
 */

const NUMBER_FORMATS = new Map<string, Intl.NumberFormat>();

function numberFormat(minDecimals: number, maxDecimals: number): Intl.NumberFormat {
  const key = `${minDecimals}:${maxDecimals}`;
  let f = NUMBER_FORMATS.get(key);
  if (!f) NUMBER_FORMATS.set(key, (f = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals })));
  return f;
}

/**
 * 1234.5 → "1.234,50": rounded to `decimals` places; with `trim`, trailing zeros go ("1.234,5").
 * A value that rounds to zero has no sign ("-0,00" reads as a glitch).
 */
export function formatDecimal(value: Decimal.Value, decimals = 2, trim = false): string {
  const rounded = new Decimal(value).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
  // Intl writes a decimal string exactly (ECMA-402 NumberFormat v3), beyond a float's digits.
  const digits = (rounded.isZero() ? new Decimal(0) : rounded).toFixed(decimals) as unknown as number;
  return numberFormat(trim ? 0 : decimals, decimals).format(digits);
}

/** "R$ 1.234,50"; a negative amount "-R$ 3,00". */
export function formatMoney(value: Decimal.Value, decimals = 2): string {
  const d = new Decimal(value);
  const body = formatDecimal(d.abs(), decimals);
  return d.isNegative() && body !== formatDecimal(0, decimals) ? `-R$ ${body}` : `R$ ${body}`;
}

/** The scale an amount is said in (the largest it reaches), from SCALES; null below a million. */
function scaleOf(d: Decimal): (typeof SCALES)[number] | null {
  return SCALES.find((s) => s.factor >= 1e6 && d.abs().gte(s.factor)) ?? null;
}

/** Large amounts the way people say them: "R$ 350,40 milhões", "R$ 1,00 bilhão"; below a million, exact. */
export function formatMoneyInWords(value: Decimal.Value): string {
  const d = new Decimal(value);
  const scale = scaleOf(d);
  if (!scale) return formatMoney(d);
  const body = formatDecimal(d.abs().div(scale.factor), 2);
  return `${d.isNegative() ? '-' : ''}R$ ${body} ${body === '1,00' ? scale.one : scale.many}`;
}

/**
 * Large amounts shortened, as a chart writes them: "R$ 5,41 bi", "R$ 12,3 mi", and thousands from
 * ten thousand, to one decimal ("R$ 52,5 mil"); below that, exact.
 */
export function formatMoneyShort(value: Decimal.Value): string {
  const d = new Decimal(value);
  const thousands = d.abs().gte(1e4) ? SCALES.find((s) => s.factor === 1e3)! : null;
  const scale = scaleOf(d) ?? thousands;
  if (!scale) return formatMoney(d);
  const body = formatDecimal(d.abs().div(scale.factor), scale === thousands ? 1 : 2, true);
  return `${d.isNegative() ? '-' : ''}R$ ${body} ${scale.short}`;
}

/** A value already in percent: 9.87 → "9,87%". */
export function formatPercent(value: Decimal.Value, decimals = 2): string {
  return `${formatDecimal(value, decimals)}%`;
}

const ISO_DATE = /^(\d{4})-(\d{2})(?:-(\d{2}))?/;
const DAY_FORMAT = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' });

/** A date value as ISO text (a Date as its UTC day); other values as text ("" for none). */
function isoOf(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return String(value ?? '').trim();
}

/** "2025-05-30" (a timestamp, or a Date) → "30/05/2025"; any other text as it came. */
export function formatDate(value: unknown): string {
  const m = ISO_DATE.exec(isoOf(value));
  if (!m?.[3]) return isoOf(value);
  return DAY_FORMAT.format(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

/** "2025-05-30" or "2025-05" → "maio de 2025"; any other text as it came. */
export function formatMonthYear(value: unknown): string {
  const m = ISO_DATE.exec(isoOf(value));
  const name = m && monthName(Number(m[2]));
  return name ? `${name} de ${m[1]}` : isoOf(value);
}

/** "2025-05-30" or "2025-05" → "mai/2025"; any other text as it came. */
export function formatMonthShort(value: unknown): string {
  const m = ISO_DATE.exec(isoOf(value));
  const short = m && monthAbbreviation(Number(m[2]));
  return short ? `${short}/${m[1]}` : isoOf(value);
}

const BRAZIL = 'America/Sao_Paulo';
const BRAZIL_DAY = new Intl.DateTimeFormat('pt-BR', { timeZone: BRAZIL, day: '2-digit', month: '2-digit', year: 'numeric' });
const BRAZIL_TIME = new Intl.DateTimeFormat('pt-BR', { timeZone: BRAZIL, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** An instant's day in São Paulo, where the clients are ("22/11/2026"). */
export function formatDayInBrazil(at: Date): string {
  return BRAZIL_DAY.format(at);
}

/** An instant's day and time in São Paulo ("22/11/2026, 09:58"). */
export function formatTimeInBrazil(at: Date): string {
  return BRAZIL_TIME.format(at);
}
