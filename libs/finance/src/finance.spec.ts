import {
  annuityFutureValue,
  compoundInterest,
  dec,
  equivalentRate,
  futureValue,
  futureValueWithContributions,
  historicalVaR,
  internalRateOfReturn,
  mean,
  monthlyToYearly,
  netPresentValue,
  presentValue,
  projectionWithContributions,
  realRate,
  requiredContribution,
  sampleStdDev,
  sharpeRatio,
  simpleReturns,
  toCents,
  yearlyToMonthly,
} from './index';

// Expected values computed by hand / with Python's decimal module at 40 digits.
const close = (actual: { minus(x: string): { abs(): { lt(x: string): boolean } } }, expected: string, tol = '1e-20') => expect(actual.minus(expected).abs().lt(tol)).toBe(true);

describe('compound interest', () => {
  it('FV of R$ 10.000 at 1% a month for 24 months is 12697.3464853191446890...', () => {
    const fv = futureValue('10000', '0.01', 24);
    close(fv, '12697.34648531914468903714880493455422105');
    expect(toCents(fv).toFixed(2)).toBe('12697.35');
    expect(toCents(compoundInterest(10000, '0.01', 24)).toFixed(2)).toBe('2697.35');
  });

  it('zero periods or zero rate leave the amount unchanged', () => {
    expect(futureValue(1234.5, '0.02', 0).toString()).toBe('1234.5');
    expect(futureValue(1000, 0, 36).toString()).toBe('1000');
  });

  it('PV is the inverse of FV', () => {
    close(presentValue('12697.34648531914468903714880493455422105', '0.01', 24), '10000', '1e-30');
    expect(toCents(presentValue(1210, '0.1', 2)).toFixed(2)).toBe('1000.00');
  });

  it('rejects rates at or below -100% and fractional periods', () => {
    expect(() => futureValue(100, -1, 2)).toThrow(RangeError);
    expect(() => futureValue(100, 0.01, 1.5)).toThrow(RangeError);
  });
});

describe('contributions', () => {
  it('annuity of R$ 500 a month at 1% for 12 months (end of period)', () => {
    close(annuityFutureValue(500, '0.01', 12), '6341.25150659848603306005');
    // Start of period = end of period × 1.01.
    close(annuityFutureValue(500, '0.01', 12, 'begin'), dec('6341.25150659848603306005').times('1.01').toString());
  });

  it('R$ 1.000 now plus R$ 500 a month at 1% for 12 months', () => {
    close(futureValueWithContributions(1000, 500, '0.01', 12), '7468.076536730455753721251');
  });

  it('zero rate is plain sum', () => {
    expect(futureValueWithContributions(1000, 100, 0, 10).toString()).toBe('2000');
    expect(requiredContribution(2200, 1000, 0, 12).toString()).toBe('100');
  });

  it('monthly contribution to reach R$ 100.000 in 24 months at 1%', () => {
    close(requiredContribution(100000, 0, '0.01', 24), '3707.347222326470907046960660345451446294');
    // Round trip: contributing that amount reaches the goal.
    close(futureValueWithContributions(0, requiredContribution(100000, 0, '0.01', 24), '0.01', 24), '100000', '1e-25');
  });

  it('no contribution needed when the initial amount already reaches the goal', () => {
    expect(requiredContribution(1000, 2000, '0.01', 12).toString()).toBe('0');
  });

  it('projection rows end at the closed-form future value', () => {
    const rows = projectionWithContributions(1000, 500, '0.01', 12);
    expect(rows).toHaveLength(12);
    expect(rows[0].interest.toString()).toBe('10');
    expect(rows[0].balance.toString()).toBe('1510');
    close(rows[11].balance, futureValueWithContributions(1000, 500, '0.01', 12).toString(), '1e-25');
    expect(rows[11].totalContributed.toString()).toBe('7000');
    const begin = projectionWithContributions(0, 100, '0.1', 2, 'begin');
    // t1: (0+100)·1.1 = 110; t2: (110+100)·1.1 = 231
    expect(begin[1].balance.toString()).toBe('231');
  });
});

