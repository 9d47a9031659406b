import { addMonths } from './yields';
import { dailyRiskFree } from './risk';

/**
 * Monthly performance of a client's portfolio against a benchmark.
 *
 * Positions are valued in total-return terms: each position starts at quantity x trade price and
 * then grows with its adjusted close (dividends reinvested): V_i(M) = V_i(M-1) * Padj_i(M) / Padj_i(M-1).
 * Trades happen at month end (after that month's return). A sale removes q_sold / q_held of V_i.
 * - portfolio_return(M) = sum V_i(M) / sum V_i(M-1) - 1 over positions held at the end of M-1;
 * - benchmark_return(M) for IFIX/IBOV/IFIL = points at the last session of M / last session of M-1 - 1;
 *   for CDI = product over the IFIX sessions of M of (1 + daily CDI) - 1;
 * - cumulative returns compound the monthly ones from the first month with a position;
 * - excess_return_pct = portfolio cumulative - benchmark cumulative (percentage points).
 * Percent columns hold percentages (1.5 = 1,5%).
 */
export interface Trade {
  trade_date: string;
  ticker: string;
  side: 'buy' | 'sell';
  quantity: number;
  price: number;
}

export interface PerformanceRow {
  benchmark: string;
  ref_month: string;
  portfolio_value: number;
  portfolio_return_pct: number;
  benchmark_return_pct: number;
  portfolio_cum_return_pct: number;
  benchmark_cum_return_pct: number;
  excess_return_pct: number;
}

const r4 = (v: number) => Math.round(v * 1e4) / 1e4;
const r2 = (v: number) => Math.round(v * 100) / 100;

/** Monthly portfolio returns from trades and month-end adjusted closes ('YYYY-MM-01' -> price). */
export function portfolioMonthlyReturns(trades: Trade[], adjMonthEnd: Map<string, Map<string, number>>, lastMonth: string): Array<{ month: string; ret: number; value: number }> {
  const sorted = [...trades].sort((a, b) => a.trade_date.localeCompare(b.trade_date));
  if (!sorted.length) return [];
  const value = new Map<string, number>();
  const qty = new Map<string, number>();
  const out: Array<{ month: string; ret: number; value: number }> = [];
  for (let month = `${sorted[0].trade_date.slice(0, 7)}-01`; month <= lastMonth; month = addMonths(month, 1)) {
    const prev = addMonths(month, -1);
    let start = 0;
    let end = 0;
    for (const [ticker, v] of value) {
      if (v <= 0) continue;
      const p0 = adjMonthEnd.get(ticker)?.get(prev);
      const p1 = adjMonthEnd.get(ticker)?.get(month);
      if (!p0 || !p1) throw new Error(`no adjusted close for ${ticker} in ${prev} or ${month}`);
      start += v;
      const nv = v * (p1 / p0);
      value.set(ticker, nv);
      end += nv;
    }
    const hadPositions = start > 0;
    for (const t of sorted.filter((x) => x.trade_date.slice(0, 7) === month.slice(0, 7))) {
      const held = qty.get(t.ticker) ?? 0;
      if (t.side === 'buy') {
        value.set(t.ticker, (value.get(t.ticker) ?? 0) + t.quantity * t.price);
        qty.set(t.ticker, held + t.quantity);
      } else {
        if (t.quantity > held) throw new Error(`sale of ${t.quantity} ${t.ticker} exceeds the ${held} held`);
        value.set(t.ticker, (value.get(t.ticker) ?? 0) * (1 - t.quantity / held));
        qty.set(t.ticker, held - t.quantity);
      }
    }
    const total = [...value.values()].reduce((a, b) => a + b, 0);
    if (hadPositions) out.push({ month, ret: end / start - 1, value: total });
  }
  return out;
}

/** Monthly return of an index from its daily points. */
export function indexMonthlyReturns(points: Array<[string, number]>): Map<string, number> {
  const last = new Map<string, number>();
  for (const [d, p] of points) last.set(`${d.slice(0, 7)}-01`, p); // ascending input: the last one stays
  const out = new Map<string, number>();
  for (const [m, p] of last) {
    const prev = last.get(addMonths(m, -1));
    if (prev) out.set(m, p / prev - 1);
  }
  return out;
}

/** Monthly CDI return compounding the daily rate over the given sessions. */
export function cdiMonthlyReturns(sessions: string[], cdiOn: (date: string) => number | null): Map<string, number> {
  const acc = new Map<string, number>();
  for (const d of sessions) {
    const rate = cdiOn(d);
    if (rate === null) continue;
    const m = `${d.slice(0, 7)}-01`;
    acc.set(m, (acc.get(m) ?? 1) * (1 + dailyRiskFree(rate)));
  }
  return new Map([...acc].map(([m, f]) => [m, f - 1]));
}

export function comparePerformance(portfolio: Array<{ month: string; ret: number; value: number }>, benchmark: string, benchmarkReturns: Map<string, number>): PerformanceRow[] {
  let cumP = 1;
  let cumB = 1;
  const rows: PerformanceRow[] = [];
  for (const p of portfolio) {
    const b = benchmarkReturns.get(p.month);
    if (b === undefined) continue;
    cumP *= 1 + p.ret;
    cumB *= 1 + b;
    rows.push({
      benchmark,
      ref_month: p.month,
      portfolio_value: r2(p.value),
      portfolio_return_pct: r4(p.ret * 100),
      benchmark_return_pct: r4(b * 100),
      portfolio_cum_return_pct: r4((cumP - 1) * 100),
      benchmark_cum_return_pct: r4((cumB - 1) * 100),
      excess_return_pct: r4((cumP - cumB) * 100),
    });
  }
  return rows;
}
