/**
 * Share splits and reverse splits (inplits) detected from the data, with their evidence.
 *
 * A split by k divides the price and the dividend per share by k from one day on. It shows as a
 * step in the dividend series (R$ 0,82 → R$ 0,08) that the price confirms across the same dates
 * (R$ 111 → R$ 10), and that persists (the next dividends stay at the new scale). Dividends alone
 * are not evidence: FIIs change their payouts by 3× and more (one-off distributions, data errors),
 * so a step the price does not confirm is left as it is. The factor is the usual one (2, 3, 4, 5,
 * 25...) closest to both ratios together. Per-share history before the event is divided by the
 * factor (an inplit's factor is below 1) before any computation that crosses it.
 */
export interface CorporateAction {
  ticker: string;
  /** First record date at the new scale. */
  event_date: string;
  /** Shares after / shares before: 10 for a 1:10 split, 0.1 for a 10:1 inplit. */
  factor: number;
  kind: 'split' | 'inplit';
  /** First month ('YYYY-MM-01') whose close is on the new scale: the month of the new scale, or of the last old-scale dividend. */
  prices_from: string;
  /** pt-BR: what shows the event (dividends and prices on both sides). */
  evidence: string;
}

interface Dividend {
  ticker: string;
  traded_until_date: string;
  dividend_amt: number;
}

// FII splits are 1:5 and up (mostly 1:10); a 3x fall of price and payout is a distressed fund, not a split.
const NICE = [5, 8, 10, 20, 25, 50, 100];
/** A step is a split candidate when the dividend changes by at least this factor at once. */
const MIN_STEP = 3;

const brl = (v: number) => `R$ ${v.toFixed(v < 1 ? 4 : 2).replace('.', ',')}`;
const br = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

/** The usual split factor closest to a ratio (in log terms), when it is within 25% of it. */
export function niceFactor(ratio: number): number | null {
  const k = ratio >= 1 ? ratio : 1 / ratio;
  const best = [...NICE].sort((a, b) => Math.abs(Math.log(k / a)) - Math.abs(Math.log(k / b)))[0];
  if (Math.abs(k / best - 1) > 0.25) return null;
  return ratio >= 1 ? best : 1 / best;
}

const monthsBetween = (a: string, b: string) => Number(b.slice(0, 4)) * 12 + Number(b.slice(5, 7)) - (Number(a.slice(0, 4)) * 12 + Number(a.slice(5, 7)));

/** The last close on or before a date, and the first on or after it, from monthly closes ('YYYY-MM-01' → close). */
function closeAround(closes: Map<string, number> | undefined, date: string, before: boolean): [string, number] | null {
  if (!closes) return null;
  const month = `${date.slice(0, 7)}-01`;
  const months = [...closes.keys()].sort();
  const pick = before ? months.filter((m) => m < month).pop() : months.find((m) => m > month);
  return pick ? [pick, closes.get(pick)!] : null;
}

/**
 * @param dividends  every reconciled dividend
 * @param closes     last unadjusted close per ticker and month ('YYYY-MM-01')
 * @param bookValues NAV per share per ticker and month ('YYYY-MM-01': CVM reports, the snapshot): where no close
 *                   brackets the step closely, the book value per share confirms it instead (SARE11's 1:10 of
 *                   October 2024: R$ 0,20 → R$ 0,02 per share, NAV per share R$ 89,59 (12/2023) → R$ 7,78 (11/2025),
 *                   while the closes around it are 2022's and 2025's, whose 15× also holds a falling price)
 */
