import { Agg, QueryParams, queryParams } from '@cota/contracts';
import { normalize } from '@cota/text';
import { AnalysedQuestion } from './analysis';
import { EntityParamsSpec, FilterKey, ParamPolicySpec } from './param-policy.schema';
import { ConditionColumn, conditionColumn, conditionsOn } from './conditions';
import { CompiledPhrase, compilePhrase, hasPhrase } from './phrases';

export interface InferredParams {
  params: QueryParams;
  ticker_sources: Array<'text' | 'context'>;
  ticker_required: boolean;
  /** What each parameter came from, for meta.planner.reason. */
  notes: string[];
}

/** A year written out ("em 2024"): it wins over "esse ano". */
const EXPLICIT_YEAR = /\b(?:19|20)\d{2}\b/;

type Vocab = Array<{ value: string; phrases: CompiledPhrase[] }>;

const compileVocab = (v: Record<string, string[]>): Vocab => Object.entries(v).map(([value, words]) => ({ value, phrases: words.map(compilePhrase) }));

const alternation = (words: string[]) =>
  words
    .map((w) => normalize(w))
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');

/**
 * Parameter inference as data (policies/param_inference.yaml): aggregation, window, limit,
 * order, ranking column and filters from the question text, then clipped to what the entity
 * declares. Tickers come from the text only; the context service may add one later.
 */
/** Words of filter phrases that name no filter by themselves ("fundos de papel"). */
const GENERIC_LIST_WORDS = new Set(['fundo', 'fundos', 'fii', 'fiis', 'de', 'do', 'da', 'dos', 'das', 'e']);

/**
 * "número de cotistas" counts; "número de inscrição no CNPJ", "número do processo" name an identifier: a count
 * phrase ending in "de" counts only what follows it in the plural.
 */
function countsPlural(tokens: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.at(-1) !== 'de') return true;
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (phrase.every((w, j) => tokens[i + j] === w)) {
      const next = tokens[i + phrase.length];
      if (!next || next.endsWith('s')) return true;
    }
  }
  return false;
}

export class ParamInference {
  private readonly agg: Array<{ agg: Agg; phrases: CompiledPhrase[]; vetoes: Array<{ phrase: CompiledPhrase; entities: Set<string> | null }> }>;
  private readonly aggOverrides: Array<{ agg: Agg; all: CompiledPhrase[][]; entities: Set<string> }>;
  private readonly filters: Record<Exclude<FilterKey, 'date'>, Vocab>;
  private readonly rankColumns: Vocab;
  private readonly worst: CompiledPhrase[];
  private readonly crossFund: CompiledPhrase[];
  private readonly yearClose: CompiledPhrase[];
  private readonly redirects: Array<{ entity: string; order_by: string; order: 'asc' | 'desc'; words: CompiledPhrase[]; asc: CompiledPhrase[]; desc: CompiledPhrase[] }>;
  private readonly asc: CompiledPhrase[];
  private readonly desc: CompiledPhrase[];
  private readonly numberRe: string;
  private readonly monthRe: string;
  private readonly units: Record<'months' | 'years' | 'days' | 'weeks' | 'rows', Set<string>>;
  private readonly unitRe: string;
  private readonly numbers: Map<string, number>;
  private readonly months: Map<string, number>;
  /** Compiled once: inference runs per question and must stay far below a millisecond. */
  private readonly re: Record<'lastN' | 'nLast' | 'monthYear' | 'top' | 'nBest' | 'bestN' | 'theN' | 'nFunds' | 'dayMonthYear', RegExp>;

  private readonly conditionCols: readonly ConditionColumn[];
  /** Per entity, the condition columns it can be screened on. */
  private readonly entityConditionCols: ReadonlyMap<string, readonly ConditionColumn[]>;

  /** Single words that name a filter value (segments), for follow-ups that only change the filter. */
  private readonly filterWords: Set<string>;

  /** Whether a normalised word names a filter value ("logistica", "papel"). */
  isFilterWord(token: string): boolean {
    return this.filterWords.has(token);
  }

