import { sqlFailure } from './sql-failure';
import type { MeasureAgg, MeasureResult, MeasureValue, PeriodSpec, QuestionSubject, StructuredQuestion } from '@cota/contracts';
import { CotaError } from '@cota/contracts';
import { defaultMeasureFor, MeasureCatalog, MeasureDef } from '@cota/catalog';
import { addDays, isCalendarPeriod, isOneDay, resolvePeriod, todayInBrazil } from '@cota/periods';
import type { SqlRunner } from './entity-query.service';
import { SPIKE_CHECKED_SERIES } from '../derived/plausibility';

/** SQL text for one measure, built only from the measure catalog's identifiers. */
export interface MeasureSql {
  coverage: string;
  stats: string;
  rows: string;
  /** The published current value (a snapshot), when the measure declares one. */
  current: string | null;
  /**
   * The period's values beyond a level (the operator and the level follow the other parameters): the
   * first ones in date order, the last one, and how many there are, whatever the length of the series.
   */
  beyond: string;
  /**
   * Each day's move from the close before it, the largest first (`up`) or the smallest (`down`), a few
   * rows for ties: "o dia em que o IFIX mais caiu em 2024", over the whole period whatever its length.
   */
  dailyMoves: { up: string; down: string };
}

const q = (ident: string) => `"${ident}"`;
const ROW_CAP = 400;

/**
 * The statements a measure needs, all parameterised by ($1 subject, $2 from, $3 to): the dates the
 * series has, one row of aggregates over the period (count, sum, mean, compounded rate, first,
 * last, extremes with their dates, the value before the period for variations, on the traded and
 * the adjusted column), and the period's values, per month when grouped.
 */
export function buildMeasureSql(m: MeasureDef, groupBy: StructuredQuestion['group_by']): MeasureSql {
  const t = q(m.table);
  const subj = q(m.subject_column);
  const d = q(m.date_column);
  const adj = m.adjusted_column ? q(m.adjusted_column) : null;
  // A day without a traded close keeps its adjusted one (flagged): prices published only adjusted.
  const value = adj ? `COALESCE(${q(m.value_column)}, ${adj})` : q(m.value_column);
  const adjFlag = adj ? `(${q(m.value_column)} IS NULL)` : 'false';
  const d2 = m.secondary_date_column ? `${q(m.secondary_date_column)}::date` : 'NULL::date';
  // Client measures: the authenticated client's rows only ($n is the client, set by the service);
  // their subject may be the whole portfolio ($1 NULL) or one fund.
  const subjectCond = m.client_column ? `($1::text IS NULL OR ${subj} = $1)` : `${subj} = $1`;
  const scope = (n: number) =>
    [m.client_column ? `${q(m.client_column)} = $${n}` : '', m.fixed_filter ? fixedFilterSql(m.fixed_filter) : '']
      .filter(Boolean)
      .map((c) => ` AND ${c}`)
      .join('');
  // (a trade's shares and price, said with it when it is the only one)
  const trade = m.trade
    ? `${q(m.trade.quantity_column)}::numeric AS tq, ${q(m.trade.price_column)}::numeric AS tp, ${m.trade.side_column ? `${q(m.trade.side_column)}::text` : 'NULL::text'} AS ts`
    : 'NULL::numeric AS tq, NULL::numeric AS tp, NULL::text AS ts';
  const select = `SELECT ${d}::date AS d, ${value}::numeric AS v, ${adj ? `${adj}::numeric` : 'NULL::numeric'} AS a, ${adjFlag} AS is_adj, ${d2} AS d2, source AS src, ${subj}::text AS f, ${trade}
      FROM ${t} WHERE ${subjectCond} AND ${value} IS NOT NULL${scope(4)}`;
  // The period's values only, and the one value on each side of it (by the index on subject and
  // date), never the whole series: "a Selic hoje" must not build forty years of daily rates.
  // (Bounds written so that they hold for a date or a timestamp column alike.)
  const inPeriod = `${select} AND ${d} >= $2::date AND ${d} < $3::date + 1`;
  const before = `${select} AND ${d} < $2::date ORDER BY ${d} DESC LIMIT 1`;
  const after = `${select} AND ${d} >= $3::date + 1 ORDER BY ${d} LIMIT 1`;
  const coverage = `SELECT min(${d})::text AS first_date, max(${d})::text AS last_date FROM ${t} WHERE ${subjectCond} AND ${value} IS NOT NULL${scope(2)}`;
  const pick = (order: string, col: string) => `(SELECT ${col} FROM s ORDER BY ${order} LIMIT 1)`;
  const stats = `WITH s AS (${inPeriod}), b AS (${before}), z AS (${after})
    SELECT (SELECT count(*) FROM s)::int AS n,
           (SELECT sum(v) FROM s) AS total,
           (SELECT avg(v) FROM s) AS mean,
           ${compoundedSql(m)} AS compounded,
           (SELECT bool_or(is_adj) FROM s) AS any_adj,
           (SELECT string_agg(DISTINCT src, ',') FROM s) AS sources,
           (SELECT string_agg(DISTINCT f, ',' ORDER BY f) FROM s) AS funds,
           ${pick('d', 'd::text')} AS first_d, ${pick('d', 'v')} AS first_v, ${pick('d', 'a')} AS first_a, ${pick('d', 'is_adj')} AS first_is_adj,
           ${pick('d DESC', 'd::text')} AS last_d, ${pick('d DESC', 'v')} AS last_v, ${pick('d DESC', 'a')} AS last_a, ${pick('d DESC', 'is_adj')} AS last_is_adj, ${pick('d DESC', 'd2::text')} AS last_d2,
           ${pick('v DESC, d', 'd::text')} AS max_d, ${pick('v DESC, d', 'v')} AS max_v, ${pick('v DESC, d', 'd2::text')} AS max_d2,
           ${pick('v ASC, d', 'd::text')} AS min_d, ${pick('v ASC, d', 'v')} AS min_v, ${pick('v ASC, d', 'd2::text')} AS min_d2,
           (SELECT count(*) FROM s WHERE NOT is_adj)::int AS n_traded, (SELECT count(a) FROM s)::int AS n_adj, (SELECT avg(a) FROM s) AS amean,
           (SELECT d::text FROM s WHERE a IS NOT NULL ORDER BY a DESC, d LIMIT 1) AS amax_d, (SELECT a FROM s WHERE a IS NOT NULL ORDER BY a DESC, d LIMIT 1) AS amax_v,
           (SELECT d::text FROM s WHERE a IS NOT NULL ORDER BY a ASC, d LIMIT 1) AS amin_d, (SELECT a FROM s WHERE a IS NOT NULL ORDER BY a ASC, d LIMIT 1) AS amin_v,
           (SELECT d::text FROM b) AS base_d, (SELECT v FROM b) AS base_v, (SELECT a FROM b) AS base_a, (SELECT is_adj FROM b) AS base_is_adj,
           (SELECT d::text FROM s WHERE NOT is_adj ORDER BY d LIMIT 1) AS tfirst_d, (SELECT v FROM s WHERE NOT is_adj ORDER BY d LIMIT 1) AS tfirst_v,
           (SELECT d::text FROM z) AS after_d,
           ${movesSql('>')} AS rises, ${movesSql('<')} AS falls`;
  const grain = groupBy ?? 'day';
  const moves = (order: 'DESC' | 'ASC') => `WITH a AS ((${before}) UNION ALL (${inPeriod})),
    m AS (SELECT d, v, lag(d) OVER (ORDER BY d) AS pd, lag(v) OVER (ORDER BY d) AS p FROM a)
    SELECT d::text AS d, v, pd::text AS pd, p, (v / p - 1) * 100 AS r FROM m WHERE p IS NOT NULL AND p <> 0 ORDER BY r ${order}, d LIMIT 10`;
  const rows =
    grain === 'day'
      ? `WITH a AS (${inPeriod}) SELECT d::text AS d, v, tq, tp, ts, f, d2::text AS d2 FROM a ORDER BY d, f LIMIT ${ROW_CAP + 1}`
      : m.kind === 'flow'
        ? `WITH a AS (${inPeriod}) SELECT date_trunc('${grain}', d)::date::text AS d, sum(v) AS v FROM a GROUP BY 1 ORDER BY 1 LIMIT ${ROW_CAP + 1}`
        : `WITH a AS (${inPeriod}) SELECT DISTINCT ON (date_trunc('${grain}', d)) d::text AS d, v FROM a ORDER BY date_trunc('${grain}', d), d DESC LIMIT ${ROW_CAP + 1}`;
  const current = m.current
    ? `SELECT ${q(m.current.date_column)}::date::text AS d, ${q(m.current.value_column)}::numeric AS v${basisColumns(m)} FROM ${q(m.current.table)}
        WHERE ${q(m.current.subject_column)} = $1 AND ${q(m.current.value_column)} IS NOT NULL ORDER BY ${q(m.current.date_column)} DESC LIMIT 1`
    : null;
  const [op, level] = m.client_column ? ['$5', '$6'] : ['$4', '$5'];
  const beyond = `WITH a AS (${inPeriod}), x AS (SELECT d, v FROM a WHERE CASE WHEN ${op}::text = 'gt' THEN v > ${level}::numeric ELSE v < ${level}::numeric END)
    SELECT d::text AS d, v, (SELECT count(*) FROM x)::int AS n
      FROM ((SELECT d, v FROM x ORDER BY d LIMIT ${ROW_CAP}) UNION (SELECT d, v FROM x ORDER BY d DESC LIMIT 1)) y ORDER BY d`;
  return { coverage, stats, rows, current, beyond, dailyMoves: { up: moves('DESC'), down: moves('ASC') } };
}

