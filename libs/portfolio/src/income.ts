import { Dec } from '@cota/finance';
import { LedgerEntry } from './ledger';

export interface IncomeMonth {
  ticker: string;
  /** YYYY-MM of the payment date. */
  month: string;
  amount: Dec;
  payments: number;
}

/** Income received (rendimentos; amortizations are capital, not income) per fund and month of payment. */
export function incomeByFundAndMonth(entries: readonly LedgerEntry[], from?: string, to?: string): IncomeMonth[] {
  const out = new Map<string, IncomeMonth>();
  for (const e of entries) {
    if (e.kind !== 'income' || (from && e.date < from) || (to && e.date > to)) continue;
    const month = e.date.slice(0, 7);
    const key = `${e.ticker}|${month}`;
    const row = out.get(key) ?? { ticker: e.ticker, month, amount: new Dec(0), payments: 0 };
    row.amount = row.amount.plus(new Dec(e.amount));
    row.payments += 1;
    out.set(key, row);
  }
  return [...out.values()].sort((a, b) => a.month.localeCompare(b.month) || a.ticker.localeCompare(b.ticker));
}

/** Income received over a period divided by the cost of the position: yield on cost, in percent. Null without cost. */
export function yieldOnCostPct(income: Dec, cost: Dec): Dec | null {
  return cost.gt(0) ? income.div(cost).times(100) : null;
}
