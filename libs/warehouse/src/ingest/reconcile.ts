import { computeRankings } from '../derived/rankings';
import { computeRisk, onOrBefore } from '../derived/risk';
import { addMonths as addMonthsIso, computeYields, trailingDistributions, TrailingDistributions } from '../derived/yields';
import { CurrentPrice, newestPrice, referencePrice, valuationAt } from '../derived/current-price';
import { adjustPerShare, CorporateAction, detectCorporateActions } from '../derived/corporate-actions';
import { checkSnapshots, dropSpikes, SPIKE_CHECKED_SERIES, summariseFlags } from '../derived/plausibility';
import { cdiMonthlyReturns, comparePerformance, indexMonthlyReturns, portfolioMonthlyReturns } from '../derived/client-performance';
import { DEMO_CLIENTS, demoNegociacaoTable, DemoTradeRow } from '../derived/demo-clients';
import { entryIds, parseStatement } from '@cota/ledger';
import { IngestError } from './csv';
import { daysBetween, DividendFact, IndexFact, PRECEDENCE, PriceFact, RawData, Row, SourceName } from './model';
import { accentVocabulary, repairStrippedAccents } from './repair-names';
import { chooseSegment, mapSegment, typeOfSegment } from './segments';

/** A disagreement between two sources of the same series, reported in the ingest summary. */
export interface Disagreement {
  series: string;
  sources: [string, string];
  overlap: number;
  differing: number;
  /** Of the differing dates, how many match the other source's previous session (a one-day shift). */
  shifted_one_session: number;
  examples: string[];
}

export interface Reconciled {
  tables: Record<string, Row[]>;
  disagreements: Disagreement[];
  notes: string[];
}

const prec = (s: string) => PRECEDENCE[s.split(',')[0] as SourceName] ?? 99;

/** Merges the registry facts of every source per ticker: first non-null field in precedence order. */
function reconcileFunds(raw: RawData): { funds: Row[]; segmentMap: Row[] } {
  const byTicker = new Map<string, typeof raw.funds>();
  for (const f of raw.funds) {
    const list = byTicker.get(f.ticker) ?? [];
    list.push(f);
    byTicker.set(f.ticker, list);
  }
  const columns = [
    'fii_cnpj',
    'display_name',
    'b3_name',
    'isin',
    'classification',
    'sub_sector',
    'management_type',
    'target_market',
    'is_exclusive',
    'mandate',
    'ipo_date',
    'website_url',
    'admin_name',
    'admin_cnpj',
    'manager_name',
    'custodian_name',
    'ifil_weight_pct',
    'ifix_weight_pct',
    'shares_count',
    'shareholders_count',
    'vacancy_ratio',
  ];
  const funds: Row[] = [];
  // Names from every source teach the accents araquem's export dropped.
  const vocab = accentVocabulary(raw.funds.flatMap((f) => [f.fields.display_name, f.fields.b3_name] as Array<string | null | undefined>));
  for (const [ticker, facts] of [...byTicker].sort(([a], [b]) => a.localeCompare(b))) {
    const ordered = [...facts].sort((a, b) => PRECEDENCE[a.source] - PRECEDENCE[b.source]);
    const row: Row = { ticker };
    for (const c of columns) row[c] = ordered.map((f) => f.fields[c]).find((v) => v !== undefined && v !== null) ?? null;
    // The head count is a dated fact of one report: its own source and month travel with it.
    const counted = ordered.find((f) => f.fields.shareholders_count !== undefined && f.fields.shareholders_count !== null);
    row.shareholders_source = counted?.source ?? null;
    row.shareholders_as_of = counted?.as_of ?? null;
    const vacancy = ordered.find((f) => f.fields.vacancy_ratio !== undefined && f.fields.vacancy_ratio !== null);
    row.vacancy_source = vacancy?.source ?? null;
    row.vacancy_as_of = vacancy?.as_of ?? null;
    for (const c of ['display_name', 'b3_name']) if (typeof row[c] === 'string') row[c] = repairStrippedAccents(row[c] as string, vocab);
    const seg = chooseSegment(ordered.map((f) => ({ source: f.source, label: f.segment })));
    row.sector = seg?.segment ?? null;
    row.sector_source = seg?.source ?? null;
    // Only araquem registers a type: for the other funds the segment says it ("fundos de papel" must find them too).
    row.classification ??= typeOfSegment(row.sector as string | null);
    row.source = ordered[0].source;
    funds.push(row);
  }
  const seen = new Map<string, Row>();
  for (const f of raw.funds) {
    if (!f.segment) continue;
    const m = mapSegment(f.segment);
    const key = `${f.source}|${f.segment}`;
    if (!seen.has(key)) seen.set(key, { source: f.source, raw_label: f.segment, segment: m?.segment ?? 'Não mapeado', is_generic: m?.generic ?? true });
  }
  return { funds, segmentMap: [...seen.values()] };
}

/**
 * Prices: same (ticker, day) -> the higher-precedence source wins. Monthly closes (paulo037) go on
 * the month's last session of a daily source when there is one: they fill its missing unadjusted
 * close (market16 publishes adjusted closes only) or are dropped if that session already has one.
 */