/**
 * Of the funds a portfolio's value sums, those held when the period ends: valued at a close within a week of the latest
 * one ("no fim de 2022": the XPIN11 sold in August is no part of it; a fund without a close that very day still is).
 */
function heldAtTheEnd(values: MeasureValue[]): MeasureValue[] {
  const dated = values.filter((v) => v.value !== null && v.date);
  const last = dated.reduce((a, v) => (v.date! > a ? v.date! : a), '');
  return dated.filter((v) => v.date! >= addDays(last.slice(0, 10), -7));
}

/** A measure's rows of one kind, or of a few: codes the catalog validated as plain lower-case words. */
function fixedFilterSql(f: NonNullable<MeasureDef['fixed_filter']>): string {
  return f.in ? `${q(f.column)} IN (${f.in.map((v) => `'${v}'`).join(', ')})` : `${q(f.column)} = '${f.equals}'`;
}

/** How many times the value moved (up: '>', down: '<') from one date to the next, the value before the period included. */

function movesSql(dir: '>' | '<'): string {
  return `(SELECT count(*) FROM (SELECT v, lag(v) OVER (ORDER BY d) AS p FROM (SELECT d, v FROM b UNION ALL SELECT d, v FROM s) x) y WHERE v ${dir} p)::int`;
}

/** The columns a current yield rests on, when the catalog declares them. */
function basisColumns(m: MeasureDef): string {
  const b = m.current?.basis;
  if (!b) return '';
  const kind = b.price_kind_column ? `${q(b.price_kind_column)}::text` : 'NULL::text';
  const published = b.published
    ? `, ${q(b.published.value_column)}::numeric AS p_value, ${q(b.published.date_column)}::date::text AS p_date, ${q(b.published.paid_to_column)}::date::text AS p_paid_to`
    : '';
  return `, ${q(b.from_column)}::text AS b_from, ${q(b.total_column)}::numeric AS b_total, ${q(b.count_column)}::int AS b_count, ${q(b.price_column)}::numeric AS b_price, ${q(b.price_date_column)}::text AS b_price_date, ${kind} AS b_price_kind, ${q(b.source_column)} AS b_source${published}`;
}

/** The publisher's figure of a current value's row, when it differs from the value at two decimals. */
function publishedBeside(row: Raw, value: number): MeasureValue['published'] {
  const v = num(row.p_value);
  const date = str(row.p_date);
  if (v === null || !date || Math.round(v * 100) === Math.round(value * 100)) return null;
  return { value: round(v), date, paid_to: str(row.p_paid_to) };
}

/** Compounding over the period: monthly rates multiply; annual rates per business day (1/252 of a year each). */
function compoundedSql(m: MeasureDef): string {
  if (m.kind === 'monthly_rate') return '(SELECT CASE WHEN bool_and(v > -100) THEN (exp(sum(ln(1 + v / 100))) - 1) * 100 END FROM s)';
  if (m.compounding === 'daily_252') return '(SELECT CASE WHEN bool_and(v > -100) THEN (exp(sum(ln(1 + v / 100) / 252)) - 1) * 100 END FROM s)';
  return 'NULL::numeric';
}

type Raw = Record<string, unknown>;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number.isFinite(Number(v)) ? Number(v) : null);
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v).slice(0, 10));
const round = (v: number, dp = 6) => Math.round(v * 10 ** dp) / 10 ** dp;

const at = (d: unknown, v: unknown) => (str(d) && num(v) !== null ? { date: str(d)!, value: num(v)! } : null);

/** The subject a comparison picks: the largest (or smallest) value, none on a tie or without two values. */
function winnerOf(values: MeasureValue[], compare: StructuredQuestion['compare']): QuestionSubject | null {
  if (!compare) return null;
  const ranked = values.filter((v) => v.value !== null).sort((a, b) => (compare === 'max' ? b.value! - a.value! : a.value! - b.value!));
  return ranked.length > 1 && ranked[0].value !== ranked[1].value ? ranked[0].subject : null;
}

/** Whether a period's levels are mostly adjusted-only (its traded closes a minority among adjusted days). */
const adjustedBasis = (s: Raw) => (num(s.n_adj) ?? 0) > 2 * (num(s.n_traded) ?? 0) && num(s.n_traded) !== null && (num(s.n_traded) ?? 0) < (num(s.n) ?? 0);

