import { Dec } from '@cota/finance';
import { chronological, LedgerEntry } from './ledger';
import { replay } from './positions';

/** A close of one fund: the traded price on a date (never the adjusted one: income is counted as a flow). */
export interface Close {
  date: string;
  price: number | string;
}

/** Income the client received (by payment date), whether the statement said it or it was estimated from the fund's dividends. */
export interface IncomeReceived {
  ticker: string;
  date: string;
  amount: number | string;
}

/** One external flow of the period, as the investor sees it: money put in (buys) positive, money taken out (sales, income, amortizations) negative. */
export interface PeriodFlow {
  date: string;
  ticker: string;
  kind: 'buy' | 'sell' | 'income' | 'amortization';
  amount: Dec;
  /** Share of the period the flow stayed in (or out of) the portfolio: (end − date) ÷ (end − start). */
  weight: Dec;
}

/** The value of the positions held on a date at the closes given, with the closes each fund used. */
export interface Valuation {
  date: string;
  value: Dec;
  positions: Array<{ ticker: string; quantity: Dec; close: Dec; closeDate: string }>;
}

export interface PeriodReturn {
  /** The close the period starts from (the day before its first day). */
  start: string;
  end: string;
  initial: Valuation;
  final: Valuation;
  flows: PeriodFlow[];
  bought: Dec;
  sold: Dec;
  amortized: Dec;
  income: Dec;
  /** V1 − V0 − net flows: what the portfolio made in the period, income included. */
  gain: Dec;
  /** V0 + Σ weight × flow: the capital the period's gain is over. */
  averageCapital: Dec;
  /** gain ÷ average capital, in percent; null when no capital was invested in the period. */
  returnPct: Dec | null;
}

/** A fund held at a valuation date without a close on or before it. */
export class MissingCloseError extends Error {
  constructor(
    readonly ticker: string,
    readonly date: string,
  ) {
    super(`sem cotação de ${ticker} até ${date}`);
    this.name = 'MissingCloseError';
  }
}

const DAY_MS = 86_400_000;
const days = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The positions held at the end of `date`, valued at each fund's close (looked up by `closeOf`, on or before that date). */
export function valueAt(entries: readonly LedgerEntry[], date: string, closeOf: (ticker: string) => Close | undefined): Valuation {
  const held = [...replay(entries, date).positions.values()].filter((p) => p.quantity.gt(0)).sort((a, b) => a.ticker.localeCompare(b.ticker));
  const positions = held.map((p) => {
    const close = closeOf(p.ticker);
    if (!close || close.date > date) throw new MissingCloseError(p.ticker, date);
    return { ticker: p.ticker, quantity: p.quantity, close: new Dec(close.price), closeDate: close.date };
  });
  return { date, value: positions.reduce((a, p) => a.plus(p.quantity.times(p.close)), new Dec(0)), positions };
}

/**
 * The money-weighted return of a portfolio over a period by the Modified Dietz method:
 *
 *   R = (V1 − V0 − ΣF) / (V0 + Σ wᵢ·Fᵢ),   wᵢ = (end − dateᵢ) / (end − start)
 *
 * V0 is the value at the close of `start` (the day before the period's first day) and V1 at the close
 * of `end`, both at traded closes; the flows Fᵢ are the ledger's buys (quantity × price + fees, in),
 * sales (quantity × price − fees, out), amortizations (out) and the income received (out, by payment
 * date), each at the end of its day, so a flow on the last day weighs nothing and one on the first
 * day almost a whole period. Income counts as return because it leaves the portfolio as a flow.
 */
export function modifiedDietz(
  entries: readonly LedgerEntry[],
  income: readonly IncomeReceived[],
  period: { start: string; end: string },
  closes: { initial: (ticker: string) => Close | undefined; final: (ticker: string) => Close | undefined },
): PeriodReturn {
  const { start, end } = period;
  const span = days(start, end);
  if (span <= 0) throw new RangeError(`period end ${end} is not after its start ${start}`);
  const initial = valueAt(entries, start, closes.initial);
  const final = valueAt(entries, end, closes.final);
  const inPeriod = (date: string) => date > start && date <= end;
  const weight = (date: string) => new Dec(days(date, end)).div(span);
  const flows: PeriodFlow[] = [];
  for (const e of chronological(entries)) {
    if (!inPeriod(e.date)) continue;
    const fees = new Dec(e.fees === undefined || e.fees === '' ? 0 : e.fees);
    const gross = new Dec(e.quantity).times(new Dec(e.price));
    if (e.kind === 'buy') flows.push({ date: e.date, ticker: e.ticker, kind: 'buy', amount: gross.plus(fees), weight: weight(e.date) });
    else if (e.kind === 'sell') flows.push({ date: e.date, ticker: e.ticker, kind: 'sell', amount: gross.minus(fees).neg(), weight: weight(e.date) });
    else if (e.kind === 'amortization') flows.push({ date: e.date, ticker: e.ticker, kind: 'amortization', amount: new Dec(e.amount).neg(), weight: weight(e.date) });
    // Ledger income rows arrive through `income` (with the estimates for funds without them): not counted twice.
  }
  for (const i of income) {
    if (inPeriod(i.date)) flows.push({ date: i.date, ticker: i.ticker, kind: 'income', amount: new Dec(i.amount).neg(), weight: weight(i.date) });
  }
  flows.sort((a, b) => a.date.localeCompare(b.date) || a.ticker.localeCompare(b.ticker));
  const sum = (kind: PeriodFlow['kind']) => flows.filter((f) => f.kind === kind).reduce((a, f) => a.plus(f.amount.abs()), new Dec(0));
  const net = flows.reduce((a, f) => a.plus(f.amount), new Dec(0));
  const gain = final.value.minus(initial.value).minus(net);
  const averageCapital = flows.reduce((a, f) => a.plus(f.weight.times(f.amount)), initial.value);
  return {
    start,
    end,
    initial,
    final,
    flows,
    bought: sum('buy'),
    sold: sum('sell'),
    amortized: sum('amortization'),
    income: sum('income'),
    gain,
    averageCapital,
    returnPct: averageCapital.gt(0) ? gain.div(averageCapital).times(100) : null,
  };
}