function reconcilePrices(raw: RawData): Row[] {
  const daily = new Map<string, PriceFact>();
  const lastSession = new Map<string, string>(); // ticker|YYYY-MM -> last daily date
  for (const p of [...raw.prices.filter((x) => x.frequency === 'daily')].sort((a, b) => prec(a.source) - prec(b.source))) {
    const key = `${p.ticker}|${p.traded_at}`;
    if (daily.has(key)) continue;
    daily.set(key, { ...p });
    const mk = `${p.ticker}|${p.traded_at.slice(0, 7)}`;
    if ((lastSession.get(mk) ?? '') < p.traded_at) lastSession.set(mk, p.traded_at);
  }
  for (const p of raw.prices.filter((x) => x.frequency === 'monthly')) {
    const session = lastSession.get(`${p.ticker}|${p.traded_at.slice(0, 7)}`);
    if (session) {
      const d = daily.get(`${p.ticker}|${session}`)!;
      if (d.close_price === null) {
        d.close_price = p.close_price;
        d.source = `${d.source},${p.source}`;
      }
      continue;
    }
    daily.set(`${p.ticker}|${p.traded_at}`, { ...p });
  }
  return [...daily.values()].map((p) => ({ ...p }) as unknown as Row);
}

/**
 * Dividend precedence. market16 publishes dividends *adjusted* and dated by ex-date (XPML11's
 * March 2024 payment of R$ 0,92 is 0,8999 there; HGLG11's R$ 1,10 is 1,080226), so the amount
 * as paid comes from dashbord when it has the payment: the one place where SOURCES.md's generic
 * order (araquem, market16, dashbord, paulo037) is not the right one for a fact.
 */
const DIVIDEND_PRECEDENCE: Record<SourceName, number> = { ...PRECEDENCE, dashbord: PRECEDENCE.market16 - 0.5 };

/**
 * Dividends: a lower-precedence dividend is dropped when a higher-precedence source has one for the
 * same ticker within 15 days (sources date the same payment differently: record date, ex-date, month end).
 * A monthly source (paulo037: one amount per month, dated here at the month's end) may name the
 * payment whose record date falls in the next weeks: XPIN11's "fevereiro de 2022" (R$ 0,61) is
 * dashbord's record date 18/03/2022, and counting both doubled what a client received. Its window
 * reaches 25 days forward.
 */
const MONTHLY_DIVIDEND_SOURCES = new Set<SourceName>(['paulo037']);

/**
 * The canonical record of one distribution: the chosen source's data-com, payment and amount, the
 * ex-date where a source gives it, and every source that reported the same distribution, split into
 * those that agree on the amount (within 1%) and those that do not.
 */
export interface CanonicalDividend extends DividendFact {
  ex_date: string | null;
  /** Sources that report this distribution with the same amount, the chosen one first. */
  agreeing_sources: string;
  /** Sources that report it with another amount ("market16 1.080226"), or null. */
  disagreeing_sources: string | null;
}

/** Two sources' amounts for one distribution agree within this relative tolerance (rounding, not adjustment). */
const AMOUNT_TOLERANCE = 0.01;

/**
 * One record per distribution, counted once whatever dates the sources give it: a lower-precedence
 * report within the window of a kept one is the same distribution (its source is recorded on the
 * kept record, agreeing or not); a report no better source has becomes a record of its own.
 */
export function reconcileDividends(input: DividendFact[]): CanonicalDividend[] {
  const dividends = recordDatesForExDates(input);
  const kept = new Map<string, CanonicalDividend[]>();
  const rank = (s: SourceName) => DIVIDEND_PRECEDENCE[s];
  for (const d of [...dividends].sort((a, b) => rank(a.source) - rank(b.source) || a.traded_until_date.localeCompare(b.traded_until_date))) {
    const list = kept.get(d.ticker) ?? [];
    const ahead = MONTHLY_DIVIDEND_SOURCES.has(d.source) ? 25 : 15;
    const same =
      list.find((k) => k.traded_until_date === d.traded_until_date) ??
      list
        .filter((k) => k.source !== d.source)
        .map((k) => ({ k, gap: daysBetween(d.traded_until_date, k.traded_until_date) }))
        .filter(({ gap }) => gap >= -15 && gap <= ahead)
        .sort((a, b) => Math.abs(a.gap) - Math.abs(b.gap))[0]?.k;
    const exDate = (d as DividendFact & { ex_date?: string }).ex_date ?? null;
    if (same) {
      if (same.source !== d.source) recordSecondSource(same, d);
      same.ex_date ??= exDate;
      continue;
    }
    list.push({ ...d, ex_date: exDate, agreeing_sources: d.source, disagreeing_sources: null });
    kept.set(d.ticker, list);
  }
  return [...kept.values()].flat();
}

function recordSecondSource(kept: CanonicalDividend, other: DividendFact): void {
  const agrees = Math.abs(other.dividend_amt - kept.dividend_amt) <= AMOUNT_TOLERANCE * Math.abs(kept.dividend_amt);
  if (agrees) {
    if (!kept.agreeing_sources.split(',').includes(other.source)) kept.agreeing_sources += `,${other.source}`;
    return;
  }
  const note = `${other.source} ${other.dividend_amt}`;
  kept.disagreeing_sources = kept.disagreeing_sources ? `${kept.disagreeing_sources}; ${note}` : note;
}

