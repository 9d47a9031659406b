import type { Agg, FollowUpMeta, PlanResponse, StructuredQuestion } from '@cota/contracts';
import { isMarketKind, MARKET_KINDS, queryParams } from '@cota/contracts';
import { MeasureCatalog } from '@cota/catalog';
import type { PlanningPolicies } from '../policies';
import type { QuestionReading } from './structure';
import { isMixedSeries } from './series';
import { isOneDay, isSpan } from '@cota/periods';

/** Entities whose questions a measure can answer better (the rows they list are a measure's series). */
export function measureFamily(catalog: MeasureCatalog): Set<string> {
  return new Set([...Object.values(catalog.measures).map((m) => m.entity), 'fiis_yield_history', 'fiis_dividends_yields', 'fii_overview', 'fiis_financials_snapshot']);
}

/**
 * Whether the structured question needs the measure path: a measure, subjects it can be asked of,
 * and something rows alone do not answer (a period, an aggregate, a comparison, a market series).
 */
/** Several market series and no one measure serves them all: a panel at one date. */
export function isPanel(q: StructuredQuestion, catalog: MeasureCatalog): boolean {
  const p = q.period;
  const atADate = !p || p.kind === 'latest' || p.kind === 'ago' || p.kind === 'previous_session' || isOneDay(p) || (p.kind === 'range' && p.grain === 'month');
  return isMixedSeries(q.subjects, catalog) && atADate;
}

/**
 * Several market series compared by how they did over a period ("o ifix rendeu mais que a selic em
 * 2018?"): each its own return, a level's variation or a rate compounded (the executor picks which).
 */
export function isReturnsPanel(q: StructuredQuestion, catalog: MeasureCatalog): boolean {
  return !q.measure && q.agg === 'variation' && isSpan(q.period) && isMixedSeries(q.subjects, catalog);
}

export function isMeasurable(q: StructuredQuestion, reading: QuestionReading, followUp: FollowUpMeta | null, catalog: MeasureCatalog): { ok: boolean; why: string } {
  if (isReturnsPanel(q, catalog)) return { ok: true, why: `the returns of ${q.subjects.map((s) => s.id).join(', ')} over the period, each its own` };
  if (!q.measure && isPanel(q, catalog) && !reading.aggNamed) return { ok: true, why: `a panel of ${q.subjects.map((s) => s.id).join(', ')} at one date` };
  if (!q.measure) return { ok: false, why: 'no measure' };
  const def = catalog.measures[q.measure];
  const own = def.subject === 'portfolio';
  // Selic with IPCA, or the IFIX with the dollar, is a panorama of several series, not one measure.
  // A fund measure asked of "meus fundos" is asked of each fund the client holds (the executor expands it).
  const ofPortfolio = def.subject === 'fund' && q.subjects.some((s) => s.kind === 'portfolio');
  const unserved = q.subjects.filter(
    (s) => !(s.kind === def.subject || (own && s.kind === 'fund') || (ofPortfolio && s.kind === 'portfolio')) || (def.subject_ids && !def.subject_ids.includes(s.id)),
  );
  if (unserved.length) return { ok: false, why: `${def.name} does not serve ${unserved.map((s) => s.id).join(', ')}` };
  if (own) return { ok: true, why: "the client's own figures, filtered by the authenticated client" };
  if (ofPortfolio) return { ok: true, why: "each fund of the client's portfolio" };
  if (q.subjects.some((s) => s.kind === 'portfolio')) return { ok: false, why: 'portfolio questions are answered by the client entities' };
  const kinds = new Set(q.subjects.map((s) => s.kind));
  if (kinds.size > 1) return { ok: false, why: `subjects of different kinds (${[...kinds].join(', ')})` };
  const period = q.period && q.period.kind !== 'latest';
  // The DY of "hoje" is one published number, the same in every answer (docs/METRICS.md).
  if (def.kind === 'yield' && !q.group_by && q.subjects.length > 0) return { ok: true, why: 'the dividend yield has one definition' };
  if (period) return { ok: true, why: 'a period' };
  if (q.subjects.length > 1) return { ok: true, why: 'several subjects' };
  if (q.group_by) return { ok: true, why: `grouped by ${q.group_by}` };
  if (reading.aggNamed && q.agg && q.agg !== 'value' && q.agg !== 'list') return { ok: true, why: `aggregation ${q.agg}` };
  if (MARKET_KINDS.some((k) => kinds.has(k))) return { ok: true, why: 'a market series' };
  // Kept "no subjects" is the previous question's market-wide list (a ranking), not a fund: its entity answers the edit.
  const keptNoSubject = q.subjects.length === 0 && !!followUp?.inherited.includes('subjects');
  if (followUp?.applied && followUp.inherited.length && !keptNoSubject) return { ok: true, why: 'a follow-up of a measure question' };
  // A history whose entity lists the past while its newest value is published elsewhere ("dividend yield mensal":
  // the history ends in 2022, the snapshot has this month's): the measure's current value.
  if (def.current?.answers_latest && q.subjects.length > 0 && !reading.aggNamed) return { ok: true, why: 'the current value, newer than its history' };
  return { ok: false, why: 'a single current fact: the catalog entity answers it' };
}

