import { annualisedVolatility, beta, computeRisk, dailyRiskFree, maxDrawdown, onOrBefore, sampleStdev, sharpeRatio, simpleReturns, sortinoRatio } from './risk';

// Hand-checked on prices 100 -> 110 -> 99 -> 108.9: returns +10%, -10%, +10%.
describe('risk formulas (hand-checked values)', () => {
  const r = simpleReturns([100, 110, 99, 108.9]);

  it('simple returns', () => {
    expect(r.map((x) => Number(x.toFixed(10)))).toEqual([0.1, -0.1, 0.1]);
  });

  it('sample standard deviation and annualised volatility', () => {
    // mean 0.0333..., squared deviations 0.004444 + 0.017778 + 0.004444 = 0.026667, / (n-1) = 0.013333
    expect(sampleStdev(r)).toBeCloseTo(0.1154701, 6);
    expect(annualisedVolatility(r)).toBeCloseTo(1.8330303, 6); // 0.1154701 * sqrt(252)
  });

  it('Sharpe and Sortino with a zero risk-free rate', () => {
    expect(sharpeRatio(r)).toBeCloseTo(4.5825757, 6); // 0.03333 * 252 / 1.8330303
    expect(sortinoRatio(r)).toBeCloseTo(9.1651514, 6); // downside dev sqrt(0.01/3) = 0.0577350
  });

  it('maximum drawdown is the worst fall from a running peak', () => {
    expect(maxDrawdown([100, 110, 99, 108.9])).toBeCloseTo(0.1, 10);
    expect(maxDrawdown([10, 12, 6, 13, 9.1])).toBeCloseTo(0.5, 10);
    expect(maxDrawdown([1, 2, 3])).toBe(0);
  });

  it('beta: a fund moving twice the market has beta 2', () => {
    expect(beta([0.1, -0.1, 0.1], [0.05, -0.05, 0.05])).toBeCloseTo(2, 10);
  });

  it('daily risk-free rate from an annual CDI', () => {
    expect(dailyRiskFree(10)).toBeCloseTo(0.00037829, 7); // 1.10^(1/252) - 1
    expect(dailyRiskFree(0)).toBe(0);
  });

  it('onOrBefore finds the value of the date or the last date before it', () => {
    const s: Array<[string, number]> = [
      ['2024-01-02', 1],
      ['2024-01-05', 2],
    ];
    expect(onOrBefore(s, '2024-01-01')).toBeNull();
    expect(onOrBefore(s, '2024-01-04')).toBe(1);
    expect(onOrBefore(s, '2024-01-05')).toBe(2);
    expect(onOrBefore(s, '2030-01-01')).toBe(2);
  });

  it('computeRisk on the last window: a fund identical to IFIX has beta 1 and R² 1', () => {
    const prices: Array<[string, number]> = [];
    const ifix = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const d = new Date(Date.UTC(2023, 0, 2 + i)).toISOString().slice(0, 10);
      const p = 100 * (1 + 0.05 * Math.sin(i / 5)) * (1 + i / 1000);
      prices.push([d, p]);
      ifix.set(d, p * 30);
    }
    const res = computeRisk(prices, [['2022-12-01', 0]], ifix)!;
    expect(res.observations).toBe(252);
    expect(res.window_start).toBe(prices[300 - 253][0]);
    expect(res.beta_index).toBeCloseTo(1, 6);
    expect(res.r_squared).toBeCloseTo(1, 6);
    expect(res.jensen_alpha).toBeCloseTo(0, 6);
    const tail = prices.slice(-253).map(([, p]) => p);
    expect(res.volatility_ratio).toBeCloseTo(annualisedVolatility(simpleReturns(tail)), 5);
    expect(res.max_drawdown).toBeCloseTo(maxDrawdown(tail), 5);
  });

  it('computeRisk refuses series too short to annualise', () => {
    expect(
      computeRisk(
        [
          ['2024-01-01', 1],
          ['2024-01-02', 2],
        ],
        [],
        new Map(),
      ),
    ).toBeNull();
  });
});