/**
 * The reconciliation report of the distributions: per pair (chosen source, other source), how many
 * distributions both report, how many with another amount, how many dated on another day.
 */
export function dividendDisagreements(records: CanonicalDividend[], input: DividendFact[]): Disagreement[] {
  const byTicker = new Map<string, DividendFact[]>();
  for (const d of recordDatesForExDates(input)) byTicker.set(d.ticker, [...(byTicker.get(d.ticker) ?? []), d]);
  const pairs = new Map<string, Disagreement>();
  for (const r of records) {
    const others = [...r.agreeing_sources.split(',').slice(1), ...(r.disagreeing_sources ?? '').split('; ').map((x) => x.split(' ')[0])].filter(Boolean);
    for (const o of new Set(others)) {
      const key = `${r.source}|${o}`;
      const dis = pairs.get(key) ?? { series: 'dividends per share', sources: [r.source, o] as [string, string], overlap: 0, differing: 0, shifted_one_session: 0, examples: [] };
      dis.overlap++;
      const theirs = (byTicker.get(r.ticker) ?? [])
        .filter((x) => x.source === o)
        .sort((a, b) => Math.abs(daysBetween(a.traded_until_date, r.traded_until_date)) - Math.abs(daysBetween(b.traded_until_date, r.traded_until_date)))[0];
      const amountDiffers = (r.disagreeing_sources ?? '').split('; ').some((x) => x.startsWith(`${o} `));
      const dateDiffers = !!theirs && theirs.traded_until_date !== r.traded_until_date;
      if (amountDiffers || dateDiffers) {
        dis.differing++;
        if (dis.examples.length < 3)
          dis.examples.push(`${r.ticker} ${r.traded_until_date}: ${r.source} ${r.dividend_amt} vs ${o} ${theirs?.dividend_amt ?? '?'} on ${theirs?.traded_until_date ?? '?'}`);
      }
      pairs.set(key, dis);
    }
  }
  return [...pairs.values()];
}

/** Sources whose dividend date is the ex-date (first session without the right), not the record date. */
const EX_DATE_SOURCES = new Set<SourceName>(['market16']);

/**
 * market16 dates a dividend on its ex-date (HGLG11's December 2023 dividend: 2024-01-02, record
 * date 2023-12-29), which moves year-end dividends into the next year and makes "em 2024" count 13
 * payments. Its dates become record dates: the record date another source gives for the same
 * payment (up to 15 days before), else the previous weekday (holidays aside, the record date).
 */
export function recordDatesForExDates(dividends: DividendFact[]): Array<DividendFact & { ex_date?: string }> {
  const recordDates = new Map<string, string[]>();
  for (const d of dividends) {
    if (EX_DATE_SOURCES.has(d.source)) continue;
    const list = recordDates.get(d.ticker) ?? [];
    list.push(d.traded_until_date);
    recordDates.set(d.ticker, list);
  }
  return dividends.map((d) => {
    if (!EX_DATE_SOURCES.has(d.source)) return d;
    const candidates = (recordDates.get(d.ticker) ?? [])
      .map((date) => ({ date, gap: daysBetween(date, d.traded_until_date) }))
      .filter((c) => c.gap >= 1 && c.gap <= 15)
      .sort((a, b) => a.gap - b.gap);
    return { ...d, ex_date: d.traded_until_date, traded_until_date: candidates[0]?.date ?? previousWeekday(d.traded_until_date) };
  });
}

function previousWeekday(iso: string): string {
  const t = new Date(`${iso}T00:00:00Z`);
  do t.setUTCDate(t.getUTCDate() - 1);
  while (t.getUTCDay() === 0 || t.getUTCDay() === 6);
  return t.toISOString().slice(0, 10);
}

/** Compares two series on common dates (relative tolerance) and detects a one-session shift. */
export function compareSeries(series: string, a: [string, Map<string, number>], b: [string, Map<string, number>], tolerance = 0.001): Disagreement {
  const datesB = [...b[1].keys()].sort();
  const prevB = new Map<string, string>();
  datesB.forEach((d, i) => i > 0 && prevB.set(d, datesB[i - 1]));
  let overlap = 0;
  let differing = 0;
  let shifted = 0;
  const examples: string[] = [];
  for (const [d, va] of [...a[1]].sort(([x], [y]) => x.localeCompare(y))) {
    const vb = b[1].get(d);
    if (vb === undefined) continue;
    overlap++;
    if (Math.abs(va - vb) / Math.abs(vb) <= tolerance) continue;
    differing++;
    const p = prevB.get(d);
    const vPrev = p ? b[1].get(p) : undefined;
    if (vPrev !== undefined && Math.abs(va - vPrev) / Math.abs(vPrev) <= tolerance) shifted++;
    if (examples.length < 3) examples.push(`${d}: ${a[0]} ${va} vs ${b[0]} ${vb}`);
  }
  return { series, sources: [a[0], b[0]], overlap, differing, shifted_one_session: shifted, examples };
}

/**
 * One value per (index, date): opbrreit (B3) wins for IFIX, then SOURCES.md precedence. The winning
 * source's series is taken whole: a lower source only extends it before its first or after its
 * last date, never inside it (araquem's IFIX has shifted dates and rows on days without a session,
 * which would otherwise slip in between B3's closes).
 */