  constructor(readonly spec: ParamPolicySpec) {
    this.conditionCols = Object.entries(spec.condition_words).map(([column, words]) => conditionColumn(column, words));
    this.entityConditionCols = new Map(Object.entries(spec.entities).map(([name, e]) => [name, this.conditionCols.filter((c) => e.conditions.includes(c.column))]));
    // Every word of a filter's phrases ("lajes corporativas"), but the words every list has ("fundos de").
    this.filterWords = new Set(
      [spec.filters.sector, spec.filters.fund_type]
        .flatMap((v) => Object.values(v).flat())
        .flatMap((w) => normalize(w).split(' '))
        .filter((w) => w && !GENERIC_LIST_WORDS.has(w)),
    );
    // Exact words, not stems: "quanto" must not read as "quantos".
    const exact = (text: string): CompiledPhrase => {
      const words = normalize(text).split(' ').filter(Boolean);
      return { text, words, stems: words };
    };
    this.agg = spec.agg_precedence.map((agg) => ({
      agg,
      phrases: spec.agg_words[agg].map(exact),
      vetoes: spec.agg_vetoes.filter((v) => v.agg === agg).flatMap((v) => v.phrases.map((p) => ({ phrase: exact(p), entities: v.entities ? new Set(v.entities) : null }))),
    }));
    this.aggOverrides = spec.agg_overrides.map((o) => ({ agg: o.agg, all: o.all.map((g) => g.map(compilePhrase)), entities: new Set(o.entities) }));
    this.filters = {
      indicator: compileVocab(spec.filters.indicator),
      currency: compileVocab(spec.filters.currency),
      index: compileVocab(spec.filters.index),
      benchmark: compileVocab(spec.filters.benchmark),
      sector: compileVocab(spec.filters.sector),
      fund_type: compileVocab(spec.filters.fund_type),
      loss_risk: compileVocab(spec.filters.loss_risk),
    };
    this.rankColumns = compileVocab(spec.ranking.columns);
    if (!(spec.ranking.segment_order in spec.ranking.columns)) throw new Error(`param_inference.yaml: ranking.segment_order "${spec.ranking.segment_order}" is not a rank column`);
    this.worst = spec.ranking.worst_words.map(compilePhrase);
    this.crossFund = spec.ranking.cross_fund_words.map(compilePhrase);
    this.yearClose = spec.year_close_words.map(compilePhrase);
    this.redirects = spec.ranking.redirects.map((r) => ({
      entity: r.entity,
      order_by: r.order_by,
      order: r.order,
      words: r.words.map(compilePhrase),
      // Direction words are exact: "menor" must not match "menos" through the stemmer.
      asc: r.asc_words.map(exact),
      desc: r.desc_words.map(exact),
    }));
    this.asc = spec.order_words.asc.map(compilePhrase);
    this.desc = spec.order_words.desc.map(compilePhrase);
    this.numbers = new Map(Object.entries(spec.number_words).map(([w, n]) => [normalize(w), n]));
    this.months = new Map(Object.entries(spec.month_names).map(([w, n]) => [normalize(w), n]));
    this.numberRe = `(\\d{1,4}|${alternation(Object.keys(spec.number_words))})`;
    this.monthRe = `(${alternation(Object.keys(spec.month_names))})`;
    const u = spec.window_units;
    this.units = {
      months: new Set(u.months.map(normalize)),
      years: new Set(u.years.map(normalize)),
      days: new Set(u.days.map(normalize)),
      weeks: new Set(u.weeks.map(normalize)),
      rows: new Set(u.rows.map(normalize)),
    };
    this.unitRe = `(${alternation([...u.rows, ...u.months, ...u.years, ...u.days, ...u.weeks])}|[a-z]+)`;
    const last = `(?:ultim[oa]s|proxim[oa]s)`;
    this.re = {
      lastN: new RegExp(`\\b${last}\\s+${this.numberRe}\\s+${this.unitRe}`),
      nLast: new RegExp(`\\b${this.numberRe}\\s+${last}\\s+${this.unitRe}`),
      monthYear: new RegExp(`\\b${this.monthRe} de (\\d{4})\\b`),
      top: new RegExp(`\\btop\\s+${this.numberRe}\\b`),
      nBest: new RegExp(`\\b${this.numberRe}\\s+(?:maiores|melhores|piores|menores|primeiros|primeiras)\\b`),
      bestN: new RegExp(`\\b(?:maiores|melhores|piores|menores)\\s+${this.numberRe}\\b`),
      // "quais os 3 com menor p/vp": the funds picked, counted.
      theN: new RegExp(`\\b(?:os|as)\\s+${this.numberRe}\\s+(?:com|que|de|mais|menos)\\b`),
      // "os 5 fiis com menos volatilidade": a count of funds is a list size.
      nFunds: new RegExp(`\\b${this.numberRe}\\s+(?:fiis|fundos)\\b`),
      dayMonthYear: new RegExp(`\\b(\\d{1,2})(?: o)? de ${this.monthRe} de (\\d{4})\\b`),
    };
  }

