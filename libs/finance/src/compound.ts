import { assertNonNegativeInteger, assertRate, dec, Dec, Numeric } from './decimal';

/**
 * Growth factor of `periods` compounding periods: (1 + i)^n.
 * Integer exponents are computed exactly by decimal.js (repeated multiplication within precision).
 */
export function growthFactor(rate: Numeric, periods: number): Dec {
  const i = dec(rate);
  assertRate('rate', i);
  assertNonNegativeInteger('periods', periods);
  return i.plus(1).pow(periods);
}

/**
 * Future value under compound interest: FV = PV · (1 + i)^n
 * (`rate` i per period as a fraction: 1% a month = 0.01; `periods` n in the same unit).
 */
export function futureValue(presentValue: Numeric, rate: Numeric, periods: number): Dec {
  return dec(presentValue).times(growthFactor(rate, periods));
}

/** Present value of a future amount: PV = FV / (1 + i)^n. */
export function presentValue(futureAmount: Numeric, rate: Numeric, periods: number): Dec {
  return dec(futureAmount).div(growthFactor(rate, periods));
}

/** Interest earned on a lump sum: J = FV − PV = PV · ((1 + i)^n − 1). */
export function compoundInterest(presentValue: Numeric, rate: Numeric, periods: number): Dec {
  return futureValue(presentValue, rate, periods).minus(dec(presentValue));
}

/** When periodic contributions are made: at the end of each period (ordinary annuity) or at the start. */
export type ContributionTiming = 'end' | 'begin';

/**
 * Future value of an annuity (the contributions alone):
 *   end of period:   FVA = PMT · ((1 + i)^n − 1) / i
 *   start of period: FVA = PMT · ((1 + i)^n − 1) / i · (1 + i)
 *   i = 0:           FVA = PMT · n
 */
export function annuityFutureValue(payment: Numeric, rate: Numeric, periods: number, timing: ContributionTiming = 'end'): Dec {
  const i = dec(rate);
  const pmt = dec(payment);
  if (i.isZero()) return pmt.times(periods);
  const fva = pmt.times(growthFactor(i, periods).minus(1)).div(i);
  return timing === 'begin' ? fva.times(i.plus(1)) : fva;
}

/**
 * Future value of an initial amount plus equal periodic contributions:
 *   FV = PV · (1 + i)^n + FVA(PMT, i, n)
 */
export function futureValueWithContributions(presentValue: Numeric, payment: Numeric, rate: Numeric, periods: number, timing: ContributionTiming = 'end'): Dec {
  return futureValue(presentValue, rate, periods).plus(annuityFutureValue(payment, rate, periods, timing));
}

/**
 * Equal periodic contribution needed to reach `goal` in n periods, given what is already invested:
 *   PMT = (Goal − PV · (1 + i)^n) · i / ((1 + i)^n − 1)        (end of period; ÷ (1 + i) when at the start)
 *   i = 0: PMT = (Goal − PV) / n
 * Zero when the initial amount alone already reaches the goal.
 */
export function requiredContribution(goal: Numeric, presentValue: Numeric, rate: Numeric, periods: number, timing: ContributionTiming = 'end'): Dec {
  if (periods <= 0) throw new RangeError('periods must be at least 1 to spread contributions');
  const i = dec(rate);
  const missing = dec(goal).minus(futureValue(presentValue, i, periods));
  if (missing.lte(0)) return new Dec(0);
  if (i.isZero()) return missing.div(periods);
  const pmt = missing.times(i).div(growthFactor(i, periods).minus(1));
  return timing === 'begin' ? pmt.div(i.plus(1)) : pmt;
}

/** One row of a month-by-month (or period-by-period) projection. */
export interface ProjectionRow {
  period: number;
  contribution: Dec;
  interest: Dec;
  balance: Dec;
  totalContributed: Dec;
}

/**
 * Period-by-period projection of PV plus contributions (end-of-period by default):
 *   interest_t = balance_{t−1} · i      (plus PMT · i when contributions come at the start)
 *   balance_t  = balance_{t−1} + interest_t + PMT
 * The last balance equals `futureValueWithContributions` (same formula, unrolled).
 */
export function projectionWithContributions(presentValue: Numeric, payment: Numeric, rate: Numeric, periods: number, timing: ContributionTiming = 'end'): ProjectionRow[] {
  const i = dec(rate);
  assertRate('rate', i);
  assertNonNegativeInteger('periods', periods);
  const pmt = dec(payment);
  let balance = dec(presentValue);
  let contributed = dec(presentValue);
  const rows: ProjectionRow[] = [];
  for (let t = 1; t <= periods; t++) {
    const base = timing === 'begin' ? balance.plus(pmt) : balance;
    const interest = base.times(i);
    balance = balance.plus(interest).plus(pmt);
    contributed = contributed.plus(pmt);
    rows.push({ period: t, contribution: pmt, interest, balance, totalContributed: contributed });
  }
  return rows;
}
