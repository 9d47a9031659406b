import { PLAUSIBLE } from './plausibility';

/**
 * A fund's one current price, the one every "current" measure rests on (the 12-month DY, P/VP and
 * market value): the newer of its last traded close and the reference price of the publisher's
 * snapshot. The snapshot states no price of its own: its P/VP times its NAV per share is the price
 * its DY, P/VP and market value were computed with (KNRI11, 22/11/2025: 0,9040 × R$ 163,254 =
 * R$ 147,58; also market value / shares). It is a reference price of the snapshot's date, not a
 * traded close: a question about a day's close still reads the closes (`wh_prices`).
 */
export interface CurrentPrice {
  value: number;
  date: string;
  /** 'close': a traded close (B3 session); 'reference': the snapshot's P/VP × NAV per share. */
  kind: 'close' | 'reference';
}

/** A warehouse row's value. */
type Cell = string | number | boolean | null;

const round2 = (v: number) => Math.round(v * 100) / 100;
const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** The snapshot's reference price (P/VP × NAV per share), dated by the snapshot, when both are published. */
export function referencePrice(snapshot: { ref_date?: unknown; price_book_ratio?: unknown; equity_per_share?: unknown }): CurrentPrice | null {
  const { ref_date: date, price_book_ratio: pvp, equity_per_share: nav } = snapshot;
  if (typeof date !== 'string' || !positive(pvp) || !positive(nav)) return null;
  return { value: round2(pvp * nav), date: date.slice(0, 10), kind: 'reference' };
}

/** The newer of the two; on the same day the traded close; the close when the reference is on another basis (PLAUSIBLE.referenceVsClose). */
export function newestPrice(close: CurrentPrice | null, reference: CurrentPrice | null): CurrentPrice | null {
  if (!close || !reference) return close ?? reference;
  const ratio = reference.value / close.value;
  if (ratio > PLAUSIBLE.referenceVsClose || ratio < 1 / PLAUSIBLE.referenceVsClose) return close;
  return reference.date > close.date ? reference : close;
}

/**
 * The snapshot's valuation at the current price, and that price's date: at a traded close newer than
 * the snapshot, P/VP over the snapshot's NAV per share and market value over the shares its market
 * value implies; else the snapshot's own (its reference price, or no price behind it), of its date.
 */
export function valuationAt(
  snapshot: { ref_date?: Cell; price_book_ratio?: Cell; equity_per_share?: Cell; market_cap_value?: Cell },
  reference: CurrentPrice | null,
  price: CurrentPrice | null,
): { price_book_ratio: Cell; market_cap_value: Cell; valuation_date: Cell } {
  const own = { price_book_ratio: snapshot.price_book_ratio ?? null, market_cap_value: snapshot.market_cap_value ?? null, valuation_date: snapshot.ref_date ?? null };
  // (an older close kept over a reference on another basis leaves the snapshot's own valuation)
  if (!price || !reference || price.kind !== 'close' || price.date <= reference.date || !positive(snapshot.equity_per_share)) return own;
  const cap = positive(snapshot.market_cap_value) ? Math.round((snapshot.market_cap_value / reference.value) * price.value * 100) / 100 : own.market_cap_value;
  return { price_book_ratio: Math.round((price.value / snapshot.equity_per_share) * 10000) / 10000, market_cap_value: cap, valuation_date: price.date };
}
