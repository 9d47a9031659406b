import { randomBytes } from 'node:crypto';
import { Column, Row } from '@cota/contracts';

/** One part of a report: a table of rows the narrator (or the text rendering) presents. */
export interface ReportSection {
  id: string;
  title: string;
  columns: Column[];
  rows: Row[];
  /** Dates of the data shown (the warehouse may be older than today). */
  as_of: string | null;
  /** Plain pt-BR remark: why the section is empty, where data is missing. */
  note: string | null;
}

export interface ReportFilters {
  secao?: string;
  segmento?: string;
  tickers?: string[];
}

/** A stored report as tools return it: self-describing, with a ready pt-BR rendering in `text`. */
export interface Report {
  report_id: string;
  kind: 'daily_briefing' | 'filtered' | 'income_tax' | 'alert';
  title: string;
  generated_at: string;
  parent_report_id: string | null;
  filters: ReportFilters | null;
  sections: ReportSection[];
  sources: string[];
  text: string;
}

/** rel_YYYYMMDD_HHMMSS_xxxxxx (UTC): sortable, readable in a conversation, unguessable suffix. */
export function newReportId(now: Date, random: () => string = () => randomBytes(3).toString('hex')): string {
  const iso = now.toISOString();
  return `rel_${iso.slice(0, 10).replace(/-/g, '')}_${iso.slice(11, 19).replace(/:/g, '')}_${random()}`;
}