  entitySpec(entity: string): EntityParamsSpec | undefined {
    return this.spec.entities[entity];
  }

  /** Every column a condition can be on, with the words that name it (policies/param_inference.yaml condition_words). */
  conditionColumns(): readonly ConditionColumn[] {
    return this.conditionCols;
  }

  /**
   * `conditionText`: the question as asked, when `q` is the question without its conditions (the
   * planner strips them so that "com valor de mercado acima de 1 bi" does not pick the ranking's order).
   */
  infer(q: AnalysedQuestion, entity: string | null, conditionText: string = q.original): InferredParams {
    const notes: string[] = [];
    const tickers = q.tickers.tickers;
    const base: QueryParams = queryParams({ ticker: tickers.length === 1 ? tickers[0] : null, tickers: tickers.slice(0, 20) });
    const spec = entity ? this.spec.entities[entity] : undefined;
    if (!spec) return { params: base, ticker_sources: [], ticker_required: false, notes };

    const n = q.normalized;
    const p: QueryParams = { ...base, agg: spec.agg, order: spec.order, limit: spec.limit };
    // One step per parameter, in this order: a later step reads what an earlier one decided (the
    // window picks the aggregation, the count the order, the filters the ticker's sources).
    const { window: spoken, counted } = this.readWindow(n, notes);
    const window = this.readDate(q, entity!, spec, p, spoken, notes);
    const overridden = this.settleAgg(q, entity!, spec, p, window, counted, notes);
    // The "12 meses" of an overriding phrase defines the stored figure, not a window of rows.
    p.window = p.agg === 'latest' ? (overridden ? spec.latest_window : (window ?? spec.latest_window)) : window;
    const topN = this.readLimit(n, p, counted);
    // Order: recent first unless the text asks otherwise.
    if (this.asc.some((w) => hasPhrase(q.stems, q.stemSet, w.stems, 0))) p.order = 'asc';
    else if (this.desc.some((w) => hasPhrase(q.stems, q.stemSet, w.stems, 0)) || counted) p.order = 'desc';
    if (entity === this.spec.ranking.entity) this.readRanking(q, p, tickers.length, notes);
    this.readFilters(q, spec, p, tickers.length);
    this.readConditions(conditionText, n, entity!, spec, p, tickers.length, notes);
    return this.tickerNeeds(q, n, spec, p, topN, notes);
  }

