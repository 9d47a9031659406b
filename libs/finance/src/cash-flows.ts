import { assertRate, dec, Dec, Numeric } from './decimal';

/**
 * Net present value of cash flows at a per-period discount rate, the first flow at t = 0:
 *   NPV = Σ_{t=0..n} CF_t / (1 + r)^t
 * (an initial investment is a negative CF_0).
 */
export function netPresentValue(rate: Numeric, cashFlows: Numeric[]): Dec {
  const r = dec(rate);
  assertRate('rate', r);
  const base = r.plus(1);
  let discount = new Dec(1);
  let total = new Dec(0);
  for (const cf of cashFlows) {
    total = total.plus(dec(cf).div(discount));
    discount = discount.times(base);
  }
  return total;
}

/**
 * NPV and its slope d NPV / d r = Σ −t · CF_t / (1 + r)^(t+1) in one pass, for Newton's method;
 * the discount factor is carried from term to term instead of recomputing powers.
 */
function npvWithSlope(rate: Dec, cashFlows: Dec[]): { value: Dec; slope: Dec } {
  const base = rate.plus(1);
  let discount = new Dec(1);
  let value = new Dec(0);
  let slope = new Dec(0);
  cashFlows.forEach((cf, t) => {
    const term = cf.div(discount);
    value = value.plus(term);
    if (t > 0) slope = slope.minus(term.times(t).div(base));
    discount = discount.times(base);
  });
  return { value, slope };
}

/**
 * Starting point for Newton: the rate that turns the money out into the money in over the
 * flows' average time, (Σ in / Σ out)^(1/t̄) − 1, computed in floats (it is only a guess).
 */
function initialGuess(flows: Dec[]): Dec {
  let inflow = 0;
  let outflow = 0;
  let weighted = 0;
  flows.forEach((f, t) => {
    const v = f.toNumber();
    if (v > 0) {
      inflow += v;
      weighted += v * t;
    } else outflow -= v;
  });
  const meanTime = inflow > 0 ? weighted / inflow : 1;
  const g = Math.pow(inflow / outflow, 1 / Math.max(meanTime, 1)) - 1;
  return Number.isFinite(g) && g > -0.99 && g < 10 ? new Dec(g.toPrecision(6)) : new Dec('0.1');
}

export interface IrrOptions {
  /** Starting guess for Newton's method (default: estimated from the flows). */
  guess?: Numeric;
  /** Stop when |NPV| is below this (default 1e-12 of the largest flow). */
  tolerance?: Numeric;
  maxIterations?: number;
}

/**
 * Internal rate of return: the per-period rate r with NPV(r) = 0.
 * Newton–Raphson from `guess`; if it diverges, bisection on the interval where NPV changes sign
 * (searched in (−99.99%, 1000%]). Returns null when the flows have no sign change (no IRR exists)
 * or no root is found in that range. With several sign changes several IRRs may exist: this
 * returns the one the search reaches first, as spreadsheets do.
 */
export function internalRateOfReturn(cashFlows: Numeric[], opts: IrrOptions = {}): Dec | null {
  const flows = cashFlows.map(dec);
  if (!flows.some((f) => f.gt(0)) || !flows.some((f) => f.lt(0))) return null;
  const largest = flows.reduce((m, f) => Dec.max(m, f.abs()), new Dec(0));
  const tol = opts.tolerance !== undefined ? dec(opts.tolerance) : largest.times('1e-12');
  const maxIter = opts.maxIterations ?? 100;

  let r = opts.guess !== undefined ? dec(opts.guess) : initialGuess(flows);
  for (let k = 0; k < maxIter; k++) {
    if (r.lte(-1)) break;
    const { value, slope } = npvWithSlope(r, flows);
    if (value.abs().lte(tol)) return r;
    if (slope.isZero()) break;
    r = r.minus(value.div(slope));
  }

  // Bisection fallback: scan for a bracket, then halve it.
  const grid = ['-0.9999', '-0.9', '-0.5', '-0.2', '0', '0.05', '0.1', '0.2', '0.5', '1', '2', '5', '10'].map((g) => new Dec(g));
  for (let g = 0; g + 1 < grid.length; g++) {
    let lo = grid[g];
    let hi = grid[g + 1];
    let fLo = netPresentValue(lo, flows);
    const fHi = netPresentValue(hi, flows);
    if (fLo.isZero()) return lo;
    if (fLo.times(fHi).gt(0)) continue;
    for (let k = 0; k < 400; k++) {
      const mid = lo.plus(hi).div(2);
      const fMid = netPresentValue(mid, flows);
      if (fMid.abs().lte(tol) || hi.minus(lo).lt('1e-20')) return mid;
      if (fLo.times(fMid).lt(0)) hi = mid;
      else {
        lo = mid;
        fLo = fMid;
      }
    }
    return lo.plus(hi).div(2);
  }
  return null;
}