const AGG_PARAM: Record<string, Agg> = { total: 'sum', avg: 'avg', count: 'count', list: 'list' };

/** The plan of a measure question: entity and params for meta, the structured question to execute. */
export function measurePlan(
  base: PlanResponse,
  q: StructuredQuestion,
  policies: Pick<PlanningPolicies, 'measures' | 'entities'>,
  signals: string[],
  why: string,
  followUp: FollowUpMeta | null,
): PlanResponse {
  const catalog = policies.measures;
  if (!q.measure) {
    // A panel: the macro panorama's entity, each series with its own measure.
    return {
      ...base,
      kind: 'measure',
      intent: 'macro_consolidada',
      entity: 'macro_consolidada',
      tickers_in_text: [],
      params: base.kind === 'entity' && base.entity === 'macro_consolidada' ? base.params : queryParams({}),
      ticker_sources: [],
      ticker_required: false,
      question: { ...q, agg: isReturnsPanel(q, catalog) ? 'variation' : 'value' },
      follow_up: followUp,
      planner: { ...base.planner, accepted: true, reason: `${why}; ${signals.join('; ')}` },
    };
  }
  const def = catalog.measures[q.measure as string];
  const funds = q.subjects.filter((s) => s.kind === 'fund').map((s) => s.id);
  const fundMeasure = def.subject === 'fund';
  const window = q.period?.kind === 'range' && q.period.grain === 'year' ? `year:${q.period.from.slice(0, 4)}` : null;
  const filters: Record<string, string> = {};
  const market = q.subjects.find((s) => isMarketKind(s.kind));
  if (market) filters[market.kind] = market.id;
  // The routed entity names the answer when it speaks of the same kind of subject (funds, or the market's series).
  const entity = base.planner.accepted && base.kind === 'entity' && base.entity && fundMeasure === (policies.entities[base.entity] !== 'market') ? base.entity : def.entity;
  return {
    ...base,
    kind: 'measure',
    intent: entity,
    entity,
    tickers_in_text: funds.slice(0, 20),
    // meta.params: the equivalent entity query when the words routed to one (its window, order and
    // filters say the same period and scope), else the measure's own reading.
    params:
      base.kind === 'entity' && base.planner.accepted && entity === base.entity
        ? { ...base.params, ticker: funds.length === 1 ? funds[0] : null, tickers: funds.slice(0, 20), filters: { ...filters, ...base.params.filters } }
        : queryParams({
            ticker: funds.length === 1 ? funds[0] : null,
            tickers: funds.slice(0, 20),
            agg: AGG_PARAM[q.agg ?? ''] ?? (q.agg === 'list' ? 'list' : 'latest'),
            window,
            filters,
          }),
    ticker_sources: fundMeasure ? ['text', 'context'] : [],
    ticker_required: fundMeasure && q.subjects.length === 0,
    question: q,
    follow_up: followUp,
    planner: {
      ...base.planner,
      accepted: true,
      reason: `measure ${def.name} (${q.agg}) over ${q.subjects.map((s) => s.id).join(', ') || "the conversation's fund"}: ${why}; ${signals.join('; ')}${followUp?.applied ? `; ${followUp.reason}` : ''}`,
    },
  };
}