  /** Window and counted nouns: "últimos 6 meses", "os 24 últimos preços", "último ano". */
  private readWindow(n: string, notes: string[]): { window: string | null; counted: number | null } {
    const m = this.re.lastN.exec(n) ?? this.re.nLast.exec(n);
    if (m) {
      const count = this.toNumber(m[1]);
      const unit = m[2];
      const rest = n.slice(m.index + m[0].length);
      if (!count) return { window: null, counted: null };
      if (this.units.rows.has(unit) || (this.units.days.has(unit) && /^\s*uteis\b/.test(rest))) return { window: `rows:${count}`, counted: null };
      if (this.units.months.has(unit)) return { window: `months:${count}`, counted: null };
      if (this.units.years.has(unit)) return { window: `months:${count * 12}`, counted: null };
      if (this.units.weeks.has(unit)) return { window: `days:${count * 7}`, counted: null };
      if (this.units.days.has(unit)) return { window: `days:${count}`, counted: null };
      return { window: null, counted: count };
    }
    if (/\bultimo ano\b/.test(n)) return { window: 'months:12', counted: null };
    if (/\b(ultimo|este|esse|neste|nesse|deste|desse) mes\b/.test(n)) return { window: 'months:1', counted: null };
    if (/\b(ultima|esta|nesta|desta) semana\b/.test(n)) return { window: 'days:7', counted: null };
    if (/\b(este|esse|neste|nesse|deste|desse) ano\b/.test(n) && !EXPLICIT_YEAR.test(n)) {
      // "esse ano" reads as a rolling year, not the calendar year of the clock: the data may end
      // before the current year starts (it ends in 2025 while the clock says 2026), and
      // year:<current> would answer "no data". A year written in the question wins (below).
      notes.push('"esse ano" read as the last 12 months');
      return { window: 'months:12', counted: null };
    }
    if (/\b(ano passado|ano anterior)\b/.test(n)) return { window: `year:${new Date().getUTCFullYear() - 1}`, counted: null };
    return { window: null, counted: null };
  }

  /**
   * Dates: "em 13/03/2025", "no dia 2 de janeiro de 2024" (set as the date filter); month and year:
   * "em março de 2025", "08/2023" (a date or a year's window). Returns the window, the year's when read.
   */
  private readDate(q: AnalysedQuestion, entity: string, spec: EntityParamsSpec, p: QueryParams, window: string | null, notes: string[]): string | null {
    const n = q.normalized;
    const date = this.findDate(q.folded, n);
    if (date && spec.filters.includes('date')) {
      p.filters.date = date;
      notes.push(`date=${date}`);
      return window;
    }
    if (window) return window;
    const my = this.re.monthYear.exec(n) ?? /\b(\d{1,2})\/(\d{4})\b/.exec(q.folded);
    const year = my ? my[2] : /\b(?:em|de|no ano de|durante|ano)\s+((?:19|20)\d{2})\b/.exec(n)?.[1];
    const monthEnd = my ? this.monthEnd(my[1], Number(my[2])) : null;
    // "IPCA de setembro de 2025": one value of an entity that answers "as of a date" (latest by
    // default, filtered by date: the executor returns the newest row on or before it), so the month
    // is its last day. A list entity keeps the whole year: no window form names a calendar month.
    if (monthEnd && spec.filters.includes('date') && spec.agg === 'latest' && this.explicitAgg(q, entity) === null) {
      p.filters.date = monthEnd;
      notes.push(`month ${my![1]} of ${year} read as date=${monthEnd} (latest on or before)`);
      return window;
    }
    if (!year) return window;
    if (my) notes.push(`month ${my[1]} of ${year} read as year:${year}`);
    return `year:${year}`;
  }

  /** The aggregation asked, set on `p` when the entity offers it; whether an override phrase chose it. */
  private settleAgg(q: AnalysedQuestion, entity: string, spec: EntityParamsSpec, p: QueryParams, window: string | null, counted: number | null, notes: string[]): boolean {
    const override = this.overridingAgg(q, entity, notes);
    let agg = override ?? this.wordAgg(q, entity, notes);
    // A stretch of time or a count of rows asks for rows, unless the text asked for something else
    // ("último dividendo de 2024" stays latest within the year).
    // "Quanto fechou o Ibovespa em 2024?": the close of a year is its last value.
    if (agg === null && window?.startsWith('year:') && spec.aggs.includes('latest') && this.yearClose.some((w) => hasPhrase(q.stems, q.stemSet, w.stems, 0))) {
      agg = 'latest';
      notes.push(`agg=latest: the close of ${window}`);
    }
    if (agg === null && (counted || window) && spec.aggs.includes('list')) agg = 'list';
    if (agg === 'latest' && counted) agg = 'list';
    if (agg && spec.aggs.includes(agg)) p.agg = agg;
    else if (agg) notes.push(`agg=${agg} not offered by ${entity}; kept ${spec.agg}`);
    return override !== null;
  }