function reconcileIndexes(raw: RawData, disagreements: Disagreement[]): Row[] {
  const rank = (f: IndexFact) => (f.index_name === 'IFIX' && f.source === 'opbrreit' ? -1 : PRECEDENCE[f.source]);
  const ranges = new Map<string, { rank: number; from: string; to: string }>();
  for (const f of raw.indexes) {
    const r = ranges.get(f.index_name);
    if (!r || rank(f) < r.rank) ranges.set(f.index_name, { rank: rank(f), from: f.index_date, to: f.index_date });
    else if (rank(f) === r.rank) {
      if (f.index_date < r.from) r.from = f.index_date;
      if (f.index_date > r.to) r.to = f.index_date;
    }
  }
  const chosen = new Map<string, IndexFact>();
  for (const f of [...raw.indexes].sort((a, b) => rank(a) - rank(b))) {
    const key = `${f.index_name}|${f.index_date}`;
    const best = ranges.get(f.index_name)!;
    if (rank(f) > best.rank && f.index_date >= best.from && f.index_date <= best.to) continue;
    if (!chosen.has(key)) chosen.set(key, f);
  }
  const ser = (name: string, source: string) =>
    new Map(raw.indexes.filter((f) => f.index_name === name && f.source === source).map((f) => [f.index_date, f.points] as [string, number]));
  disagreements.push(compareSeries('IFIX', ['araquem', ser('IFIX', 'araquem')], ['opbrreit', ser('IFIX', 'opbrreit')]));
  disagreements.push(compareSeries('IFIX', ['market16', ser('IFIX', 'market16')], ['opbrreit', ser('IFIX', 'opbrreit')]));

  // Daily variation: kept when the chosen source gives it, else computed from the previous session.
  const rows: Row[] = [];
  for (const name of ['IBOV', 'IFIX', 'IFIL']) {
    const list = [...chosen.values()].filter((f) => f.index_name === name).sort((a, b) => a.index_date.localeCompare(b.index_date));
    list.forEach((f, i) => {
      const prev = list[i - 1];
      const varPct = f.var_pct ?? (prev ? Math.round((f.points / prev.points - 1) * 10000) / 100 : null);
      rows.push({ index_name: name, index_date: f.index_date, points: f.points, var_pct: varPct, source: f.source });
    });
  }
  return rows;
}

function reconcileIndicators(raw: RawData, disagreements: Disagreement[]): Row[] {
  const chosen = new Map<string, Row>();
  for (const f of [...raw.indicators].sort((a, b) => PRECEDENCE[a.source] - PRECEDENCE[b.source])) {
    const key = `${f.indicator_name}|${f.indicator_date}`;
    if (!chosen.has(key)) chosen.set(key, { ...f });
  }
  const ser = (name: string, source: string) =>
    new Map(raw.indicators.filter((f) => f.indicator_name === name && f.source === source).map((f) => [f.indicator_date, f.indicator_amt] as [string, number]));
  disagreements.push(compareSeries('SELIC % a.a.', ['araquem', ser('SELIC', 'araquem')], ['opbrreit', ser('SELIC', 'opbrreit')], 0.005));
  disagreements.push(compareSeries('IPCA % a.m.', ['market16', ser('IPCA', 'market16')], ['paulo037', ser('IPCA', 'paulo037')], 0.005));
  disagreements.push(compareSeries('IGP-M % a.m.', ['market16', ser('IGP-M', 'market16')], ['paulo037', ser('IGP-M', 'paulo037')], 0.005));
  return [...chosen.values()];
}

/** Last value per ticker and month ('YYYY-MM-01') of a price column, from daily/monthly rows. */
function monthEndPrices(prices: Row[], column: 'close_price' | 'adj_close_price'): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, [string, number]>>();
  for (const p of prices) {
    const v = p[column] as number | null;
    if (v === null || !(v > 0)) continue;
    const t = p.ticker as string;
    const d = p.traded_at as string;
    const m = `${d.slice(0, 7)}-01`;
    const per = out.get(t) ?? new Map<string, [string, number]>();
    const cur = per.get(m);
    if (!cur || cur[0] < d) per.set(m, [d, v]);
    out.set(t, per);
  }
  return new Map([...out].map(([t, per]) => [t, new Map([...per].map(([m, [, v]]) => [m, v]))]));
}

/** araquem's month closes (`month_price_ref`) added to the closes, winning for the months they cover. */
function withPublishedMonthCloses(closes: Map<string, Map<string, number>>, published: Row[]): Map<string, Map<string, number>> {
  for (const r of published) {
    const price = r.month_price_ref as number | null;
    if (!(price && price > 0) || !r.ref_month) continue;
    const t = r.ticker as string;
    const per = closes.get(t) ?? new Map<string, number>();
    per.set(`${String(r.ref_month).slice(0, 7)}-01`, price);
    closes.set(t, per);
  }
  return closes;
}

/** NAV per share per ticker and month: the CVM reports and the snapshot's figure at its month. */
function bookValuesPerShare(raw: RawData, known: Set<string>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const put = (ticker: unknown, date: unknown, nav: unknown) => {
    if (typeof ticker !== 'string' || !known.has(ticker) || !date || !(typeof nav === 'number' && nav > 0)) return;
    const per = out.get(ticker) ?? new Map<string, number>();
    per.set(`${String(date).slice(0, 7)}-01`, nav);
    out.set(ticker, per);
  };
  for (const m of raw.cvmMonthly) put(m.ticker, m.ref_date, m.equity_per_share);
  for (const s of raw.snapshots) put(s.ticker, s.ref_date, s.equity_per_share);
  return out;
}

