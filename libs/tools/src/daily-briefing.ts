import { todayInBrazil } from '@cota/periods';
import { CotaError, QueryResult } from '@cota/contracts';
import { buildDividendsSection, buildNewsSection, buildPortfolioSection } from './briefing/funds';
import { buildMarketSection, MARKET_ENTITIES } from './briefing/market';
import { renderReport, STALE_AFTER_DAYS } from './render';
import { formatDayInBrazil } from '@cota/text';
import { newReportId, Report, ReportSection } from './report';
import { WarehouseQuery } from './warehouse-query';

export interface BriefingContext {
  request_id: string;
  client_id: string;
  now: Date;
  /** Random suffix of the report id (injectable for tests). */
  randomId?: () => string;
}

/** QueryParams allow up to 20 tickers per query. */
const TICKER_BATCH = 20;
const MAX_NEWS = 8;

type Settled = { ok: true; value: QueryResult } | { ok: false; reason: string };

async function settle(p: Promise<QueryResult>): Promise<Settled> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    // Outages of the query subject propagate; an entity that cannot answer only blanks its section.
    if (CotaError.is(e) && (e.code === 'UNAVAILABLE' || e.code === 'TIMEOUT')) throw e;
    return { ok: false, reason: CotaError.is(e) ? e.code : 'erro' };
  }
}

function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Builds the daily briefing from the warehouse: market (IFIX, SELIC, CDI, IPCA, dollar), the
 * client's positions, the dividends and the news of the funds they hold. Every number comes from
 * a catalog entity; a section whose data is missing says so instead of being filled in.
 */
export async function buildDailyBriefing(wh: WarehouseQuery, ctx: BriefingContext): Promise<Report> {
  const q = (entity: string, params: Parameters<WarehouseQuery['query']>[1]) => settle(wh.query(entity, params, ctx));

  const [market, portfolio] = await Promise.all([
    Promise.all([
      q('macro_consolidada', { window: 'rows:40', limit: 40 }),
      q('history_b3_indexes', { agg: 'latest' }),
      q('history_market_indicators', { limit: 200 }),
      q('history_currency_rates', { agg: 'latest' }),
    ]),
    q('client_fiis_enriched_portfolio', { limit: 200 }),
  ]);
  const marketOk = market.filter((m): m is { ok: true; value: QueryResult } => m.ok).map((m) => m.value);
  const marketFailed = market.map((m, i) => (m.ok ? null : MARKET_ENTITIES[i])).filter((x): x is (typeof MARKET_ENTITIES)[number] => x !== null);

  const held = portfolio.ok ? [...new Set(portfolio.value.rows.map((r) => r.ticker).filter((t): t is string => typeof t === 'string'))] : [];
  const groups = batches(held, TICKER_BATCH);
  const perFund = (entity: string, limit: number) => Promise.all(groups.map((tickers) => q(entity, { tickers, limit })));
  const hasSegment = portfolio.ok && portfolio.value.columns.some((c) => /segment|sector|setor/.test(c.name));
  const [registry, dividends, news] = await Promise.all([
    hasSegment ? Promise.resolve([] as Settled[]) : perFund('fiis_cadastro', 1),
    perFund('fiis_dividendos', 4),
    perFund('fiis_noticias', 2),
  ]);
  const okOf = (xs: Settled[]) => xs.filter((x): x is { ok: true; value: QueryResult } => x.ok).map((x) => x.value);
  const failNote = (xs: Settled[], what: string) => (xs.some((x) => !x.ok) ? `Não foi possível ler ${what} agora.` : null);

  const registryRows = okOf(registry);
  const registryResult: QueryResult | null = registryRows.length
    ? { ...registryRows[0], rows: registryRows.flatMap((r) => r.rows), row_count: registryRows.reduce((n, r) => n + r.row_count, 0) }
    : null;
  const pf = buildPortfolioSection(portfolio.ok ? portfolio.value : null, registryResult, portfolio.ok ? null : portfolio.reason);
  const noFunds = held.length === 0 ? 'Sem posições na carteira: nada a mostrar aqui.' : null;

  const today = todayInBrazil(ctx.now);
  const sections = [
    buildMarketSection(marketOk, marketFailed),
    pf.section,
    buildDividendsSection(okOf(dividends), pf.segments, today, noFunds ?? failNote(dividends, 'os proventos')),
    buildNewsSection(okOf(news), pf.segments, MAX_NEWS, noFunds ?? failNote(news, 'as notícias')),
  ].map((s) => withStaleNote(s, today));
  const sources = [...new Set([...marketOk, ...(portfolio.ok ? [portfolio.value] : []), ...okOf(dividends), ...okOf(news), ...registryRows].flatMap((r) => r.sources))].sort();

  const generated = ctx.now;
  const base: Omit<Report, 'text'> = {
    report_id: newReportId(generated, ctx.randomId),
    kind: 'daily_briefing',
    title: `Briefing diário de ${formatDayInBrazil(generated)}`,
    generated_at: generated.toISOString(),
    parent_report_id: null,
    filters: null,
    sections,
    sources,
  };
  return { ...base, text: renderReport(base) };
}

/**
 * A briefing dated today whose data is older says so plainly, in the section the data is in: "os
 * dados desta seção vão até 14/11/2025, 378 dias antes de hoje (27/11/2026)".
 */
export function withStaleNote(section: ReportSection, today: string): ReportSection {
  if (!section.as_of) return section;
  const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${section.as_of.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
  if (!(days > STALE_AFTER_DAYS)) return section;
  const fmt = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  const stale = `Atenção: os dados desta seção vão até ${fmt(section.as_of)}, ${days} dias antes de hoje (${fmt(today)}).`;
  return { ...section, note: section.note ? `${stale} ${section.note}` : stale };
}