  /** An override: every group of its phrases said, for one of its entities ("dy" + "12 meses"). */
  private overridingAgg(q: AnalysedQuestion, entity: string, notes: string[]): Agg | null {
    for (const o of this.aggOverrides) {
      if (!o.entities.has(entity)) continue;
      const hits = o.all.map((g) => g.find((ph) => hasPhrase(q.stems, q.stemSet, ph.stems, 0)));
      if (hits.every(Boolean)) {
        notes.push(`agg=${o.agg} from "${hits.map((h) => h!.text).join(' + ')}" (${entity})`);
        return o.agg;
      }
    }
    return null;
  }

  /** Aggregation, by precedence; a veto phrase ("preço médio") cancels its word. */
  private wordAgg(q: AnalysedQuestion, entity: string, notes: string[]): Agg | null {
    for (const a of this.agg) {
      const vetoed = a.vetoes.some((v) => (!v.entities || v.entities.has(entity)) && hasPhrase(q.tokens, q.tokenSet, v.phrase.stems, 0));
      if (vetoed) continue;
      const hit = a.phrases.find((ph) => hasPhrase(q.tokens, q.tokenSet, ph.stems, 0) && (a.agg !== 'count' || countsPlural(q.tokens, ph.stems)));
      if (hit) {
        notes.push(`agg=${a.agg} from "${hit.text}"`);
        return a.agg;
      }
    }
    return null;
  }

  /** Limit: "top 10", "os 24 últimos preços", "5 maiores". Returns the list size named, if any. */
  private readLimit(n: string, p: QueryParams, counted: number | null): number | null {
    const top = this.re.top.exec(n) ?? this.re.nBest.exec(n) ?? this.re.bestN.exec(n) ?? this.re.theN.exec(n);
    let topN = top ? this.toNumber(top[1]) : null;
    if (topN === null) {
      // "um fundo" is an article, not a list size: counts of funds start at 2.
      const funds = this.re.nFunds.exec(n);
      const count = funds ? this.toNumber(funds[1]) : null;
      if (count !== null && count >= 2) topN = count;
    }
    if (topN) p.limit = topN;
    else if (counted) p.limit = counted;
    if (topN || counted) p.limit_asked = p.limit;
    return topN;
  }

  /** The ranking entity: its rank column, best first (worst with "piores"), a default size, no window. */
  private readRanking(q: AnalysedQuestion, p: QueryParams, tickerCount: number, notes: string[]): void {
    const col = this.rankColumns.find((c) => c.phrases.some((ph) => hasPhrase(q.stems, q.stemSet, ph.stems, 1)));
    p.order_by = col?.value ?? null;
    // Said, not hidden: without a rank column named the executor uses the entity's default order.
    if (!col) notes.push("no rank column named: the ranking entity's default order");
    // Rank position 1 is the best: "top" reads ascending, "piores" from the bottom.
    p.order = this.worst.some((w) => hasPhrase(q.stems, q.stemSet, w.stems, 0)) ? 'desc' : 'asc';
    p.limit = p.limit ?? this.spec.ranking.default_limit;
    p.window = null;
    if (tickerCount === 0) p.agg = 'list';
  }

  /** The segment or type of fund the words name ("papel", "logística"), whatever else is said; null when none. */
  classSaid(q: AnalysedQuestion): string | null {
    return this.filterSaid(q, 'sector') ?? this.filterSaid(q, 'fund_type');
  }

