/**
 * Monthly and 12-month dividend yields computed by the project from dividends and unadjusted closes.
 *
 * Formulas (per ticker, per calendar month M):
 * - reference month of a dividend = month of its payment date when known, else of its record date
 *   (araquem's `fiis_yield_history` uses the payment month the same way);
 * - dividends_sum(M)  = sum of dividends whose reference month is M;
 * - price_ref(M)      = last unadjusted close of month M (adjusted closes would inflate old yields);
 * - dy_monthly(M)     = dividends_sum(M) / price_ref(M)                      (fraction: 0.0087 = 0,87%);
 * - dividends_12m(M)  = sum of dividends_sum over M-11 .. M, only when the ticker's dividend history
 *                       starts at or before M-11 (a shorter history would understate the sum); when the
 *                       newest dividend is of M-1 (the data ends before M's record date), M-12 .. M-1;
 * - dy_12m_pct(M)     = dividends_12m(M) / price_ref(M) * 100                (percent: 9.87 = 9,87%);
 * - last_dividend_amt / last_payment_date = newest dividend with reference month <= M.
 */
export interface DividendIn {
  ticker: string;
  traded_until_date: string;
  payment_date: string | null;
  dividend_amt: number;
}

export interface YieldHistoryRow {
  ticker: string;
  ref_month: string;
  dividends_sum: number;
  price_ref: number;
  dy_monthly: number;
}

export interface DividendsYieldsRow {
  ticker: string;
  ref_month: string;
  month_dividends_amt: number;
  month_price_ref: number;
  dy_monthly: number;
  dividends_12m_amt: number;
  dy_12m_pct: number;
  last_dividend_amt: number | null;
  last_payment_date: string | null;
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

/** 'YYYY-MM-01' shifted by n months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 10);
}

export function refMonth(d: DividendIn): string {
  return `${(d.payment_date ?? d.traded_until_date).slice(0, 7)}-01`;
}

/**
 * @param dividends every dividend of the tickers
 * @param closes    last unadjusted close per ticker and month ('YYYY-MM-01')
 */
export function computeYields(dividends: DividendIn[], closes: Map<string, Map<string, number>>): { history: YieldHistoryRow[]; yields: DividendsYieldsRow[] } {
  const byTicker = new Map<string, DividendIn[]>();
  for (const d of dividends) {
    const list = byTicker.get(d.ticker) ?? [];
    list.push(d);
    byTicker.set(d.ticker, list);
  }
  const history: YieldHistoryRow[] = [];
  const yields: DividendsYieldsRow[] = [];

  for (const [ticker, divs] of [...byTicker].sort(([a], [b]) => a.localeCompare(b))) {
    const monthCloses = closes.get(ticker);
    if (!monthCloses) continue;
    const sorted = [...divs].sort((a, b) => refMonth(a).localeCompare(refMonth(b)) || a.traded_until_date.localeCompare(b.traded_until_date));
    const perMonth = new Map<string, number>();
    for (const d of sorted) perMonth.set(refMonth(d), (perMonth.get(refMonth(d)) ?? 0) + d.dividend_amt);
    const firstMonth = refMonth(sorted[0]);
    // Dividend data can end a month before price data (dashbord: sessions to 2025-06-25, record
    // dates to 2025-06-17): the month right after the ticker's newest dividend takes the 12 months
    // ending at that dividend, or it would count 11 payments as 12 months.
    const lastMonth = refMonth(sorted[sorted.length - 1]);

    for (const [month, price] of [...monthCloses].sort(([a], [b]) => a.localeCompare(b))) {
      if (!(price > 0)) continue;
      const sum = round(perMonth.get(month) ?? 0, 6);
      if (sum > 0) history.push({ ticker, ref_month: month, dividends_sum: sum, price_ref: price, dy_monthly: round(sum / price, 8) });

      const windowEnd = month > lastMonth && addMonths(lastMonth, 1) === month ? lastMonth : month;
      const windowStart = addMonths(windowEnd, -11);
      if (firstMonth > windowStart) continue;
      let total = 0;
      for (let i = 0; i < 12; i++) total += perMonth.get(addMonths(windowEnd, -i)) ?? 0;
      total = round(total, 6);
      if (total <= 0) continue;
      const last = [...sorted].reverse().find((d) => refMonth(d) <= month) ?? null;
      yields.push({
        ticker,
        ref_month: month,
        month_dividends_amt: sum,
        month_price_ref: price,
        dy_monthly: round(sum / price, 8),
        dividends_12m_amt: total,
        dy_12m_pct: round((total / price) * 100, 4),
        last_dividend_amt: last?.dividend_amt ?? null,
        last_payment_date: last?.payment_date ?? null,
      });
    }
  }
  return { history, yields };
}