/** One aggregation of a period's stats row (the SQL computed every candidate at once). */
function aggregate(
  m: MeasureDef,
  agg: MeasureAgg,
  s: Raw,
  n: number,
  fromNamedDay = false,
): Pick<MeasureValue, 'value' | 'date' | 'start' | 'end' | 'adjusted'> & { adjusted?: boolean; traded?: MeasureValue['traded'] } {
  const last = at(s.last_d, s.last_v);
  const none = { start: null, end: null };
  switch (agg) {
    case 'last':
    case 'first':
      // "Primeiro e último fechamento de 2022": like the extremes, on one basis; a period mostly
      // published adjusted-only is read on the adjusted series at both ends.
      if (adjustedBasis(s)) {
        const end = agg === 'first' ? at(s.first_d, s.first_a) : at(s.last_d, s.last_a);
        if (end) return { ...none, value: end.value, date: end.date, adjusted: true };
      }
      if (agg === 'first') {
        const first = at(s.first_d, s.first_v);
        return { ...none, value: first?.value ?? null, date: first?.date ?? null, adjusted: s.any_adj === true };
      }
      return { ...none, value: last?.value ?? null, date: last?.date ?? null, adjusted: s.last_is_adj === true };
    case 'value':
    case 'list':
      return { ...none, value: last?.value ?? null, date: last?.date ?? null, adjusted: s.last_is_adj === true };
    case 'max':
    case 'min': {
      // Extremes compare like with like: a period whose closes are mostly published adjusted only
      // (a few traded month-ends among adjusted days) is read on the adjusted series throughout.
      if (adjustedBasis(s)) {
        const a = agg === 'max' ? at(s.amax_d, s.amax_v) : at(s.amin_d, s.amin_v);
        return { ...none, value: a?.value ?? null, date: a?.date ?? null, adjusted: true };
      }
      const x = agg === 'max' ? at(s.max_d, s.max_v) : at(s.min_d, s.min_v);
      return { ...none, value: x?.value ?? null, date: x?.date ?? null, adjusted: s.any_adj === true };
    }
    case 'total':
      return { ...none, value: round(num(s.total) ?? 0), date: last?.date ?? null, adjusted: false };
    case 'avg':
      if (adjustedBasis(s)) return { ...none, value: round(num(s.amean) ?? 0), date: last?.date ?? null, adjusted: true };
      return { ...none, value: round(num(s.mean) ?? 0), date: last?.date ?? null, adjusted: s.any_adj === true };
    case 'count':
      return { ...none, value: n, date: last?.date ?? null, adjusted: false };
    case 'changes':
    case 'rises':
    case 'falls': {
      const rises = num(s.rises) ?? 0;
      const falls = num(s.falls) ?? 0;
      return { ...none, value: agg === 'rises' ? rises : agg === 'falls' ? falls : rises + falls, date: last?.date ?? null, adjusted: false };
    }
    case 'accumulated':
      return { value: num(s.compounded) === null ? null : round(num(s.compounded)!), date: last?.date ?? null, start: at(s.first_d, s.first_v), end: last, adjusted: false };
    case 'variation': {
      // Monthly reports (stocks) describe the month itself: "de jan/2021 a dez/2023" starts at January's
      // report. Daily levels start from the close before the period, unless the person named its first day
      // ("entre 02/01/2025 e 14/11/2025" starts at that day's close); returns use adjusted closes when
      // both ends have one (dividends reinvested), else traded closes.
      const fromInside = m.kind === 'stock' || !s.base_d || fromNamedDay;
      const adjEnds = num(s.last_a) !== null && num(fromInside ? s.first_a : s.base_a) !== null;
      // A close before the period published only adjusted cannot start a traded one's return (XPML11 2025: market16's
      // adjusted 89,23 of 30/12/2024 against dashbord's traded 102,61): the period's first traded close starts it, dated.
      const mixed = !adjEnds && !fromInside && s.base_is_adj === true && s.last_is_adj !== true && !!s.tfirst_d;
      const start = mixed ? at(s.tfirst_d, s.tfirst_v) : fromInside ? at(s.first_d, adjEnds ? s.first_a : s.first_v) : at(s.base_d, adjEnds ? s.base_a : s.base_v);
      const end = at(s.last_d, adjEnds ? s.last_a : s.last_v);
      const value = start && end && start.value !== 0 ? round((end.value / start.value - 1) * 100) : null;
      // ("quanto valorizou": a total return is also said on the traded closes at the same ends, when both were traded)
      // (from a day named, its own traded close: "do fechamento de 28/12/2023 ao de 30/12/2024")
      const tStart = !adjEnds ? null : fromInside ? (s.first_is_adj !== true ? at(s.first_d, s.first_v) : null) : s.base_is_adj !== true ? at(s.base_d, s.base_v) : null;
      const tEnd = s.last_is_adj !== true ? at(s.last_d, s.last_v) : null;
      const traded = tStart && tEnd && tStart.value !== 0 ? { value: round((tEnd.value / tStart.value - 1) * 100), start: tStart, end: tEnd } : null;
      return { value, date: end?.date ?? null, start, end, adjusted: adjEnds || s.any_adj === true, traded };
    }
  }
  return { ...none, value: null, date: null, adjusted: false };
}

/**
 * Answers a structured question from the measure catalog: per subject, the period resolved against
 * the dates that subject's series has, then the aggregation the question asked, computed in SQL.
 */
export class MeasureQueryService {
  private readonly sql = new Map<string, MeasureSql>();

  constructor(
    private readonly catalog: MeasureCatalog,
    private readonly runner: SqlRunner,
    private readonly opts: { statementTimeoutMs: number; onSqlError?: (e: Error, measure: string) => void; today?: () => string } = { statementTimeoutMs: 5000 },
  ) {}

  /** The client's calendar day: "ontem" and "este mês" are the calendar's, not the data's. */
  private today(): string {
    return (this.opts.today ?? todayInBrazil)();
  }

  /** The series' date before `date` (the session before it): the stats of that one day know it. */
  private async sessionBefore(sql: MeasureSql, sid: string | null, date: string, client: string[]): Promise<string | null> {
    const [s] = await this.run(sql.stats, [sid, date, date, ...client]);
    return str(s?.base_d);
  }

  private statements(m: MeasureDef, groupBy: StructuredQuestion['group_by']): MeasureSql {
    const key = `${m.name}|${groupBy}`;
    let s = this.sql.get(key);
    if (!s) this.sql.set(key, (s = buildMeasureSql(m, groupBy)));
    return s;
  }