  /** The value of a filter the words name ("logística" for the sector), or null. */
  private filterSaid(q: AnalysedQuestion, key: Exclude<FilterKey, 'date'>): string | null {
    return this.filters[key].find((v) => v.phrases.some((ph) => hasPhrase(q.stems, q.stemSet, ph.stems, 0)))?.value ?? null;
  }

  /** The entity's filters the words name (the indicator, the currency, the segment). */
  private readFilters(q: AnalysedQuestion, spec: EntityParamsSpec, p: QueryParams, tickerCount: number): void {
    for (const key of spec.filters) {
      if (key === 'date') continue;
      // "o KNRI11 é papel ou tijolo?": with a fund named, a kind of fund is what is asked, not a filter.
      if ((key === 'sector' || key === 'fund_type') && tickerCount > 0) continue;
      const value = this.filterSaid(q, key);
      if (value) p.filters[key] = value;
    }
  }

  /** "DY acima de 15%", "valor de mercado acima de 1 bi": conditions on the entity's own columns. */
  private readConditions(conditionText: string, n: string, entity: string, spec: EntityParamsSpec, p: QueryParams, tickerCount: number, notes: string[]): void {
    if (!spec.conditions.length) return;
    const conditions = conditionsOn(conditionText, this.entityConditionCols.get(entity) ?? []);
    if (!conditions.length) return;
    p.conditions = conditions;
    notes.push(`conditions: ${conditions.map((c) => `${c.column} ${c.op === 'gt' ? '>' : '<'} ${c.value}`).join(', ')}`);
    // "Quantos fundos de papel têm DY acima de 15%?": every fund that meets them, so the count is whole.
    if (/\bquant[oa]s\b/.test(n) && tickerCount === 0) p.limit = 1000;
    // "FOFs com P/VP abaixo de 0,75": the funds that pass, nearest the bound's far side first (lowest P/VP), when
    // the entity ranks by that column; its implausible values are then left out and said, as in a ranking.
    const first = conditions[0];
    if (tickerCount === 0 && !p.order_by && this.redirects.some((r) => r.entity === entity && r.order_by === first.column)) {
      p.order_by = first.column;
      p.order = first.op === 'lt' ? 'asc' : 'desc';
      notes.push(`ordered by ${first.column} ${p.order}`);
    }
  }

  /** Where the ticker may come from, and whether one is needed: a list across funds takes none from the conversation. */
  private tickerNeeds(q: AnalysedQuestion, n: string, spec: EntityParamsSpec, p: QueryParams, topN: number | null, notes: string[]): InferredParams {
    const tickers = q.tickers.tickers;
    // "top 5 FIIs por DY" after talking about HGLG11 is about all funds, not HGLG11.
    let sources = [...spec.ticker.source];
    // So is a kind of fund ("e os de logística?"): a list across funds, never the conversation's fund.
    const ofAKind = 'sector' in p.filters || 'fund_type' in p.filters;
    const crossFund = tickers.length === 0 && !spec.ticker.required && (topN !== null || ofAKind || this.crossFund.some((w) => hasPhrase(q.stems, q.stemSet, w.stems, 0)));
    if (crossFund && sources.includes('context')) {
      sources = sources.filter((s) => s !== 'context');
      notes.push('list across funds: no ticker from context');
    }

    // "qual o cnpj?" with no fund, no filter and no list words asks about one fund: which one?
    const listCue = crossFund || topN !== null || Object.keys(p.filters).length > 0 || /\b(?:fundos|fiis|todos|todas|lista|listar|ranking)\b/.test(n);
    const oneFund = spec.ticker.list_needs_cue && tickers.length === 0 && !listCue;
    if (oneFund) notes.push('no fund and no list asked: one fund, from the conversation or asked for');

    return {
      params: p,
      ticker_sources: sources,
      ticker_required: spec.ticker.required || oneFund,
      notes,
    };
  }

