import { assertRate, dec, Dec, Numeric } from './decimal';

/**
 * Equivalent compound rate for a different period length: (1 + i)^(to/from) − 1.
 * E.g. monthly → yearly is (1 + i_m)^12 − 1 and yearly → monthly is (1 + i_a)^(1/12) − 1.
 * `fromPeriodsPerYear`/`toPeriodsPerYear`: 12 for months, 1 for years, 252 for trading days.
 */
export function equivalentRate(rate: Numeric, fromPeriodsPerYear: number, toPeriodsPerYear: number): Dec {
  const i = dec(rate);
  assertRate('rate', i);
  if (fromPeriodsPerYear <= 0 || toPeriodsPerYear <= 0) throw new RangeError('periods per year must be positive');
  if (fromPeriodsPerYear === toPeriodsPerYear) return i;
  const exponent = new Dec(fromPeriodsPerYear).div(toPeriodsPerYear);
  return i.plus(1).pow(exponent).minus(1);
}

/** Yearly rate equivalent to a monthly one: (1 + i_m)^12 − 1 (1% a.m. → 12,6825...% a.a.). */
export function monthlyToYearly(monthlyRate: Numeric): Dec {
  return equivalentRate(monthlyRate, 12, 1);
}

/** Monthly rate equivalent to a yearly one: (1 + i_a)^(1/12) − 1 (12% a.a. → 0,9489...% a.m.). */
export function yearlyToMonthly(yearlyRate: Numeric): Dec {
  return equivalentRate(yearlyRate, 1, 12);
}

/** Real rate from a nominal rate and inflation (Fisher): (1 + nominal) / (1 + inflation) − 1. */
export function realRate(nominalRate: Numeric, inflationRate: Numeric): Dec {
  const n = dec(nominalRate);
  const p = dec(inflationRate);
  assertRate('inflation', p);
  return n.plus(1).div(p.plus(1)).minus(1);
}