/**
 * A fund's one 12-month DY, shown by the overview, rankings, comparisons and portfolio alike: the
 * distributions with data-com in the 12 whole months ending with the newest one (the same the
 * dividend answer lists for "últimos 12 meses") over the fund's one current price (`newestPrice`:
 * its last traded close or the snapshot's reference price, whichever is newer), the same price its
 * P/VP and market value rest on. The source's own published DY is kept as `published_dy_pct`;
 * without distributions or a price, it stays the DY.
 */
export function withTrailingDy(s: Row, trailing: TrailingDistributions | undefined, close: CurrentPrice | null): Row {
  const reference = s.source === 'araquem' ? referencePrice(s) : null;
  const price = newestPrice(close, reference);
  const current = {
    ...s,
    ...valuationAt(s, reference, price),
    price_amt: price?.value ?? null,
    price_date: price?.date ?? null,
    price_kind: price?.kind ?? null,
    published_dy_pct: s.dy_pct ?? null,
  };
  // Distributions that stop a year before the snapshot's or the price's date are no DY of that date (MGCR11:
  // paulo037's 2022 payments against araquem's 22/11/2025 snapshot of a fund that no longer pays): the published one stays.
  const yearBefore = (date: unknown) => (typeof date === 'string' ? addMonthsIso(`${date.slice(0, 7)}-01`, -12) : '');
  const stale = !trailing || !price || trailing.to < yearBefore(s.ref_date) || trailing.to < yearBefore(price.date);
  if (stale)
    return {
      ...current,
      dy_from: null,
      dy_to: s.dy_pct == null ? null : s.ref_date,
      dy_payments: null,
      dy_price: null,
      dy_price_date: null,
      dy_price_kind: null,
      dy_source: s.dy_pct == null ? null : s.source,
    };
  return {
    ...current,
    dy_pct: Math.round((trailing.total / price.value) * 10000) / 100,
    sum_anual_dy_amt: trailing.total,
    dy_from: trailing.from,
    dy_to: trailing.to,
    dy_payments: trailing.payments,
    dy_price: price.value,
    dy_price_date: price.date,
    dy_price_kind: price.kind,
    // A reference price is the publisher's: the DY rests on its snapshot as well as on the distributions.
    dy_source: price.kind === 'reference' ? `derived,${s.source}` : 'derived',
  };
}

/** Each ticker's newest traded close, on the per-share scale of its newest corporate action. */
export function latestCloses(prices: Row[], actions: CorporateAction[]): Map<string, CurrentPrice> {
  const out = new Map<string, CurrentPrice>();
  for (const p of prices) {
    const close = p.close_price as number | null;
    if (!(close !== null && close > 0)) continue;
    const cur = out.get(p.ticker as string);
    if (!cur || cur.date < (p.traded_at as string)) out.set(p.ticker as string, { value: close, date: p.traded_at as string, kind: 'close' });
  }
  for (const a of actions) {
    const c = out.get(a.ticker);
    if (c && `${c.date.slice(0, 7)}-01` < a.prices_from) out.set(a.ticker, { ...c, value: Math.round((c.value / a.factor) * 10000) / 10000 });
  }
  return out;
}

/**
 * P/VP and market value at past months, from what is loaded: the month's last traded close (B3)
 * over the NAV per share of the same month's CVM report, and that close times the report's shares.
 * Both dates stay on the row (the close's day, the report's month).
 */
export function valuationHistory(prices: Row[], cvmMonthly: Row[], known: Set<string>): Row[] {
  const reports = new Map<string, Row>();
  for (const m of cvmMonthly) {
    const t = m.ticker as string | null;
    if (!t || !known.has(t) || !((m.equity_per_share as number | null) && (m.equity_per_share as number) > 0)) continue;
    reports.set(`${t}|${String(m.ref_date).slice(0, 7)}`, m);
  }
  const lastClose = new Map<string, Row>();
  for (const p of prices) {
    if (!((p.close_price as number | null) && (p.close_price as number) > 0)) continue;
    const key = `${p.ticker}|${String(p.traded_at).slice(0, 7)}`;
    if (!reports.has(key)) continue;
    const cur = lastClose.get(key);
    if (!cur || (cur.traded_at as string) < (p.traded_at as string)) lastClose.set(key, p);
  }
  const rows: Row[] = [];
  for (const [key, p] of [...lastClose].sort(([a], [b]) => a.localeCompare(b))) {
    const m = reports.get(key)!;
    const close = p.close_price as number;
    const nav = m.equity_per_share as number;
    const shares = (m.shares_count as number | null) ?? null;
    rows.push({
      ticker: p.ticker,
      ref_date: p.traded_at,
      close_price: close,
      nav_ref_month: `${key.slice(-7)}-01`,
      equity_per_share: nav,
      price_book_ratio: Math.round((close / nav) * 10000) / 10000,
      shares_count: shares,
      market_cap_value: shares ? Math.round(close * shares * 100) / 100 : null,
      // Its own source id: the answer names what the ratio rests on (B3 close, CVM report of the month).
      source: 'derived_valuation',
    });
  }
  return rows;
}