  /** `clientId` is the authenticated client: client measures are filtered by it, whatever the question says. */
  async compute(asked: StructuredQuestion, clientId: string): Promise<MeasureResult> {
    if (asked.measure === null) return this.panel(asked, clientId);
    const m = asked.measure ? this.catalog.measures[asked.measure] : undefined;
    if (!m) throw new CotaError('BAD_REQUEST', `Não conheço a medida '${String(asked.measure).slice(0, 48)}'.`);
    if (asked.subjects.length === 0) throw new CotaError('BAD_REQUEST', 'A pergunta não diz de qual fundo ou índice.');
    const { question, weights } = await this.subjectsAsked(m, asked, clientId);
    for (const s of question.subjects) {
      // A client measure is asked of the whole portfolio or of one of its funds.
      const fits = s.kind === m.subject || (m.subject === 'portfolio' && s.kind === 'fund');
      if (!fits) throw new CotaError('BAD_REQUEST', `A medida '${m.label}' não se aplica a ${s.id}.`);
      if (m.subject_ids && !m.subject_ids.includes(s.id)) throw new CotaError('BAD_REQUEST', `A medida '${m.label}' não se aplica a ${s.id}.`);
    }
    const agg: MeasureAgg = question.agg && m.aggregations.includes(question.agg) ? question.agg : m.default_agg;
    const each = await Promise.all(question.subjects.map((s) => this.forSubject(m, s, agg, question, clientId)));
    // "quanto o IFIX subiu este ano?" when the data ends before this year: the latest year the data has, said so by the narrator
    const latest = latestPeriodInstead(question.period, each, this.today());
    if (latest) {
      const older = await this.compute({ ...asked, period: latest }, clientId);
      return { ...older, today: this.today() };
    }
    const held = question !== asked && m.sum_of_funds ? heldAtTheEnd(each) : each;
    const all = held.length ? held : each;
    // "quais dos meus fundos estão com P/VP abaixo de 0,95?": one value each, those beyond the level kept.
    const screen = question.condition && agg === 'value' && all.length > 1 ? question.condition : null;
    const values = screen ? all.filter((v) => v.value !== null && (screen.op === 'gt' ? v.value > screen.value : v.value < screen.value)) : all;
    const winner = winnerOf(values, question.compare);
    let portfolio: MeasureResult['portfolio'] = null;
    if (weights) {
      const total = [...weights.values()].reduce((a, b) => a + b, 0);
      const known = values.filter((v) => v.value !== null && weights!.has(v.subject.id));
      const covered = known.reduce((a, v) => a + weights!.get(v.subject.id)!, 0);
      portfolio = {
        value: covered > 0 ? round(known.reduce((a, v) => a + v.value! * weights!.get(v.subject.id)!, 0) / covered) : null,
        weights: [...weights].map(([ticker, w]) => ({ ticker, weight: total > 0 ? round((w / total) * 100, 4) : 0 })),
      };
    }
    const extremeGroup = isExtremeGroup(question, agg);
    const valueUnit =
      m.kind === 'yield' || ((agg === 'variation' || (extremeGroup && m.kind !== 'flow')) && m.unit !== 'pct')
        ? 'pct'
        : agg === 'count' || agg === 'changes' || agg === 'rises' || agg === 'falls'
          ? 'count'
          : agg === 'accumulated'
            ? 'pct'
            : m.unit;
    return {
      today: isCalendarPeriod(question.period) ? this.today() : null,
      measure: m.name,
      entity: m.entity,
      agg,
      unit: m.unit,
      value_unit: valueUnit,
      group_by: question.group_by,
      ...(extremeGroup ? { extreme_group: true } : {}),
      grain: m.grain,
      fallback_note: m.fallback_note ?? null,
      values,
      winner,
      portfolio,
      screened: screen ? { of: all.length, ...screen } : null,
    };
  }

  /**
   * The subjects the measure is computed for: the client's portfolio becomes its funds where the answer is per fund
   * ("meus fundos" for a fund measure, with their weights; the client's own figure fund by fund, compared, listed, or
   * summed at a close). The authenticated client's, always.
   */
  private async subjectsAsked(m: MeasureDef, asked: StructuredQuestion, clientId: string): Promise<{ question: StructuredQuestion; weights: Map<string, number> | null }> {
    const fundsOf = (ids: Iterable<string>): QuestionSubject[] => [...ids].map((id) => ({ kind: 'fund' as const, id }));
    const funds = (subjects: QuestionSubject[]) => {
      if (subjects.length === 0) throw new CotaError('BAD_REQUEST', 'Sua carteira não tem fundos no momento.');
      return subjects.slice(0, 20);
    };
    const portfolioOnly = asked.subjects.length === 1 && asked.subjects[0].kind === 'portfolio';
    if (m.subject === 'fund' && asked.subjects.some((s) => s.kind === 'portfolio')) {
      // "Meus fundos" for a fund measure: each fund the client holds, with its weight (and the funds named beside them).
      const weights = await this.positions(clientId);
      return { question: { ...asked, subjects: funds([...asked.subjects.filter((s) => s.kind === 'fund'), ...fundsOf(weights.keys())]) }, weights };
    }
    if (m.subject === 'portfolio' && (asked.compare || asked.each_fund) && portfolioOnly) {
      // "Qual dos meus fundos me rendeu mais?", "quanto recebi de cada fii?": the client's own measure, per fund held (compared when asked).
      return { question: { ...asked, subjects: funds(fundsOf((await this.positions(clientId)).keys())) }, weights: null };
    }
    if (m.sum_of_funds && portfolioOnly) {
      // "quanto valia minha carteira no fim de 2022?": each fund the client ever held, valued at the period's close, summed.
      const held = await this.run(`SELECT DISTINCT ${q(m.subject_column)}::text AS f FROM ${q(m.table)} WHERE ${q(m.client_column!)} = $1 ORDER BY 1`, [clientId]);
      return { question: { ...asked, subjects: funds(fundsOf(held.map((r) => String(r.f)))) }, weights: null };
    }
    if (m.subject === 'portfolio' && m.table === this.catalog.portfolio.table && asked.agg === 'list' && asked.subjects.every((s) => s.kind === 'portfolio')) {
      // "Me lista meus fiis com a quantidade de cotas": a per-position figure listed is one value per fund held.
      return { question: { ...asked, subjects: funds(fundsOf((await this.positions(clientId)).keys())), agg: 'value' }, weights: null };
    }
    return { question: asked, weights: null };
  }