export function detectCorporateActions(dividends: Dividend[], closes: Map<string, Map<string, number>>, bookValues = new Map<string, Map<string, number>>()): CorporateAction[] {
  const byTicker = new Map<string, Dividend[]>();
  for (const d of dividends) if (d.dividend_amt > 0) byTicker.set(d.ticker, [...(byTicker.get(d.ticker) ?? []), d]);
  const out: CorporateAction[] = [];
  for (const [ticker, list] of [...byTicker].sort(([a], [b]) => a.localeCompare(b))) {
    const divs = list.sort((a, b) => a.traded_until_date.localeCompare(b.traded_until_date));
    for (let i = 1; i < divs.length; i++) {
      const prev = divs[i - 1];
      const cur = divs[i];
      const ratio = cur.dividend_amt / prev.dividend_amt;
      if (ratio > 1 / MIN_STEP && ratio < MIN_STEP) continue;
      if (!niceFactor(1 / ratio)) continue;
      // The new scale persists: the next dividends stay near the new level.
      const next = divs.slice(i + 1, i + 3);
      const persists = next.length > 0 && next.every((n) => n.dividend_amt / cur.dividend_amt > 0.5 && n.dividend_amt / cur.dividend_amt < 2);
      const before = closeAround(closes.get(ticker), prev.traded_until_date, false);
      const after = closeAround(closes.get(ticker), cur.traded_until_date, false);
      // The split falls between the two record dates: the price steps after the previous month's close, either
      // in the month of the new scale (BCFF11) or already in the month of the last old-scale dividend (ALZC11:
      // R$ 1,10 on 15/04/2025, then R$ 0,12; closes R$ 79,13 in March, R$ 8,63 in April).
      const month = (d: string) => `${d.slice(0, 7)}-01`;
      const confirmed = [
        { p0: closeAround(closes.get(ticker), cur.traded_until_date, true) ?? before, pricesFrom: month(cur.traded_until_date) },
        { p0: closeAround(closes.get(ticker), prev.traded_until_date, true), pricesFrom: month(prev.traded_until_date) },
      ]
        .map(({ p0, pricesFrom }) => ({ p0, pricesFrom, priceRatio: p0 && after ? after[1] / p0[1] : null }))
        .map((c) => ({ ...c, factor: c.priceRatio === null ? null : niceFactor(1 / Math.sqrt(ratio * c.priceRatio)) }))
        // Both steps in the same direction and of the same usual size.
        .find((c) => c.priceRatio !== null && c.factor !== null && niceFactor(1 / c.priceRatio) !== null && Math.sign(Math.log(ratio)) === Math.sign(Math.log(c.priceRatio)));
      const b0 = closeAround(bookValues.get(ticker), cur.traded_until_date, true);
      const b1 = closeAround(bookValues.get(ticker), cur.traded_until_date, false);
      const bookRatio = b0 && b1 ? b1[1] / b0[1] : null;
      // Reports a month or two apart: the book value per share barely moves, its step is the factor (KISU11 2021:
      // dividend 4,2×, NAV 10,2×). Years apart (SARE11) it also moved on its own: both steps must name the same factor.
      const close = b0 && b1 && monthsBetween(b0[0], b1[0]) <= 3;
      const bookFactor =
        bookRatio === null ? null : close ? niceFactor(1 / bookRatio) : niceFactor(1 / Math.sqrt(ratio * bookRatio)) === niceFactor(1 / ratio) ? niceFactor(1 / ratio) : null;
      const byBook =
        !confirmed && bookRatio !== null && bookFactor !== null && Math.sign(Math.log(ratio)) === Math.sign(Math.log(bookRatio))
          ? { p0: null, factor: bookFactor, pricesFrom: month(cur.traded_until_date) }
          : null;
      const found = confirmed ?? byBook;
      if (!found || !(persists || next.length === 0)) continue;
      const { p0, factor, pricesFrom } = found as { p0: [string, number] | null; factor: number; pricesFrom: string };
      const prices = byBook
        ? `; valor patrimonial por cota ${brl(b0![1])} (${br(b0![0]).slice(3)}) → ${brl(b1![1])} (${br(b1![0]).slice(3)})`
        : p0 && after
          ? `; preço ${brl(p0[1])} (${br(p0[0]).slice(3)}) → ${brl(after[1])} (${br(after[0]).slice(3)})`
          : '';
      out.push({
        ticker,
        event_date: cur.traded_until_date,
        factor,
        kind: factor > 1 ? 'split' : 'inplit',
        prices_from: pricesFrom,
        evidence: `dividendo ${brl(prev.dividend_amt)} (${br(prev.traded_until_date)}) → ${brl(cur.dividend_amt)} (${br(cur.traded_until_date)})${prices}; ${
          persists ? 'a nova escala se mantém nos pagamentos seguintes' : 'último pagamento da série'
        }`,
      });
    }
  }
  return out;
}

/** Per-share values before each event, divided by its factor: one scale across the whole history. */
export function adjustPerShare<T>(rows: T[], actions: CorporateAction[], ticker: (r: T) => string, date: (r: T) => string, scale: (r: T, f: number) => T): T[] {
  const byTicker = new Map<string, CorporateAction[]>();
  for (const a of actions) byTicker.set(a.ticker, [...(byTicker.get(a.ticker) ?? []), a]);
  return rows.map((r) => {
    const events = byTicker.get(ticker(r));
    if (!events) return r;
    const f = events.filter((e) => date(r) < e.event_date).reduce((acc, e) => acc * e.factor, 1);
    return f === 1 ? r : scale(r, f);
  });
}
