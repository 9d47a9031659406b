/**
 * A client's ledger as the computations read it: what happened to their FII shares, one entry per
 * event, in the order it happened. Quantities are shares; money is in reais as decimal strings or
 * numbers (never floats in the arithmetic: every sum goes through Decimal).
 */
export type LedgerKind = 'buy' | 'sell' | 'income' | 'amortization' | 'split' | 'reverse_split';

export const LEDGER_KINDS: readonly LedgerKind[] = ['buy', 'sell', 'income', 'amortization', 'split', 'reverse_split'];

export interface LedgerEntry {
  kind: LedgerKind;
  /** ISO date: the trade date, the payment date of income, the date of a split. */
  date: string;
  ticker: string;
  /** Shares traded; for a split the shares added, for a reverse split the shares removed; for income the shares that earned it (may be 0 when unknown). */
  quantity: number | string;
  /** Unit price of a trade, or income per share (may be 0 when unknown). */
  price: number | string;
  /** Total value: of a trade (quantity × price as the statement says it), of income received. */
  amount: number | string;
  /** Brokerage and exchange fees of a trade (0 when the statement has none). */
  fees?: number | string;
}

/** An entry that cannot be applied (a sale of more shares than held), with the entry's position in the input. */
export class LedgerError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** Trades, splits and income in the order they took effect: by date, then as given (a stable sort). */
export function chronological<T extends Pick<LedgerEntry, 'date'>>(entries: readonly T[]): Array<T & { index: number }> {
  return entries.map((e, index) => ({ ...e, index })).sort((a, b) => a.date.localeCompare(b.date) || a.index - b.index);
}
