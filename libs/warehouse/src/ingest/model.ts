import { TICKER_RE } from '@cota/text';

/** Normalised facts read from the source folders, before reconciliation. */

export type SourceName = 'araquem' | 'cvm' | 'market16' | 'dashbord' | 'paulo037' | 'opbrreit' | 'b3list';

/** SOURCES.md precedence for the same fact (lower wins). CVM is the official registry, so it follows araquem for registry fields. */
export const PRECEDENCE: Record<SourceName, number> = {
  araquem: 0,
  cvm: 1,
  market16: 2,
  dashbord: 3,
  paulo037: 4,
  opbrreit: 5,
  b3list: 6,
};

export type Row = Record<string, string | number | boolean | null>;

export interface FundFact {
  ticker: string;
  source: SourceName;
  fields: Row;
  /** Segment label as that source writes it (mapped later). */
  segment: string | null;
  /** The date the fields are of, when the source dates them (CVM: the month of the report). */
  as_of?: string;
}

export interface PriceFact {
  ticker: string;
  traded_at: string;
  close_price: number | null;
  adj_close_price: number | null;
  open_price: number | null;
  max_price: number | null;
  min_price: number | null;
  volume: number | null;
  daily_variation_pct: number | null;
  frequency: 'daily' | 'monthly';
  source: string;
}

export interface DividendFact {
  ticker: string;
  traded_until_date: string;
  payment_date: string | null;
  dividend_amt: number;
  source: SourceName;
}

export interface IndexFact {
  index_name: 'IFIX' | 'IBOV' | 'IFIL';
  index_date: string;
  points: number;
  var_pct: number | null;
  source: SourceName;
}

export interface IndicatorFact {
  indicator_name: string;
  indicator_date: string;
  indicator_amt: number;
  unit: string;
  source: SourceName;
}

export interface PropertyFact {
  ticker: string;
  asset_name: string | null;
  asset_class: string | null;
  asset_address: string | null;
  city: string | null;
  state: string | null;
  total_area: number | null;
  units_count: number | null;
  vacancy_ratio: number | null;
  non_compliant_ratio: number | null;
  revenue_share_ratio: number | null;
  assets_status: string | null;
  source: SourceName;
}

/** Everything read from the data folder. */
export interface RawData {
  funds: FundFact[];
  cvmMonthly: Row[];
  prices: PriceFact[];
  dividends: DividendFact[];
  indexes: IndexFact[];
  indicators: IndicatorFact[];
  currencies: Row[];
  macro: Row[];
  snapshots: Row[];
  risk: Row[];
  rankingPositions: Row[];
  revenueSchedule: Row[];
  /** market16's quarterly fundamentals: cash revenue and profit, delinquency (not in the CVM monthly reports). */
  quarterly: Row[];
  properties: PropertyFact[];
  news: Row[];
  legal: Row[];
  yieldHistory: Row[];
  dividendsYields: Row[];
  /** Rows read per file, for the summary. */
  filesRead: Array<{ file: string; rows: number }>;
  skippedTickers: Set<string>;
}

export function emptyRaw(): RawData {
  return {
    funds: [],
    cvmMonthly: [],
    prices: [],
    dividends: [],
    indexes: [],
    indicators: [],
    currencies: [],
    macro: [],
    snapshots: [],
    risk: [],
    rankingPositions: [],
    revenueSchedule: [],
    quarterly: [],
    properties: [],
    news: [],
    legal: [],
    yieldHistory: [],
    dividendsYields: [],
    filesRead: [],
    skippedTickers: new Set(),
  };
}

/** Fund tickers as the contract defines them (AAAA11); others (003H11, YUFI11B) are skipped and counted. */
export function cleanTicker(raw: string | null, raw_: RawData): string | null {
  if (!raw) return null;
  const t = raw.trim().toUpperCase();
  if (TICKER_RE.test(t)) return t;
  raw_.skippedTickers.add(t);
  return null;
}

/** Last calendar day of the month of an ISO date or 'YYYY-MM'. */
export function monthEnd(isoOrMonth: string): string {
  const [y, m] = isoOrMonth.split('-').map(Number);
  const d = new Date(Date.UTC(y, m, 0));
  return d.toISOString().slice(0, 10);
}

export function monthStart(iso: string): string {
  return `${iso.slice(0, 7)}-01`;
}

/** Whole days between two ISO dates (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86400000);
}

/** Formats a CNPJ given as 14 digits (CVM administrator columns) the usual way. */
export function formatCnpj(v: string | null): string | null {
  if (!v) return null;
  const d = v.replace(/\D/g, '');
  if (d.length !== 14) return v;
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
}