describe('rate conversion', () => {
  it('1% a month is 12.6825030131969720661201% a year', () => {
    close(monthlyToYearly('0.01'), '0.126825030131969720661201');
  });
  it('12% a year is 0.9488792934582974...% a month', () => {
    close(yearlyToMonthly('0.12'), '0.009488792934582974126355069193493956394', '1e-30');
  });
  it('round trip and identity', () => {
    close(monthlyToYearly(yearlyToMonthly('0.15')), '0.15', '1e-30');
    expect(equivalentRate('0.05', 12, 12).toString()).toBe('0.05');
  });
  it('real rate by Fisher: 10% nominal with 4.5% inflation', () => {
    // 1.10 / 1.045 − 1 = 0.05263157894736842105...
    close(realRate('0.10', '0.045'), '0.05263157894736842105263157894736842105', '1e-30');
  });
});

describe('NPV and IRR', () => {
  it('NPV of -1000, 500, 700 at 10%', () => {
    // -1000 + 500/1.1 + 700/1.21 = 33.0578512396694214876...
    close(netPresentValue('0.1', [-1000, 500, 700]), '33.05785123966942148760330578512396694210', '1e-30');
  });
  it('NPV at 0% is the plain sum', () => {
    expect(netPresentValue(0, [-100, 30, 30, 30]).toString()).toBe('-10');
  });
  it('IRR of -1000, 1100 is 10%', () => {
    close(internalRateOfReturn([-1000, 1100])!, '0.1', '1e-12');
  });
  it('IRR of -100, 60, 60 solves the quadratic: 120 / (sqrt(27600) − 60) − 1', () => {
    const expected = dec(120).div(dec(27600).sqrt().minus(60)).minus(1);
    close(internalRateOfReturn([-100, 60, 60])!, expected.toString(), '1e-12');
    close(netPresentValue(internalRateOfReturn([-100, 60, 60])!, [-100, 60, 60]), '0', '1e-9');
  });
  it('IRR is negative when the flows lose money, and null without a sign change', () => {
    close(internalRateOfReturn([-1000, 900])!, '-0.1', '1e-12');
    expect(internalRateOfReturn([100, 200])).toBeNull();
    expect(internalRateOfReturn([-100, -200])).toBeNull();
  });
  it('IRR converges from a bad guess through bisection', () => {
    close(internalRateOfReturn([-1000, 1100], { guess: '50' })!, '0.1', '1e-9');
  });
});

describe('risk', () => {
  it('mean and sample standard deviation', () => {
    expect(mean([1, 2, 3, 4]).toString()).toBe('2.5');
    // deviations ±0.01 → sqrt(0.0002 / 2) = 0.01
    expect(sampleStdDev(['0.01', '0.02', '0.03']).toString()).toBe('0.01');
    expect(() => sampleStdDev([1])).toThrow(RangeError);
  });
  it('Sharpe of 1%, 2%, 3% with a 0.5% risk-free is 1.5, annualised × sqrt(12)', () => {
    expect(sharpeRatio(['0.01', '0.02', '0.03'], { riskFreeRate: '0.005' })!.toString()).toBe('1.5');
    close(sharpeRatio(['0.01', '0.02', '0.03'], { riskFreeRate: '0.005', periodsPerYear: 12 })!, dec(12).sqrt().times('1.5').toString(), '1e-30');
    expect(sharpeRatio(['0.01', '0.01', '0.01'])).toBeNull();
  });
  it('historical VaR takes the k-th worst return, k = ceil((1 − c)·n)', () => {
    const returns = Array.from({ length: 20 }, (_, j) => dec(j - 5).div(100)); // -5% .. +14%
    expect(historicalVaR(returns, '0.95').toString()).toBe('0.05');
    expect(historicalVaR(returns, '0.9').toString()).toBe('0.04');
    expect(historicalVaR(returns, '0.75').toString()).toBe('0.01'); // k = 5 → -1%
    expect(historicalVaR(['0.01', '0.02'], '0.95').toString()).toBe('0');
    expect(() => historicalVaR([], '0.95')).toThrow(RangeError);
    expect(() => historicalVaR([0.1], 1)).toThrow(RangeError);
  });
  it('simple returns from prices', () => {
    expect(simpleReturns([100, 110, 99]).map((r) => r.toString())).toEqual(['0.1', '-0.1']);
  });
});