  /**
   * "Quantos fundos de shopping têm P/VP abaixo de 1?": a condition on a metric the rankings entity (or `from`, the entity
   * the words leaned to) lacks screens the entity that has it (a redirect's), ordered as that redirect orders it.
   */
  conditionRedirect(text: string, from: string = this.spec.ranking.entity): { entity: string; order_by: string; order: 'asc' | 'desc'; matched: string; directed: boolean } | null {
    const routed = this.spec.entities[from];
    for (const c of conditionsOn(text, this.conditionColumns())) {
      if (routed?.conditions.includes(c.column)) continue;
      const r = this.redirects.find((x) => this.spec.entities[x.entity]?.conditions.includes(c.column));
      if (r) return { entity: r.entity, order_by: r.order_by, order: r.order, matched: `${c.column} ${c.op === 'gt' ? '>' : '<'} ${c.value}`, directed: false };
    }
    return null;
  }

  /**
   * A ranking asked by a metric the rankings entity has no rank column for ("ranking de fundos por
   * P/VP"): the entity and column that rank it instead, with the order the question asks. Null when a
   * rank column is named or no redirect matches.
   */
  rankingRedirect(q: AnalysedQuestion): { entity: string; order_by: string; order: 'asc' | 'desc'; matched: string; directed: boolean } | null {
    if (this.rankColumns.some((c) => c.phrases.some((ph) => hasPhrase(q.stems, q.stemSet, ph.stems, 1)))) return null;
    for (const r of this.redirects) {
      const hit = r.words.find((ph) => hasPhrase(q.stems, q.stemSet, ph.stems, 1));
      if (!hit) continue;
      const asc = r.asc.some((w) => hasPhrase(q.tokens, q.tokenSet, w.stems, 0));
      const desc = r.desc.some((w) => hasPhrase(q.tokens, q.tokenSet, w.stems, 0));
      const order = asc && !desc ? 'asc' : desc && !asc ? 'desc' : r.order;
      return { entity: r.entity, order_by: r.order_by, order, matched: hit.text, directed: asc !== desc };
    }
    return null;
  }

  /** The aggregation a word of the question asks for (ignoring overrides), or null. */
  private explicitAgg(q: AnalysedQuestion, entity: string): Agg | null {
    for (const a of this.agg) {
      if (a.vetoes.some((v) => (!v.entities || v.entities.has(entity)) && hasPhrase(q.tokens, q.tokenSet, v.phrase.stems, 0))) continue;
      if (a.phrases.some((ph) => hasPhrase(q.tokens, q.tokenSet, ph.stems, 0))) return a.agg === 'latest' ? null : a.agg;
    }
    return null;
  }

  /** The last day of a month named by word or number ("setembro", "09") of a year, ISO. */
  private monthEnd(month: string, year: number): string | null {
    const mo = /^\d+$/.test(month) ? Number(month) : (this.months.get(month) ?? 0);
    if (mo < 1 || mo > 12 || year < 1900 || year > 2100) return null;
    const last = new Date(Date.UTC(year, mo, 0)).getUTCDate();
    return `${year}-${String(mo).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
  }

  private toNumber(word: string): number | null {
    if (/^\d+$/.test(word)) {
      const v = Number(word);
      return v >= 1 && v <= 1000 ? v : null;
    }
    return this.numbers.get(word) ?? null;
  }

  private findDate(folded: string, n: string): string | null {
    const pad = (x: number) => String(x).padStart(2, '0');
    const valid = (y: number, mo: number, d: number) => {
      const dt = new Date(Date.UTC(y, mo - 1, d));
      return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
    };
    const num = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(folded);
    if (num) {
      const [d, mo, y] = [Number(num[1]), Number(num[2]), Number(num[3])];
      if (valid(y, mo, d)) return `${y}-${pad(mo)}-${pad(d)}`;
    }
    const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(folded);
    if (iso && valid(Number(iso[1]), Number(iso[2]), Number(iso[3]))) return iso[0];
    const words = this.re.dayMonthYear.exec(n);
    if (words) {
      const [d, mo, y] = [Number(words[1]), this.months.get(words[2]) ?? 0, Number(words[3])];
      if (valid(y, mo, d)) return `${y}-${pad(mo)}-${pad(d)}`;
    }
    return null;
  }
}
