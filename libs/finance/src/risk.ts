import { dec, Dec, Numeric } from './decimal';

/** Arithmetic mean: Σ x / n. */
export function mean(values: Numeric[]): Dec {
  if (values.length === 0) throw new RangeError('mean of an empty series');
  return values.reduce<Dec>((s, v) => s.plus(dec(v)), new Dec(0)).div(values.length);
}

/** Sample standard deviation: sqrt( Σ (x − x̄)² / (n − 1) ). Needs at least two values. */
export function sampleStdDev(values: Numeric[]): Dec {
  if (values.length < 2) throw new RangeError('standard deviation needs at least two values');
  const m = mean(values);
  const ss = values.reduce<Dec>((s, v) => s.plus(dec(v).minus(m).pow(2)), new Dec(0));
  return ss.div(values.length - 1).sqrt();
}

export interface SharpeOptions {
  /** Risk-free return per period, same unit as the returns (default 0). */
  riskFreeRate?: Numeric;
  /** Periods per year to annualise (12 for monthly returns, 252 for daily); omitted = per period. */
  periodsPerYear?: number;
}

/**
 * Sharpe ratio of periodic returns:
 *   S = (mean(R) − r_f) / σ(R)            (σ = sample standard deviation)
 * annualised by × sqrt(periods per year) when asked. Null when σ is 0 (ratio undefined).
 */
export function sharpeRatio(returns: Numeric[], opts: SharpeOptions = {}): Dec | null {
  const sigma = sampleStdDev(returns);
  if (sigma.isZero()) return null;
  const excess = mean(returns).minus(dec(opts.riskFreeRate ?? 0));
  const s = excess.div(sigma);
  return opts.periodsPerYear ? s.times(new Dec(opts.periodsPerYear).sqrt()) : s;
}

/**
 * Historical (non-parametric) Value at Risk of a return series at `confidence` (e.g. 0.95):
 * sort the returns ascending and take the k-th worst, k = ceil((1 − confidence) · n);
 *   VaR = max(0, −R_(k))
 * i.e. the loss (as a positive fraction) not exceeded with that confidence in one period.
 * Multiply by a position value for money. Needs enough data for k ≥ 1.
 */
export function historicalVaR(returns: Numeric[], confidence: Numeric = '0.95'): Dec {
  const c = dec(confidence);
  if (c.lte(0) || c.gte(1)) throw new RangeError('confidence must be between 0 and 1');
  if (returns.length === 0) throw new RangeError('VaR of an empty series');
  const sorted = returns.map(dec).sort((a, b) => a.comparedTo(b));
  const k = Math.max(1, new Dec(1).minus(c).times(sorted.length).ceil().toNumber());
  const worst = sorted[Math.min(k, sorted.length) - 1];
  return Dec.max(0, worst.neg());
}

/** Simple period returns from a price series: R_t = P_t / P_{t−1} − 1. */
export function simpleReturns(prices: Numeric[]): Dec[] {
  const out: Dec[] = [];
  for (let t = 1; t < prices.length; t++) {
    const prev = dec(prices[t - 1]);
    if (prev.isZero()) throw new RangeError(`price at position ${t - 1} is zero`);
    out.push(dec(prices[t]).div(prev).minus(1));
  }
  return out;
}