  /**
   * A panel: each series (market series, and funds asked with them) with its own measure, valued at the same date (the last value on or
   * before it: a monthly rate carries its latest reference month forward, and the answer says which).
   */
  private async panel(question: StructuredQuestion, clientId: string): Promise<MeasureResult> {
    const lines = question.subjects.filter((s) => s.kind !== 'portfolio');
    if (lines.length === 0) throw new CotaError('BAD_REQUEST', 'Diga quais índices ou indicadores você quer ver juntos.');
    // How each series did over the period: a level's variation, a rate compounded; compared when asked.
    if (question.agg === 'variation') {
      const values = await Promise.all(
        lines.map(async (s) => {
          const m = defaultMeasureFor(this.catalog, s.kind, s.id);
          if (!m) throw new CotaError('BAD_REQUEST', `Não tenho a série ${s.id}.`);
          const agg: MeasureAgg = m.aggregations.includes('accumulated') ? 'accumulated' : 'variation';
          const v = await this.measureFor(m, s, agg, { ...question, subjects: [s], measure: m.name, agg, also: [] }, clientId);
          return { ...v, measure: m.name, unit: m.unit, grain: m.grain, agg };
        }),
      );
      const winner = winnerOf(values, question.compare);
      return {
        today: null,
        measure: 'panel',
        entity: 'macro_consolidada',
        agg: 'variation',
        unit: 'pct',
        value_unit: 'pct',
        group_by: null,
        grain: 'day',
        fallback_note: null,
        values,
        winner,
        portfolio: null,
        screened: null,
      };
    }
    const period = question.period && question.period.kind === 'range' ? { ...question.period, from: question.period.to, grain: 'day' as const } : question.period;
    const values = await Promise.all(
      lines.map(async (s) => {
        const m = defaultMeasureFor(this.catalog, s.kind, s.id);
        if (!m) throw new CotaError('BAD_REQUEST', `Não tenho a série ${s.id}.`);
        const v = await this.measureFor(m, s, 'value', { ...question, subjects: [s], measure: m.name, agg: 'value', also: [], period }, clientId);
        return { ...v, measure: m.name, unit: m.unit, grain: m.grain };
      }),
    );
    return {
      today: null,
      measure: 'panel',
      entity: 'macro_consolidada',
      agg: 'value',
      unit: 'points',
      value_unit: 'points',
      group_by: null,
      grain: 'day',
      fallback_note: null,
      values,
      winner: null,
      portfolio: null,
      screened: null,
    };
  }

  /**
   * Each subject's value on or before a date, from the measure's own column (a price's traded close)
   * or, when asked, its adjusted column (the close adjusted for distributions): what a position was
   * worth at a period's end. Market and fund measures only; null when the measure has no such column.
   */
  async valuesOnOrBefore(measure: string, ids: readonly string[], date: string, basis: 'traded' | 'adjusted' = 'traded'): Promise<Map<string, { date: string; value: number }>> {
    const m = this.catalog.measures[measure];
    if (!m || m.client_column || (basis === 'adjusted' && !m.adjusted_column)) throw new CotaError('BAD_REQUEST', `Não conheço a medida '${measure.slice(0, 48)}'.`);
    if (ids.length === 0) return new Map();
    const [subj, d, v] = [q(m.subject_column), q(m.date_column), q(basis === 'adjusted' ? m.adjusted_column! : m.value_column)];
    const rows = await this.run(
      `SELECT DISTINCT ON (${subj}) ${subj} AS id, ${d}::date::text AS d, ${v}::numeric AS v FROM ${q(m.table)}
        WHERE ${subj} = ANY($1::text[]) AND ${d} < $2::date + 1 AND ${v} IS NOT NULL ORDER BY ${subj}, ${d} DESC`,
      [ids, date],
    );
    return new Map(rows.filter((r) => num(r.v) !== null).map((r) => [String(r.id), { date: String(r.d), value: num(r.v)! }]));
  }

  /**
   * The authenticated client's rows of a client flow measure (the income received), each dated by its
   * payment (the secondary date when the measure declares one), with from < date <= to.
   */
  async clientFlows(measure: string, clientId: string, from: string, to: string): Promise<Array<{ id: string; date: string; value: number }>> {
    const m = this.catalog.measures[measure];
    if (!m || !m.client_column || m.kind !== 'flow') throw new CotaError('BAD_REQUEST', `Não conheço a medida '${measure.slice(0, 48)}'.`);
    const d = m.secondary_date_column ? `COALESCE(${q(m.secondary_date_column)}, ${q(m.date_column)})::date` : `${q(m.date_column)}::date`;
    const rows = await this.run(
      `SELECT ${q(m.subject_column)} AS id, ${d}::text AS d, ${q(m.value_column)}::numeric AS v FROM ${q(m.table)}
        WHERE ${q(m.client_column)} = $1 AND ${d} > $2::date AND ${d} <= $3::date AND ${q(m.value_column)} IS NOT NULL ORDER BY 2, 1`,
      [clientId, from, to],
    );
    return rows.map((r) => ({ id: String(r.id), date: String(r.d), value: num(r.v) ?? 0 }));
  }

  /** The client's funds and their market values (the catalog's portfolio table, filtered by the client). */
  private async positions(clientId: string): Promise<Map<string, number>> {
    const p = this.catalog.portfolio;
    const rows = await this.run(
      `SELECT "${p.ticker_column}" AS ticker, "${p.weight_column}"::numeric AS weight FROM "${p.table}" WHERE "${p.client_column}" = $1 ORDER BY "${p.weight_column}" DESC NULLS LAST`,
      [clientId],
    );
    return new Map(rows.map((r) => [String(r.ticker), num(r.weight) ?? 0]));
  }

  private async run(sql: string, values: unknown[]): Promise<Raw[]> {
    try {
      return await this.runner.run(sql, values, this.opts.statementTimeoutMs);
    } catch (e) {
      const failure = sqlFailure(e);
      if (failure.code === 'INTERNAL') this.opts.onSqlError?.(e as Error, String(values[0] ?? ''));
      throw failure;
    }
  }

  private async forSubject(m: MeasureDef, subject: QuestionSubject, agg: MeasureAgg, question: StructuredQuestion, clientId: string): Promise<MeasureValue> {
    const first = await this.measureFor(m, subject, agg, question, clientId);
    if (m.published && agg === 'value' && first.value !== null && first.date) return { ...first, published: await this.publishedOf(m, m.published, subject.id, first) };
    // Intraday extremes missing in the period: the closes answer instead, and the answer says so.
    if (first.value === null && m.fallback_measure) {
      const f = this.catalog.measures[m.fallback_measure];
      const fAgg = f.aggregations.includes(agg) ? agg : f.default_agg;
      const second = await this.measureFor(f, subject, fAgg, question, clientId);
      if (second.value !== null) return { ...second, fallback: f.name, grain: f.grain };
    }
    return first;
  }

  /** The source's own figure in the value's row, when it differs from the value as said (two decimals). */
  private async publishedOf(m: MeasureDef, p: NonNullable<MeasureDef['published']>, subject: string, v: MeasureValue): Promise<MeasureValue['published']> {
    const rows = await this.run(
      `SELECT ${q(p.value_column)}::numeric AS v FROM ${q(m.table)} WHERE ${q(m.subject_column)} = $1 AND ${q(m.date_column)}::date = $2::date AND ${q(p.value_column)} IS NOT NULL LIMIT 1`,
      [subject, v.date],
    );
    const value = num(rows[0]?.v);
    return value === null || Math.round(value * 100) === Math.round((v.value ?? NaN) * 100) ? null : { value: round(value), date: v.date!, paid_to: null };
  }

