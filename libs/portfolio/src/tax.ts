import { Dec } from '@cota/finance';
import { isBusinessDay } from '@cota/text';
import { Sale } from './positions';

/** Capital gains of individuals on FII shares: 20% (Lei 8.668/1993, art. 18, II). */
export const FII_TAX_RATE = new Dec('0.20');
/** DARF revenue code for gains on variable income (renda variável) by individuals. */
export const DARF_CODE = '6015';
/** A DARF below R$ 10,00 is not paid: the tax is added to the next months' (Lei 9.430/1996, art. 68). */
export const DARF_MINIMUM = new Dec('10');

/** Last business day of the month after `month` (YYYY-MM): when that month's DARF is due. */
export function darfDueDateFor(month: string): string {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m + 1, 0));
  let iso = last.toISOString().slice(0, 10);
  while (!isBusinessDay(iso)) {
    last.setUTCDate(last.getUTCDate() - 1);
    iso = last.toISOString().slice(0, 10);
  }
  return iso;
}

/** One month of FII sales as the tax return's "Renda variável – operações de FII" table asks for it. */
export interface MonthlyTax {
  /** YYYY-MM. */
  month: string;
  sales: number;
  proceeds: Dec;
  /** Net result of the month's sales: gains less losses. */
  result: Dec;
  /** Loss carried in from earlier months and used or still pending. */
  lossCarriedIn: Dec;
  /** Result after offsetting carried losses (0 when a loss). */
  taxableBase: Dec;
  /** Loss to carry to later months. */
  lossCarriedOut: Dec;
  /** 20% of the taxable base (to the cent). */
  taxDue: Dec;
  /** Tax below the DARF minimum from earlier months, added to this one. */
  taxCarriedIn: Dec;
  /** What the DARF of this month should pay (0 when under R$ 10, then carried). */
  darfAmount: Dec;
  darfCode: string;
  darfDueDate: string;
}

/**
 * The monthly result of FII sales: each month's sales netted, losses carried forward against later
 * FII gains (never against other assets), 20% of what remains, and the DARF (code 6015, due the last
 * business day of the next month; under R$ 10,00 carried to the next month's DARF).
 */
export function monthlyTax(sales: readonly Sale[], openingLoss: Dec = new Dec(0)): MonthlyTax[] {
  const byMonth = new Map<string, Sale[]>();
  for (const s of sales) byMonth.set(s.date.slice(0, 7), [...(byMonth.get(s.date.slice(0, 7)) ?? []), s]);
  let loss = openingLoss;
  let pendingTax = new Dec(0);
  const out: MonthlyTax[] = [];
  for (const month of [...byMonth.keys()].sort()) {
    const list = byMonth.get(month)!;
    const result = list.reduce((a, s) => a.plus(s.result), new Dec(0));
    const proceeds = list.reduce((a, s) => a.plus(s.proceeds), new Dec(0));
    const lossCarriedIn = loss;
    let taxableBase = new Dec(0);
    if (result.gt(0)) {
      const used = Dec.min(loss, result);
      taxableBase = result.minus(used);
      loss = loss.minus(used);
    } else loss = loss.plus(result.abs());
    const taxDue = taxableBase.times(FII_TAX_RATE).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
    const taxCarriedIn = pendingTax;
    const total = taxDue.plus(pendingTax);
    const darfAmount = total.gte(DARF_MINIMUM) ? total : new Dec(0);
    pendingTax = total.gte(DARF_MINIMUM) ? new Dec(0) : total;
    out.push({
      month,
      sales: list.length,
      proceeds,
      result,
      lossCarriedIn,
      taxableBase,
      lossCarriedOut: loss,
      taxDue,
      taxCarriedIn,
      darfAmount,
      darfCode: DARF_CODE,
      darfDueDate: darfDueDateFor(month),
    });
  }
  return out;
}