/** Each source's newest dated fact: the date its undated facts (registry, properties) stand for. */
type Dated = [source: unknown, date: unknown];
function sourceDates(dated: Dated[]): Row[] {
  const newest = new Map<string, string>();
  for (const [source, date] of dated) {
    if (typeof source !== 'string' || typeof date !== 'string' || source.includes(',')) continue;
    if (date > (newest.get(source) ?? '')) newest.set(source, date.slice(0, 10));
  }
  return [...newest].sort(([a], [b]) => a.localeCompare(b)).map(([source, as_of_date]) => ({ source, as_of_date, basis: 'newest dated row of the source' }));
}

function dedupe(rows: Row[], key: (r: Row) => string): Row[] {
  const seen = new Map<string, Row>();
  for (const r of rows) if (!seen.has(key(r))) seen.set(key(r), r);
  return [...seen.values()];
}

const adjustDividends = (dividends: DividendFact[], actions: CorporateAction[]) =>
  adjustPerShare(
    dividends,
    actions,
    (d) => d.ticker,
    (d) => d.traded_until_date,
    (d, f) => ({ ...d, dividend_amt: d.dividend_amt / f }),
  );

/** Monthly closes before an event on the scale after it. */
function adjustCloses(closes: Map<string, Map<string, number>>, actions: CorporateAction[]): Map<string, Map<string, number>> {
  const out = new Map(closes);
  for (const ticker of new Set(actions.map((a) => a.ticker))) {
    const months = closes.get(ticker);
    if (!months) continue;
    // A month's close is the scale of its last session: before the event when the month comes before the first new-scale close.
    const events = actions.filter((a) => a.ticker === ticker);
    const scale = (month: string) => events.filter((e) => month < e.prices_from).reduce((acc, e) => acc * e.factor, 1);
    out.set(ticker, new Map([...months].map(([month, close]) => [month, close / scale(month)])));
  }
  return out;
}