  private async measureFor(m: MeasureDef, subject: QuestionSubject, agg: MeasureAgg, question: StructuredQuestion, clientId: string): Promise<MeasureValue> {
    const sql = this.statements(m, question.group_by);
    const sid = subject.kind === 'portfolio' ? null : subject.id;
    const client = m.client_column ? [clientId] : [];
    const { coverage, snapshot } = await this.coverageAndSnapshot(m, sql, sid, client, agg, question);
    const empty = emptyValue(subject, coverage);
    // "Ontem" is yesterday's value only when the snapshot is not yesterday's or older (then it is the latest one).
    const usable = question.period?.kind !== 'previous_session' || (!!snapshot && str(snapshot.d)! < this.today());
    const fromSnapshot = usable ? snapshotValue(m, snapshot, coverage, empty) : null;
    if (fromSnapshot) return fromSnapshot;
    if (m.kind === 'yield') return this.yieldFor(m, subject, question, empty);
    if (!coverage) return empty;
    const period = await this.periodOf(m, sql, sid, client, agg, question, coverage);
    if (!period) return empty;
    // (a condition's values beyond its level come from their own statement, whatever the series' length)
    const c = question.condition && !question.group_by && (agg === 'count' || agg === 'first' || agg === 'last') ? question.condition : null;
    const wantRows = agg === 'list' || question.group_by !== null || m.kind === 'flow';
    const from = statsFrom(m, agg, question, period, wantRows);
    const [statsRows, rowRows, currentRows, beyondRows] = await Promise.all([
      this.run(sql.stats, [sid, from, period.to, ...client]),
      wantRows ? this.run(sql.rows, [sid, period.from, period.to, ...client]) : Promise.resolve([] as Raw[]),
      // "O último dividendo": a snapshot may know a newer one than the series (araquem's last payment).
      agg === 'last' && sql.current && (!question.period || question.period.kind === 'latest') && !c ? this.run(sql.current, [sid]) : Promise.resolve([] as Raw[]),
      c ? this.run(sql.beyond, [sid, period.from, period.to, ...client, c.op, c.value]) : Promise.resolve([] as Raw[]),
    ]);
    const s = statsRows[0] ?? {};
    const skipped = sid !== null && SPIKE_CHECKED_SERIES[m.table] === m.value_column ? await this.skippedDays(m, sid, period) : [];
    const base = { ...periodValue(empty, period, s, rowRows), skipped };
    if (base.count === 0) return base;
    if (isExtremeGroup(question, agg) && question.group_by === 'day' && m.kind !== 'flow') {
      return dailyExtremeValue(agg, base, await this.run(agg === 'max' ? sql.dailyMoves.up : sql.dailyMoves.down, [sid, period.from, period.to, ...client]));
    }
    if (isExtremeGroup(question, agg)) return extremeGroupValue(m, agg, base, s);
    if (question.group_by && m.kind !== 'flow' && MOVES.has(agg)) return groupedMovesValue(agg, base, s);
    if (c) return beyondValue(agg, base, beyondRows);
    return aggregatedValue(m, agg, question, base, s, currentRows[0]);
  }

  /** Days of the period the ingest left out of this series for a corrupted value (plausibility rule series_spike). */
  private async skippedDays(m: MeasureDef, subject: string, period: { from: string; to: string }): Promise<MeasureValue['skipped']> {
    const rows = await this.run(
      `SELECT split_part(row_key, '|', 2) AS d, value AS v FROM wh_quality_flags
        WHERE table_name = $1 AND rule = 'series_spike' AND column_name = $2 AND split_part(row_key, '|', 1) = $3
          AND split_part(row_key, '|', 2) BETWEEN $4 AND $5 ORDER BY 1`,
      [m.table, m.value_column, subject, period.from, period.to],
    );
    return rows.map((r) => ({ date: String(r.d), value: num(r.v) }));
  }

  /**
   * The dates the series has and, for "hoje" of a stock or level with a published snapshot (a fund's
   * NAV per share), that snapshot: so every answer shows one value per metric (the P/VP answer's VPA).
   */
  private async coverageAndSnapshot(
    m: MeasureDef,
    sql: MeasureSql,
    sid: string | null,
    client: string[],
    agg: MeasureAgg,
    question: StructuredQuestion,
  ): Promise<{ coverage: MeasureValue['coverage']; snapshot: Raw | undefined }> {
    const now = agg === 'value' && m.kind !== 'flow' && m.kind !== 'yield' && !!sql.current && endsAtLatest(question.period) && sid !== null;
    const [[cov], [snapshot]] = await Promise.all([this.run(sql.coverage, [sid, ...client]), now ? this.run(sql.current!, [sid]) : Promise.resolve([] as Raw[])]);
    const coverage = cov?.first_date && cov?.last_date ? { from: String(cov.first_date), to: String(cov.last_date) } : null;
    return { coverage, snapshot };
  }

  /**
   * The period asked, within the series' coverage; null when there is no session to speak of.
   * "Quanto variou hoje": the latest day's change, from the close before it (not the whole series);
   * "ontem": the change of the session before the latest (the day before the latest in the series).
   */
  private async periodOf(
    m: MeasureDef,
    sql: MeasureSql,
    sid: string | null,
    client: string[],
    agg: MeasureAgg,
    question: StructuredQuestion,
    coverage: NonNullable<MeasureValue['coverage']>,
  ): Promise<{ from: string; to: string } | null> {
    // "Ontem" when the data stops before yesterday: the latest data, said as such by the narrator.
    const yesterdayMissing = question.period?.kind === 'previous_session' && addDays(this.today(), -1) > coverage.to;
    if (yesterdayMissing) return this.periodOf(m, sql, sid, client, agg, { ...question, period: { kind: 'latest' } }, coverage);
    const oneDay = agg === 'variation' && (question.period?.kind === 'latest' || question.period?.kind === 'previous_session');
    const session = oneDay && question.period?.kind === 'previous_session' ? await this.sessionBefore(sql, sid, coverage.to, client) : coverage.to;
    if (!session) return null;
    return oneDay ? { from: session, to: session } : resolvePeriod(question.period, coverage, null, m.window_grain, this.today());
  }

