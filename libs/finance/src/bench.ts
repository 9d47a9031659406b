import { futureValueWithContributions } from './compound';
import { internalRateOfReturn } from './cash-flows';
import { historicalVaR, sharpeRatio } from './risk';

/** Same shape as cli/bench-harness.ts `Benchmark`. */
export interface Benchmark {
  name: string;
  run: () => Promise<void> | void;
  targetMeanMs?: number;
}

/**
 * decimal.js is slower than floats; these keep its cost visible (run by cli/bench.ts).
 * Targets: a 30-year monthly projection under 0.5 ms; IRR of 60 flows under 20 ms;
 * Sharpe and VaR over 1,000 daily returns under 10 ms.
 */
export function financeBenchmarks(): Benchmark[] {
  const flows = [-100000, ...Array.from({ length: 59 }, (_, i) => 2000 + (i % 7) * 50)];
  const returns = Array.from({ length: 1000 }, (_, i) => ((Math.sin(i * 12.9898) * 43758.5453) % 1) / 50);
  return [
    { name: 'finance.futureValueWithContributions(360 months)', targetMeanMs: 0.5, run: () => void futureValueWithContributions('10000', '500', '0.008', 360) },
    { name: 'finance.internalRateOfReturn(60 flows)', targetMeanMs: 20, run: () => void internalRateOfReturn(flows) },
    { name: 'finance.sharpeRatio(1000 returns)', targetMeanMs: 10, run: () => void sharpeRatio(returns, { periodsPerYear: 252 }) },
    { name: 'finance.historicalVaR(1000 returns)', targetMeanMs: 10, run: () => void historicalVaR(returns, '0.95') },
  ];
}