/** Turns the raw facts of every folder into the rows of every warehouse table. */
export function reconcile(raw: RawData): Reconciled {
  const disagreements: Disagreement[] = [];
  const notes: string[] = [];
  const { funds, segmentMap } = reconcileFunds(raw);
  const known = new Set(funds.map((f) => f.ticker as string));
  const prices = reconcilePrices(raw).filter((p) => known.has(p.ticker as string));
  const dividendFacts = raw.dividends.filter((d) => known.has(d.ticker));
  const dividends = reconcileDividends(dividendFacts);
  disagreements.push(...dividendDisagreements(dividends, dividendFacts));

  // Yields: computed once, by the project's one definition (docs/METRICS.md), for every ticker-month.
  // araquem's fiis_dividends_yields repeats its *current* 12-month figures (DY, sum, last dividend)
  // on every month's row, so only its month close is a fact of that month: it joins the closes (and
  // wins for its months, by precedence); its 12-month columns are never read as a month's value.
  const closes = withPublishedMonthCloses(monthEndPrices(prices, 'close_price'), raw.dividendsYields);
  // Splits and inplits change the per-share scale: yields are computed on one scale across them.
  const actions = detectCorporateActions(dividends, closes, bookValuesPerShare(raw, known));
  for (const a of actions) notes.push(`corporate action: ${a.ticker} ${a.kind} ×${a.factor >= 1 ? a.factor : `1/${Math.round(1 / a.factor)}`} on ${a.event_date} (${a.evidence})`);
  const { history, yields } = computeYields(adjustDividends(dividends, actions), adjustCloses(closes, actions));
  const yieldHistory = dedupe([...raw.yieldHistory, ...history.map((h) => ({ ...h, source: 'derived' }))], (r) => `${r.ticker}|${r.ref_month}`);
  const derivedYields: Row[] = yields.map((y) => ({ ...y, source: 'derived' }));

  // Indexes and indicators.
  const indexes = reconcileIndexes(raw, disagreements);
  const indicators = reconcileIndicators(raw, disagreements);
  const ifixSeries = indexes.filter((r) => r.index_name === 'IFIX').map((r) => [r.index_date, r.points] as [string, number]);
  const ifix = new Map(ifixSeries);
  const cdi = indicators
    .filter((r) => r.indicator_name === 'CDI')
    .map((r) => [r.indicator_date, r.indicator_amt] as [string, number])
    .sort(([a], [b]) => a.localeCompare(b));

  // Risk: araquem's rows plus the project's own metrics for every fund with a daily adjusted series.
  const risk: Row[] = [...raw.risk];
  const adjByTicker = new Map<string, Array<[string, number]>>();
  for (const p of prices) {
    if (p.frequency !== 'daily' || p.adj_close_price === null) continue;
    const t = p.ticker as string;
    const list = adjByTicker.get(t) ?? [];
    list.push([p.traded_at as string, p.adj_close_price as number]);
    adjByTicker.set(t, list);
  }
  for (const [ticker, series] of [...adjByTicker].sort(([a], [b]) => a.localeCompare(b))) {
    series.sort(([a], [b]) => a.localeCompare(b));
    const res = computeRisk(series, cdi, ifix);
    if (res) risk.push({ ticker, source: 'derived', ...res });
  }

  // Snapshots: araquem's per-ticker snapshot; the latest CVM month fills funds araquem lacks.
  const snapshots: Row[] = [...raw.snapshots];
  const haveSnapshot = new Set(snapshots.map((s) => s.ticker as string));
  const latestCvm = new Map<string, Row>();
  for (const m of raw.cvmMonthly) {
    const t = m.ticker as string | null;
    if (!t || !known.has(t) || haveSnapshot.has(t)) continue;
    const cur = latestCvm.get(t);
    if (!cur || (cur.ref_date as string) < (m.ref_date as string)) latestCvm.set(t, m);
  }
  for (const [ticker, m] of latestCvm) {
    const assets = m.total_assets_amt as number | null;
    const liabilities = m.liabilities_total_amt as number | null;
    snapshots.push({
      ticker,
      ref_date: m.ref_date,
      dy_monthly_pct: m.dy_monthly_ratio === null ? null : Math.round((m.dy_monthly_ratio as number) * 1e6) / 1e4,
      equity_value: m.equity_value,
      equity_per_share: m.equity_per_share,
      total_assets_amt: assets,
      total_cash_amt: m.cash_amt,
      dividend_reserve_amt: m.dividend_reserve_amt,
      admin_fee_due_amt: m.admin_fee_due_amt,
      perf_fee_due_amt: m.perf_fee_due_amt,
      liabilities_total_amt: liabilities,
      leverage_ratio: assets && liabilities !== null ? Math.round((liabilities / assets) * 1e4) / 1e4 : null,
      source: 'cvm',
    });
  }

  // One current price per fund (the newer of its last close and the snapshot's reference price), and
  // one 12-month DY over it: its last twelve months of distributions, on the snapshot.
  const dividendsYields = derivedYields;
  const trailing = trailingDistributions(adjustDividends(dividends, actions));
  const closeNow = latestCloses(prices, actions);
  snapshots.splice(0, snapshots.length, ...snapshots.map((s) => withTrailingDy(s, trailing.get(s.ticker as string), closeNow.get(s.ticker as string) ?? null)));

  // Rankings over araquem's snapshot universe (one as-of date), from the metrics served next to them.
  const riskPreferred = new Map<string, Row>();
  for (const r of risk) {
    const cur = riskPreferred.get(r.ticker as string);
    const better = !cur || (cur.volatility_ratio === null && r.volatility_ratio !== null);
    if (better) riskPreferred.set(r.ticker as string, r);
  }
  const positions = new Map(raw.rankingPositions.map((p) => [p.ticker as string, p]));
  const universe = snapshots.filter((s) => s.source === 'araquem' && known.has(s.ticker as string));
  const num = (v: unknown) => (v === null || v === undefined ? null : (v as number));
  const ranks = computeRankings(
    universe.map((s) => {
      const r = riskPreferred.get(s.ticker as string);
      const araquemRisk = r?.source === 'araquem' ? r : undefined; // araquem and derived volatility are not on the same scale
      return {
        ticker: s.ticker as string,
        dy_12m_pct: num(s.dy_pct),
        dy_monthly_pct: num(s.dy_monthly_pct),
        dividends_12m_amt: num(s.sum_anual_dy_amt),
        market_cap_value: num(s.market_cap_value),
        equity_value: num(s.equity_value),
        sharpe_ratio: num(araquemRisk?.sharpe_ratio),
        sortino_ratio: num(araquemRisk?.sortino_ratio),
        volatility_ratio: num(araquemRisk?.volatility_ratio),
        max_drawdown: num(araquemRisk?.max_drawdown),
      };
    }),
  );
  const rankings: Row[] = universe.map((s) => {
    const p = positions.get(s.ticker as string);
    return {
      ticker: s.ticker,
      ref_date: s.ref_date,
      users_rank_position: p?.users_rank_position ?? null,
      sirios_rank_position: p?.sirios_rank_position ?? null,
      ifix_rank_position: p?.ifix_rank_position ?? null,
      ifil_rank_position: p?.ifil_rank_position ?? null,
      ...ranks.get(s.ticker as string)!,
      source: 'derived',
    };
  });

  // Properties: each ticker's list comes from its highest-precedence source only (lists are not mergeable).
  const propSource = new Map<string, SourceName>();
  for (const p of raw.properties) {
    const cur = propSource.get(p.ticker);
    if (!cur || PRECEDENCE[p.source] < PRECEDENCE[cur]) propSource.set(p.ticker, p.source);
  }
  const seq = new Map<string, number>();
  const properties: Row[] = raw.properties
    .filter((p) => known.has(p.ticker) && propSource.get(p.ticker) === p.source)
    .map((p) => {
      const n = (seq.get(p.ticker) ?? 0) + 1;
      seq.set(p.ticker, n);
      return { ...p, seq: n } as unknown as Row;
    });

  // Demo clients: trades at real month-end closes; performance from adjusted closes.
  const adjMonthEnd = monthEndPrices(prices, 'adj_close_price');
  const clients: Row[] = [];
  const ledger: Row[] = [];
  const performance: Row[] = [];
  const benchmarks = new Map<string, Map<string, number>>([
    ['IFIX', indexMonthlyReturns(ifixSeries)],
    ['IBOV', indexMonthlyReturns(indexes.filter((r) => r.index_name === 'IBOV').map((r) => [r.index_date, r.points] as [string, number]))],
    ['IFIL', indexMonthlyReturns(indexes.filter((r) => r.index_name === 'IFIL').map((r) => [r.index_date, r.points] as [string, number]))],
    [
      'CDI',
      cdiMonthlyReturns(
        ifixSeries.map(([d]) => d),
        (d) => onOrBefore(cdi, d),
      ),
    ],
  ]);
  for (const c of DEMO_CLIENTS) {
    clients.push({ client_id: c.client_id, display_name: c.display_name, email: c.email, is_demo: true, source: 'demo' });
    const trades: DemoTradeRow[] = c.trades.map((t) => {
      const session = prices
        .filter((p) => p.ticker === t.ticker && (p.traded_at as string).startsWith(t.month) && p.close_price !== null)
        .sort((a, b) => (b.traded_at as string).localeCompare(a.traded_at as string))[0];
      if (!session) throw new IngestError('demo clients', null, `no real close for ${t.ticker} in ${t.month}`);
      return { trade_date: session.traded_at as string, ticker: t.ticker, side: t.side, quantity: t.quantity, price: session.close_price as number };
    });
    // The demo ledger goes through the statement parser, as an uploaded B3 file would.
    const statement = parseStatement(demoNegociacaoTable(trades));
    if (statement.errors.length)
      throw new IngestError('demo clients', null, `demo statement of ${c.client_id}: ${statement.errors.map((e) => `line ${e.line}: ${e.reason}`).join('; ')}`);
    const ids = entryIds(statement.entries);
    statement.entries.forEach((e, i) => {
      ledger.push({
        client_id: c.client_id,
        entry_id: ids[i],
        seq: i + 1,
        kind: e.kind,
        event_date: e.date,
        ticker: e.ticker,
        quantity: Number(e.quantity),
        price: Number(e.price),
        amount: Number(e.amount),
        fees: 0,
        institution: e.institution,
        import_id: null,
        line: e.line,
        is_demo: true,
        source: 'demo',
      });
    });
    const tickers = [...new Set(trades.map((t) => t.ticker))];
    const lastMonth = tickers.map((t) => [...(adjMonthEnd.get(t)?.keys() ?? [])].sort().pop() ?? '0000').sort()[0];
    const monthly = portfolioMonthlyReturns(trades, adjMonthEnd, lastMonth);
    for (const [name, rets] of benchmarks) {
      for (const row of comparePerformance(monthly, name, rets)) {
        performance.push({ client_id: c.client_id, ...row, is_demo: true, source: 'derived,demo' });
      }
    }
  }
  notes.push(`${raw.skippedTickers.size} codes that are not fund tickers (AAAA11) were skipped`);

  // Plausibility: glitches in daily series are dropped, out-of-range values flagged; all reported per rule.
  const currencies = dropSpikes(
    raw.currencies as unknown as Row[],
    'wh_currency_rates',
    (r) => String(r.currency),
    (r) => String(r.rate_date),
    SPIKE_CHECKED_SERIES.wh_currency_rates,
  );
  const indexSeries = dropSpikes(
    indexes,
    'wh_index_history',
    (r) => String(r.index_name),
    (r) => String(r.index_date),
    SPIKE_CHECKED_SERIES.wh_index_history,
  );
  const flags = [...currencies.flags, ...indexSeries.flags, ...checkSnapshots(snapshots, dividendsYields)];
  notes.push(...summariseFlags(flags));

  return {
    disagreements,
    notes,
    tables: {
      wh_segment_map: segmentMap,
      wh_funds: funds,
      wh_cvm_monthly: raw.cvmMonthly,
      wh_prices: prices,
      wh_dividends: dividends as unknown as Row[],
      wh_corporate_actions: actions.map((a) => ({ ticker: a.ticker, event_date: a.event_date, factor: a.factor, kind: a.kind, evidence: a.evidence, source: 'derived' })),
      wh_yield_history: yieldHistory.filter((r) => known.has(r.ticker as string)),
      wh_dividends_yields: dividendsYields.filter((r) => known.has(r.ticker as string)),
      wh_snapshots: snapshots,
      wh_revenue_schedule: raw.revenueSchedule,
      wh_risk: risk,
      wh_properties: properties,
      wh_news: raw.news,
      wh_legal: raw.legal,
      wh_rankings: rankings,
      wh_index_history: indexSeries.kept,
      wh_currency_rates: currencies.kept,
      wh_quality_flags: flags as unknown as Row[],
      wh_quarterly_fundamentals: raw.quarterly.filter((r) => known.has(r.ticker as string)),
      wh_valuation_history: valuationHistory(prices, raw.cvmMonthly, known),
      wh_source_dates: sourceDates([
        ...prices.map((p): Dated => [p.source, p.traded_at]),
        ...snapshots.map((x): Dated => [x.source, x.ref_date]),
        ...raw.cvmMonthly.map((m): Dated => ['cvm', m.ref_date]),
      ]),
      wh_market_indicators: indicators,
      wh_macro_consolidated: raw.macro,
      wh_clients: clients,
      wh_client_ledger: ledger,
      wh_client_performance: performance,
    },
  };
}