  /**
   * DY of a period = its dividends per share / the closing price at its end. "Hoje" and the last 12
   * months are the published current DY when the measure declares one (the same number every
   * answer shows), else the same formula over the 12 months to the latest price.
   */
  private async yieldFor(m: MeasureDef, subject: QuestionSubject, question: StructuredQuestion, empty: MeasureValue): Promise<MeasureValue> {
    const p = question.period;
    const current = !p || p.kind === 'latest' || (p.kind === 'trailing' && ((p.unit === 'month' && p.n === 12) || (p.unit === 'year' && p.n === 1)));
    const sql = this.statements(m, null);
    if (current && sql.current) {
      const [row] = await this.run(sql.current, [subject.id]);
      if (row && num(row.v) !== null) {
        const d = str(row.d)!;
        const from = str(row.b_from);
        const price = num(row.b_price);
        // The DY computed from the distributions: their window, sum and count, and the close it divides by.
        if (from && price !== null)
          return {
            ...empty,
            value: round(num(row.v)!),
            date: str(row.b_price_date),
            start: { date: from, value: round(num(row.b_total)!) },
            end: { date: str(row.b_price_date)!, value: price },
            count: Number(row.b_count ?? 0),
            period: { from, to: d },
            price_kind: row.b_price_kind === 'reference' ? 'reference' : 'close',
            published: publishedBeside(row, num(row.v)!),
            sources: String(row.b_source ?? 'derived').split(','),
          };
        return { ...empty, value: round(num(row.v)!), date: d, period: null, sources: [str(row.b_source) ?? (m.current!.table === 'wh_snapshots' ? 'araquem' : 'derived')] };
      }
    }
    const priceDef = this.catalog.measures[m.price_measure as string];
    const priceSql = this.statements(priceDef, null);
    const [pcov] = await this.run(priceSql.coverage, [subject.id]);
    if (!pcov?.last_date) return empty;
    const priceCoverage = { from: String(pcov.first_date), to: String(pcov.last_date) };
    const spec = p && p.kind !== 'latest' ? p : { kind: 'trailing' as const, unit: 'month' as const, n: 12 };
    const period = resolvePeriod(spec, priceCoverage, null, m.window_grain, this.today());
    // The price at the period's end: the last close inside the period (a stale older close would distort it); or the
    // last close of the days the question divides by ("pelo fechamento de 25/06/2025").
    const priceAt = question.price_at ?? period;
    const [div, price] = await Promise.all([this.run(sql.stats, [subject.id, period.from, period.to]), this.run(priceSql.stats, [subject.id, priceAt.from, priceAt.to])]);
    const dv = div[0] ?? {};
    const pr = price[0] ?? {};
    const total = num(dv.total);
    const close = num(pr.last_v);
    const sources = [
      ...new Set(
        [String(dv.sources ?? ''), String(pr.sources ?? '')]
          .flatMap((x) => x.split(','))
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ].sort();
    if (total === null || close === null || close <= 0) return { ...empty, coverage: priceCoverage, period, sources };
    return {
      ...empty,
      coverage: priceCoverage,
      value: round((total / close) * 100),
      date: str(pr.last_d),
      start: { date: period.from, value: round(total) },
      end: { date: str(pr.last_d)!, value: close },
      count: Number(dv.n ?? 0),
      period,
      adjusted: pr.last_is_adj === true,
      sources,
    };
  }
}

/** A value with nothing found: only the subject and the series' coverage. */
function emptyValue(subject: QuestionSubject, coverage: MeasureValue['coverage']): MeasureValue {
  return {
    subject,
    value: null,
    date: null,
    start: null,
    end: null,
    traded: null,
    count: 0,
    rows: [],
    funds: [],
    coverage,
    period: null,
    adjusted: false,
    price_kind: null,
    published: null,
    sources: [],
    extra: [],
    paid_on: null,
    fallback: null,
    skipped: [],
    nearest: null,
    grain: null,
    matched: null,
    measure: null,
    unit: null,
    agg: null,
  };
}

/**
 * The calendar's year or past month asked ("este ano", "mês passado") with no value at all because every series ends
 * before it: the latest year (month) the data reaches, answered instead (the narrator says the data stops before the
 * period asked). Null when anything was found.
 */
function latestPeriodInstead(p: PeriodSpec | null | undefined, values: readonly MeasureValue[], today: string): PeriodSpec | null {
  const thisYear = p?.kind === 'relative_year' && p.offset === 0 && !p.month;
  const pastMonth = p?.kind === 'relative_month' && p.offset < 0 && !!p.calendar;
  if (!(thisYear || pastMonth) || values.length === 0 || values.some((v) => v.value !== null)) return null;
  const ends = values.map((v) => v.coverage?.to).filter((d): d is string => !!d);
  const end = ends.length ? ends.sort().pop()! : null;
  if (!end || end.slice(0, 4) > today.slice(0, 4)) return null;
  if (thisYear) return end.slice(0, 4) < today.slice(0, 4) ? { kind: 'range', from: `${end.slice(0, 4)}-01-01`, to: `${end.slice(0, 4)}-12-31`, grain: 'year' } : null;
  const month = end.slice(0, 7);
  return { kind: 'range', from: `${month}-01`, to: monthEnd(month), grain: 'month' };
}

/** The last day of a month given as YYYY-MM. */
function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/**
 * Periods whose value is the latest data, so a snapshot newer than the series answers them: "hoje", the
 * end of a trailing window ("o P/VP nos últimos 12 meses"), and the calendar's "ontem", "este mês" and
 * "este ano" (a snapshot is never later than today; the narrator says when the data stops before them).
 */
function endsAtLatest(p: PeriodSpec | null | undefined): boolean {
  if (!p || p.kind === 'latest' || p.kind === 'trailing' || p.kind === 'previous_session') return true;
  return (p.kind === 'relative_month' || p.kind === 'relative_year') && p.offset === 0 && !('month' in p && p.month);
}

/** The published snapshot, when it is newer than the series; else null (the series answers). The series' data then reaches its date. */
function snapshotValue(m: MeasureDef, snapshot: Raw | undefined, coverage: MeasureValue['coverage'], empty: MeasureValue): MeasureValue | null {
  if (snapshot && num(snapshot.v) !== null && str(snapshot.d) && (!coverage || str(snapshot.d)! > coverage.to)) {
    const d = str(snapshot.d)!;
    return {
      ...empty,
      coverage: { from: coverage?.from ?? d, to: d },
      value: round(num(snapshot.v)!),
      date: d,
      count: 1,
      grain: 'day',
      sources: [m.current!.table === 'wh_snapshots' ? 'araquem' : 'derived'],
    };
  }
  return null;
}

/** Where the statistics start: earlier than the period for a day's value, later for the latest alone. */
function statsFrom(m: MeasureDef, agg: MeasureAgg, question: StructuredQuestion, period: { from: string; to: string }, wantRows: boolean): string {
  // The value "on" a day is the last one on or before it (a holiday, a monthly rate published for its
  // month): the answer states the value's own date.
  const day = isOneDay(question.period) && (agg === 'value' || agg === 'last');
  // "A Selic hoje" needs the series' last value, not statistics over its forty years.
  // (Only for the latest: the series' last date is inside the window by definition.)
  const latestOnly = (!question.period || question.period.kind === 'latest') && (agg === 'value' || agg === 'last') && !wantRows;
  const recent = addDays(period.to, m.grain === 'month' ? -62 : -10);
  return day ? addDays(period.from, m.grain === 'month' ? -62 : -10) : latestOnly && recent > period.from ? recent : period.from;
}

const MOVES = new Set<MeasureAgg>(['changes', 'rises', 'falls']);

/**
 * "Em quantos meses de 2024 o IFIX caiu?": the months (or years) whose last value ended below (above) the one before,
 * the first compared with the last value before the period. The rows are each group's last value, oldest first.
 */
function groupedMovesValue(agg: MeasureAgg, base: MeasureValue, s: Raw): MeasureValue {
  let previous = num(s.base_v);
  let rises = 0;
  let falls = 0;
  for (const row of base.rows) {
    if (previous !== null && row.value > previous) rises++;
    if (previous !== null && row.value < previous) falls++;
    previous = row.value;
  }
  const value = agg === 'rises' ? rises : agg === 'falls' ? falls : rises + falls;
  return { ...base, value, date: base.rows[base.rows.length - 1]?.date ?? base.date, adjusted: false };
}

/** What the period holds before any aggregation: its rows (capped), row count, sources and neighbours. */
function periodValue(empty: MeasureValue, period: { from: string; to: string }, s: Raw, rowRows: Raw[]): MeasureValue {
  const sources = String(s.sources ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const rows = rowRows.slice(0, ROW_CAP).map((r) => ({
    date: String(r.d).slice(0, 10),
    value: round(num(r.v) ?? 0),
    ...(num(r.tq) !== null && num(r.tp) !== null ? { quantity: num(r.tq)!, price: num(r.tp)! } : {}),
    // (a trade of the whole portfolio says its fund; of a measure counting both sides, which one it was)
    ...(num(r.tq) !== null && empty.subject.kind === 'portfolio' && r.f ? { fund: String(r.f) } : {}),
    ...(r.ts === 'buy' || r.ts === 'sell' ? { side: r.ts as 'buy' | 'sell' } : {}),
    ...(r.d2 ? { other_date: String(r.d2).slice(0, 10) } : {}),
  }));
  // A client's total over the whole portfolio says which funds its rows were ("1 venda: XPIN11").
  const funds =
    empty.subject.kind === 'portfolio'
      ? String(s.funds ?? '')
          .split(',')
          .filter(Boolean)
      : [];
  return {
    ...empty,
    period,
    count: Number(s.n ?? 0),
    rows,
    funds,
    sources: [...new Set(sources)].sort(),
    adjusted: s.any_adj === true,
    nearest: { before: str(s.base_d), after: str(s.after_d) },
  };
}

/** "O melhor mês do IFIX em 2023": an extreme among the groups' own figures, when the question groups. */
const isExtremeGroup = (question: StructuredQuestion, agg: MeasureAgg) => !!question.extreme_group && question.group_by !== null && (agg === 'max' || agg === 'min');

/**
 * Each group's own figure, then the extreme one: a level's variation from the previous group's last
 * value (the first group's from the value before the period), a flow's total. The rows become those figures.
 */
function extremeGroupValue(m: MeasureDef, agg: MeasureAgg, base: MeasureValue, s: Raw): MeasureValue {
  const level = m.kind !== 'flow';
  const figures: Array<{ date: string; value: number; start: MeasureValue['start']; end: MeasureValue['end'] }> = [];
  let previous = level ? at(s.base_d, s.base_v) : null;
  for (const row of base.rows) {
    if (!level) figures.push({ date: row.date, value: row.value, start: null, end: null });
    else if (previous && previous.value !== 0) figures.push({ date: row.date, value: round((row.value / previous.value - 1) * 100), start: previous, end: row });
    if (level) previous = row;
  }
  if (figures.length === 0) return { ...base, value: null };
  const pick = figures.reduce((a, b) => ((agg === 'max' ? b.value > a.value : b.value < a.value) ? b : a));
  // Groups tied at the extreme are all said ("R$ 1,10 em todos os 12 meses").
  const tied = figures.filter((f) => Math.round(f.value * 100) === Math.round(pick.value * 100)).map((f) => f.date);
  const rows = figures.map((f) => ({ date: f.date, value: f.value }));
  return { ...base, value: pick.value, date: pick.date, start: pick.start, end: pick.end, rows, matched: tied.length > 1 ? tied : null };
}

/** The day whose move from the close before it is the extreme (days tied at it all said); its rows are those days only. */
function dailyExtremeValue(agg: MeasureAgg, base: MeasureValue, moves: Raw[]): MeasureValue {
  const days = moves.map((r) => ({ date: str(r.d)!, value: round(num(r.r)!), start: at(r.pd, r.p)!, end: at(r.d, r.v)! }));
  const pick = days[0];
  if (!pick) return { ...base, value: null };
  const tied = days.filter((d) => Math.round(d.value * 100) === Math.round(pick.value * 100));
  return {
    ...base,
    value: pick.value,
    date: pick.date,
    start: pick.start,
    end: pick.end,
    rows: tied.map((d) => ({ date: d.date, value: d.value })),
    matched: tied.length > 1 ? tied.map((d) => d.date) : null,
  };
}

/**
 * A condition over the period's values: "quantas vezes o IPCA passou de 1%" counts those beyond the level (and
 * says which); "a primeira (última) vez que o IFIX fechou acima de 3.500" is the first (last) of them.
 */
function beyondValue(agg: MeasureAgg, base: MeasureValue, beyond: Raw[]): MeasureValue {
  const rows = beyond.map((r) => ({ date: str(r.d)!, value: num(r.v)! }));
  const n = Number(beyond[0]?.n ?? 0);
  if (agg === 'count') return { ...base, value: n, date: null, matched: rows.map((r) => r.date) };
  const pick = agg === 'first' ? rows[0] : rows[rows.length - 1];
  return { ...base, value: pick?.value ?? null, date: pick?.date ?? null, matched: pick ? [pick.date] : [] };
}

/** The answer over a non-empty period: a newer snapshot payment, or the aggregate with its extras. */
function aggregatedValue(m: MeasureDef, agg: MeasureAgg, question: StructuredQuestion, base: MeasureValue, s: Raw, cur: Raw | undefined): MeasureValue {
  const n = base.count;
  // The snapshot dates a payment: it is newer only when later than the series' last payment (or record) date.
  if (cur && num(cur.v) !== null && str(cur.d) && str(cur.d)! > (str(s.last_d2) ?? str(s.last_d) ?? '')) {
    // The snapshot dates the payment, not the record date.
    return { ...base, value: num(cur.v), date: null, paid_on: str(cur.d), sources: ['araquem'] };
  }
  const namedDay = question.period?.kind === 'range' && question.period.grain === 'days';
  const main = aggregate(m, agg, s, n, namedDay);
  const extra = (question.also ?? [])
    .filter((a) => a !== agg && m.aggregations.includes(a))
    .map((a) => {
      const x = aggregate(m, a, s, n, namedDay);
      return { agg: a, value: x.value, date: x.date };
    });
  const secondDate = agg === 'last' || agg === 'value' ? s.last_d2 : agg === 'max' ? s.max_d2 : agg === 'min' ? s.min_d2 : null;
  return { ...base, ...main, extra, paid_on: str(secondDate) };
}
