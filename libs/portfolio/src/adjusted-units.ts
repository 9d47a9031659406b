import { Dec } from '@cota/finance';
import { chronological, LedgerEntry } from './ledger';

/** A fund's close adjusted for its distributions on a date (dividends reinvested), when the base has one. */
export type AdjustedCloseAt = (ticker: string, date: string) => number | undefined;

/**
 * The ledger in units of each fund's adjusted close, for valuing a portfolio with its income reinvested:
 * a buy of q shares at price p, on a day the adjusted close was a, is q·p/a units bought at a (the money
 * it took); a sale takes the share of the units held that its shares are of the shares held, at that
 * day's adjusted close. Valued at adjusted closes, each lot then grows from what it cost with its income
 * reinvested, whatever the scale the adjusted series has. Income rows and splits leave no units (both are
 * inside the adjusted closes); amortizations stay as they are (money out). Null when a trade's day has
 * no adjusted close.
 */
export function inAdjustedUnits(entries: readonly LedgerEntry[], adjustedAt: AdjustedCloseAt): LedgerEntry[] | null {
  const shares = new Map<string, Dec>();
  const units = new Map<string, Dec>();
  const out: LedgerEntry[] = [];
  for (const e of chronological(entries)) {
    const held = shares.get(e.ticker) ?? new Dec(0);
    const qty = new Dec(e.quantity || 0);
    if (e.kind === 'split' || e.kind === 'reverse_split') {
      shares.set(e.ticker, e.kind === 'split' ? held.plus(qty) : held.minus(qty));
      continue;
    }
    if (e.kind === 'income') continue;
    if (e.kind === 'amortization') {
      out.push(e);
      continue;
    }
    const close = adjustedAt(e.ticker, e.date);
    if (close === undefined || !(close > 0)) return null;
    const a = new Dec(close);
    const owned = units.get(e.ticker) ?? new Dec(0);
    // (a sale of every share held takes every unit, exactly)
    const traded = e.kind === 'buy' ? qty.times(new Dec(e.price)).div(a) : qty.gte(held) ? owned : owned.times(qty).div(held);
    shares.set(e.ticker, e.kind === 'buy' ? held.plus(qty) : held.minus(qty));
    units.set(e.ticker, e.kind === 'buy' ? owned.plus(traded) : owned.minus(traded));
    out.push({ ...e, quantity: traded.toString(), price: a.toString() });
  }
  return out;
}
