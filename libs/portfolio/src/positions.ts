import { Dec } from '@cota/finance';
import { chronological, LedgerEntry, LedgerError } from './ledger';

/** One fund held: shares and what they cost (B3 average price rule). */
export interface Position {
  ticker: string;
  quantity: Dec;
  /** Acquisition cost of the shares held: buys plus fees, less the cost of what was sold, less amortizations. */
  cost: Dec;
  /** cost ÷ quantity; null with no shares. */
  avgPrice: Dec | null;
  firstBuyDate: string | null;
}

/** One sale and its result at the average price of the day (B3 rule). */
export interface Sale {
  date: string;
  ticker: string;
  quantity: Dec;
  price: Dec;
  /** Quantity × price less the sale's fees. */
  proceeds: Dec;
  fees: Dec;
  /** Average price of the shares sold, at the moment of the sale. */
  avgPrice: Dec;
  /** Quantity × average price: the cost that leaves the position. */
  costBasis: Dec;
  /** proceeds − costBasis: a gain (positive) or a loss (negative). */
  result: Dec;
  /** Position of the entry in the input. */
  index: number;
}

export interface Replay {
  positions: Map<string, Position>;
  sales: Sale[];
}

const d = (v: number | string | undefined): Dec => new Dec(v === undefined || v === '' ? 0 : v);

/**
 * Replays a ledger under B3's and the Receita Federal's average price rule: a buy adds its quantity
 * and its cost (quantity × price + fees) and so moves the average; a sale leaves the average as it
 * is and takes out quantity × average; a split or reverse split changes the quantity and keeps the
 * cost (so the average moves inversely); an amortization is a return of capital that lowers the
 * cost. `until` (inclusive) stops the replay at a date (positions on 31/12). Throws LedgerError on a
 * sale or reverse split of more shares than held at that moment.
 */
export function replay(entries: readonly LedgerEntry[], until?: string): Replay {
  const positions = new Map<string, Position>();
  const sales: Sale[] = [];
  for (const e of chronological(entries)) {
    if (until && e.date > until) break;
    const p = positions.get(e.ticker) ?? { ticker: e.ticker, quantity: new Dec(0), cost: new Dec(0), avgPrice: null, firstBuyDate: null };
    const qty = d(e.quantity);
    switch (e.kind) {
      case 'buy': {
        const fees = d(e.fees);
        p.cost = p.cost.plus(qty.times(d(e.price))).plus(fees);
        p.quantity = p.quantity.plus(qty);
        p.firstBuyDate ??= e.date;
        break;
      }
      case 'sell': {
        if (qty.gt(p.quantity)) throw new LedgerError(e.index, `venda de ${qty.toFixed()} cotas de ${e.ticker} em ${e.date} com apenas ${p.quantity.toFixed()} em carteira`);
        const avg = p.cost.div(p.quantity);
        const fees = d(e.fees);
        const costBasis = qty.times(avg);
        const proceeds = qty.times(d(e.price)).minus(fees);
        sales.push({
          date: e.date,
          ticker: e.ticker,
          quantity: qty,
          price: d(e.price),
          proceeds,
          fees,
          avgPrice: avg,
          costBasis,
          result: proceeds.minus(costBasis),
          index: e.index,
        });
        p.quantity = p.quantity.minus(qty);
        p.cost = p.quantity.isZero() ? new Dec(0) : p.cost.minus(costBasis);
        break;
      }
      case 'split':
        p.quantity = p.quantity.plus(qty);
        break;
      case 'reverse_split':
        if (qty.gt(p.quantity)) throw new LedgerError(e.index, `grupamento de ${qty.toFixed()} cotas de ${e.ticker} em ${e.date} com apenas ${p.quantity.toFixed()} em carteira`);
        p.quantity = p.quantity.minus(qty);
        break;
      case 'amortization':
        // A return of capital lowers the cost of the shares held, never below zero.
        p.cost = Dec.max(0, p.cost.minus(d(e.amount)));
        break;
      case 'income':
        break;
    }
    p.avgPrice = p.quantity.gt(0) ? p.cost.div(p.quantity) : null;
    if (p.quantity.isZero()) p.firstBuyDate = null;
    positions.set(e.ticker, p);
  }
  return { positions, sales };
}

/** Positions still held (quantity > 0), by ticker. */
export function openPositions(r: Replay): Position[] {
  return [...r.positions.values()].filter((p) => p.quantity.gt(0)).sort((a, b) => a.ticker.localeCompare(b.ticker));
}
