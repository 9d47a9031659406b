import Decimal from 'decimal.js';

/**
 * A private Decimal constructor for money math: 40 significant digits so that long compounding
 * chains (hundreds of periods, fractional powers) stay exact far beyond the cent, and
 * ROUND_HALF_EVEN ("banker's rounding") only when a caller rounds for display.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type Dec = InstanceType<typeof Dec>;

/** Anything a finance function accepts as a number: a Decimal, a string ("0.01") or a JS number. */
export type Numeric = Decimal.Value;

export function dec(v: Numeric): Dec {
  const d = new Dec(v);
  if (!d.isFinite()) throw new RangeError(`not a finite number: ${String(v)}`);
  return d;
}

/** Rounds to cents (half-even) for presenting money; keep full precision for further math. */
export function toCents(v: Numeric): Dec {
  return dec(v).toDecimalPlaces(2, Dec.ROUND_HALF_EVEN);
}

export function assertNonNegativeInteger(name: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

/** Rates below -100% make (1 + i) non-positive: compounding is undefined there. */
export function assertRate(name: string, rate: Dec): void {
  if (rate.lte(-1)) throw new RangeError(`${name} must be greater than -100%, got ${rate.toString()}`);
}
