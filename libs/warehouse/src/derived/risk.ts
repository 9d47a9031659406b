/**
 * Risk metrics computed by the project from daily adjusted closes (total return).
 *
 * With r_t = P_t / P_{t-1} - 1 the daily returns of the last `window` sessions, rf_t the daily CDI
 * ((1 + CDI_aa/100)^(1/252) - 1, CDI of that day or the last one before), e_t = r_t - rf_t:
 * - volatility_ratio = sample stdev(r) * sqrt(252)                          (annualised fraction)
 * - sharpe_ratio     = mean(e) * 252 / (sample stdev(e) * sqrt(252))
 * - sortino_ratio    = mean(e) * 252 / (sqrt(mean(min(e, 0)^2)) * sqrt(252))
 * - max_drawdown     = max over t of (1 - P_t / max_{s<=t} P_s)           (fraction, positive)
 * - beta_index       = cov(r, m) / var(m), m = IFIX returns over the same intervals
 * - r_squared        = corr(r, m)^2
 * - treynor_ratio    = mean(e) * 252 / beta
 * - jensen_alpha     = (mean(e) - beta * mean(m - rf)) * 252                (annualised)
 */
export const TRADING_DAYS = 252;

export function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function sampleStdev(xs: number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

export function simpleReturns(prices: number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < prices.length; i++) out.push(prices[i] / prices[i - 1] - 1);
  return out;
}

export function annualisedVolatility(returns: number[]): number {
  return sampleStdev(returns) * Math.sqrt(TRADING_DAYS);
}

export function sharpeRatio(excess: number[]): number {
  return (mean(excess) * TRADING_DAYS) / (sampleStdev(excess) * Math.sqrt(TRADING_DAYS));
}

export function sortinoRatio(excess: number[]): number {
  const downside = Math.sqrt(mean(excess.map((e) => Math.min(e, 0) ** 2)));
  return (mean(excess) * TRADING_DAYS) / (downside * Math.sqrt(TRADING_DAYS));
}

export function maxDrawdown(prices: number[]): number {
  let peak = -Infinity;
  let worst = 0;
  for (const p of prices) {
    peak = Math.max(peak, p);
    worst = Math.max(worst, 1 - p / peak);
  }
  return worst;
}

export function covariance(a: number[], b: number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - ma) * (b[i] - mb);
  return s / (a.length - 1);
}

export function beta(r: number[], m: number[]): number {
  return covariance(r, m) / covariance(m, m);
}

export function dailyRiskFree(cdiAnnualPct: number): number {
  return Math.pow(1 + cdiAnnualPct / 100, 1 / TRADING_DAYS) - 1;
}

export interface RiskResult {
  window_start: string;
  ref_date: string;
  observations: number;
  volatility_ratio: number;
  sharpe_ratio: number;
  sortino_ratio: number;
  max_drawdown: number;
  beta_index: number | null;
  r_squared: number | null;
  treynor_ratio: number | null;
  jensen_alpha: number | null;
}

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Value of a dated series on `date` or the last date before it (series sorted ascending). */
export function onOrBefore(series: Array<[string, number]>, date: string): number | null {
  let lo = 0;
  let hi = series.length - 1;
  let found: number | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (series[mid][0] <= date) {
      found = series[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Metrics over the last `window` daily returns of one fund.
 * @param prices  [date, adjusted close] ascending
 * @param cdi     [date, CDI % a.a.] ascending
 * @param ifix    date -> IFIX points
 */
export function computeRisk(prices: Array<[string, number]>, cdi: Array<[string, number]>, ifix: Map<string, number>, window = TRADING_DAYS): RiskResult | null {
  const slice = prices.slice(-(window + 1));
  if (slice.length < 60) return null; // too short for annualised figures
  const px = slice.map(([, p]) => p);
  const r = simpleReturns(px);
  const excess = r.map((ri, i) => {
    const c = onOrBefore(cdi, slice[i + 1][0]);
    return ri - (c === null ? 0 : dailyRiskFree(c));
  });
  const fundR: number[] = [];
  const mktR: number[] = [];
  const mktExcess: number[] = [];
  for (let i = 1; i < slice.length; i++) {
    const a = ifix.get(slice[i - 1][0]);
    const b = ifix.get(slice[i][0]);
    if (a && b) {
      fundR.push(r[i - 1]);
      mktR.push(b / a - 1);
      const c = onOrBefore(cdi, slice[i][0]);
      mktExcess.push(b / a - 1 - (c === null ? 0 : dailyRiskFree(c)));
    }
  }
  const b = fundR.length >= 30 ? beta(fundR, mktR) : null;
  const corr = fundR.length >= 30 ? covariance(fundR, mktR) / (sampleStdev(fundR) * sampleStdev(mktR)) : null;
  const annualExcess = mean(excess) * TRADING_DAYS;
  return {
    window_start: slice[0][0],
    ref_date: slice[slice.length - 1][0],
    observations: r.length,
    volatility_ratio: r6(annualisedVolatility(r)),
    sharpe_ratio: r6(sharpeRatio(excess)),
    sortino_ratio: r6(sortinoRatio(excess)),
    max_drawdown: r6(maxDrawdown(px)),
    beta_index: b === null ? null : r6(b),
    r_squared: corr === null ? null : r6(corr * corr),
    treynor_ratio: b ? r6(annualExcess / b) : null,
    jensen_alpha: b === null ? null : r6((mean(excess) - b * mean(mktExcess)) * TRADING_DAYS),
  };
}
