import { ToolGatePolicy } from '@cota/tool-gating';
import { extractFinanceArgs } from './finance-args';
import { extractFund, extractMagic, extractTaxSale, extractTransaction, extractTransactionQuery } from './personal-args';
import { extractEmail, extractReportFilters, extractReportId } from './text-args';
import { extractLedgerPeriod, extractReturnPeriod, extractTrade } from './trade-args';
import { extractAlert, extractAlertPick } from './alert-args';

export * from './numbers';
export * from './finance-args';
export * from './personal-args';
export * from './text-args';
export * from './trade-args';
export * from './alert-args';
export * from './ratio-args';

/** What an extractor knows besides the text: today's date in Brazil and the arguments the call waits for. */
export interface ExtractContext {
  today: string;
  /** Arguments a pending call asked for: a bare "-1000, 300, 400" then reads as the cash flows. */
  expecting: readonly string[];
  /** Arguments of the call being edited ("e a 99%?" after a VaR is its confidence). */
  editing?: readonly string[];
}

type Extractor = (question: string, policy: ToolGatePolicy, ctx: ExtractContext) => Record<string, unknown>;

/**
 * A tool's arguments are read here, once, when the planner reads the turn, with the extractors the
 * tool's contract lists; the gate never sees the text. Each returns only what the text states.
 */
export const EXTRACTORS: Record<ToolGatePolicy['tools'][string]['extractors'][number], Extractor> = {
  report_id: (q) => {
    const id = extractReportId(q);
    return id ? { report_id: id } : {};
  },
  report_filters: (q, p) => ({ ...extractReportFilters(q, p.filters.sections, p.filters.segments) }),
  email: (q) => {
    const e = extractEmail(q);
    return e ? { destinatario: e } : {};
  },
  finance: (q, _p, c) => ({ ...extractFinanceArgs(q, c.expecting, c.editing ?? []) }),
  fund: (q) => ({ ...extractFund(q) }),
  magic: (q) => ({ ...extractMagic(q) }),
  transaction: (q, p, c) => ({ ...extractTransaction(q, p.filters.categories, c.today) }),
  transaction_query: (q, p, c) => ({ ...extractTransactionQuery(q, p.filters.categories, c.today) }),
  tax_sale: (q) => ({ ...extractTaxSale(q) }),
  trade: (q, _p, c) => ({ ...extractTrade(q, c.today) }),
  ledger_period: (q, _p, c) => ({ ...extractLedgerPeriod(q, c.today) }),
  return_period: (q, _p, c) => ({ ...extractReturnPeriod(q, c.today) }),
  alert: (q) => ({ ...extractAlert(q) }),
  alert_pick: (q) => ({ ...extractAlertPick(q) }),
};

/** Runs a contract's extractors; an earlier extractor wins on the same argument. */
export function extractArgs(
  question: string,
  extractors: readonly (keyof typeof EXTRACTORS)[],
  policy: ToolGatePolicy,
  ctx: ExtractContext = { today: new Date().toISOString().slice(0, 10), expecting: [] },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of extractors) {
    for (const [k, v] of Object.entries(EXTRACTORS[name](question, policy, ctx))) if (out[k] === undefined) out[k] = v;
  }
  return out;
}
