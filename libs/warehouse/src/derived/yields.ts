/**
 * Monthly and 12-month dividend yields computed by the project from dividends and unadjusted closes.
 *
 * Formulas (per ticker, per calendar month M):
 * - reference month of a dividend = month of its payment date when known, else of its record date
 *   (araquem's `fiis_yield_history` uses the payment month the same way);
 * - dividends_sum(M)  = sum of dividends whose reference month is M;
 * - price_ref(M)      = last unadjusted close of month M (adjusted closes would inflate old yields);
 * - dy_monthly(M)     = dividends_sum(M) / price_ref(M)                      (fraction: 0.0087 = 0,87%);
 * - dividends_12m(M)  = sum of the dividends whose RECORD date (data-com) falls in the 12 whole months
 *                       M-11 .. M: the same distributions "os últimos 12 meses" of the dividend answer
 *                       lists; only when the history starts at or before M-11 (a shorter history would
 *                       understate the sum); the month right after the newest record date takes the
 *                       12 months ending at that record date (the data ends there: dashbord's sessions
 *                       run to 2025-06-25, its record dates to 2025-05-30), later months none, or
 *                       they would count 11 payments as 12 months;
 * - dy_12m_pct(M)     = dividends_12m(M) / price_ref(M) * 100, two decimals (9.87 = 9,87%);
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
  /** How many distributions the 12-month sum took. */
  payments_12m: number;
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

/** The month a distribution belongs to by its data-com: what a fund distributed in a window. */
export const recordMonth = (d: DividendIn): string => `${d.traded_until_date.slice(0, 7)}-01`;

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
    const byRecord = byRecordMonth(sorted);
    const recordMonths = [...byRecord.keys()].sort();
    const firstMonth = recordMonths[0];
    const lastMonth = recordMonths[recordMonths.length - 1];

    for (const [month, price] of [...monthCloses].sort(([a], [b]) => a.localeCompare(b))) {
      if (!(price > 0)) continue;
      const sum = round(perMonth.get(month) ?? 0, 6);
      if (sum > 0) history.push({ ticker, ref_month: month, dividends_sum: sum, price_ref: price, dy_monthly: round(sum / price, 8) });

      if (month > lastMonth && addMonths(lastMonth, 1) !== month) continue;
      const windowEnd = month > lastMonth ? lastMonth : month;
      if (firstMonth > addMonths(windowEnd, -11)) continue;
      const { total, payments } = twelveMonthsTo(byRecord, windowEnd);
      if (total <= 0) continue;
      const last = [...sorted].reverse().find((d) => refMonth(d) <= month) ?? null;
      yields.push({
        ticker,
        ref_month: month,
        month_dividends_amt: sum,
        month_price_ref: price,
        dy_monthly: round(sum / price, 8),
        dividends_12m_amt: total,
        payments_12m: payments,
        dy_12m_pct: round((total / price) * 100, 2),
        last_dividend_amt: last?.dividend_amt ?? null,
        last_payment_date: last?.payment_date ?? null,
      });
    }
  }
  return { history, yields };
}

type RecordMonths = Map<string, { sum: number; n: number }>;

/** A ticker's distributions summed per data-com month. */
function byRecordMonth(divs: DividendIn[]): RecordMonths {
  const out: RecordMonths = new Map();
  for (const d of divs) {
    const cur = out.get(recordMonth(d)) ?? { sum: 0, n: 0 };
    out.set(recordMonth(d), { sum: cur.sum + d.dividend_amt, n: cur.n + 1 });
  }
  return out;
}

/** The distributions with data-com in the 12 whole months ending with `windowEnd` ('YYYY-MM-01'). */
function twelveMonthsTo(byRecord: RecordMonths, windowEnd: string): { total: number; payments: number } {
  let total = 0;
  let payments = 0;
  for (let i = 0; i < 12; i++) {
    const r = byRecord.get(addMonths(windowEnd, -i));
    total += r?.sum ?? 0;
    payments += r?.n ?? 0;
  }
  return { total: round(total, 6), payments };
}

/** A fund's last twelve months of distributions: the window, its sum and how many it holds. */
export interface TrailingDistributions {
  /** First day of the window's first month. */
  from: string;
  /** The newest data-com (the window ends with its month). */
  to: string;
  total: number;
  payments: number;
}

/**
 * Per ticker, the distributions with data-com in the 12 whole months ending with the month of the
 * newest one (the same "últimos 12 meses" the dividend answer lists), whatever prices exist; only
 * when the history starts at or before the window (a shorter history would understate the sum).
 */
export function trailingDistributions(dividends: DividendIn[]): Map<string, TrailingDistributions> {
  const byTicker = new Map<string, DividendIn[]>();
  for (const d of dividends) {
    const list = byTicker.get(d.ticker) ?? [];
    list.push(d);
    byTicker.set(d.ticker, list);
  }
  const out = new Map<string, TrailingDistributions>();
  for (const [ticker, divs] of byTicker) {
    const byRecord = byRecordMonth(divs);
    const months = [...byRecord.keys()].sort();
    const to = divs.reduce((a, d) => (d.traded_until_date > a ? d.traded_until_date : a), '');
    const last = `${to.slice(0, 7)}-01`;
    if (months[0] > addMonths(last, -11)) continue;
    const { total, payments } = twelveMonthsTo(byRecord, last);
    if (total > 0) out.set(ticker, { from: addMonths(last, -11), to, total, payments });
  }
  return out;
}
