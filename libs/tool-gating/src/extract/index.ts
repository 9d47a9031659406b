import { ToolGatePolicy } from '../policy';
import { extractFinanceArgs } from './finance-args';
import { extractEmail, extractReportFilters, extractReportId } from './text-args';

export * from './numbers';
export * from './finance-args';
export * from './text-args';

type Extractor = (question: string, policy: ToolGatePolicy) => Record<string, unknown>;

/**
 * The planner does not read tool arguments: the gate does, with the extractors a tool's contract
 * lists. Each returns only what the text states; nothing is guessed here.
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
  finance: (q) => ({ ...extractFinanceArgs(q) }),
};

/** Runs a contract's extractors; an earlier extractor wins on the same argument. */
export function extractArgs(question: string, extractors: readonly (keyof typeof EXTRACTORS)[], policy: ToolGatePolicy): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of extractors) {
    for (const [k, v] of Object.entries(EXTRACTORS[name](question, policy))) if (out[k] === undefined) out[k] = v;
  }
  return out;
}
