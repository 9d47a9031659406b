import type { PlanResponse } from '@cota/contracts';
import type { EntityClass } from '@cota/catalog';
import { withoutTickers } from '@cota/text';
import type { AnalysedQuestion } from './analysis';
import { withoutConditions } from './conditions';
import { Ellipsis, detectEllipsis } from './elliptic';
import type { Candidate, Ontology } from './ontology';
import type { InferredParams, ParamInference } from './params';
import { planResponse } from './plan-response';

/** Candidates kept in the planner's meta. */
const MAX_CANDIDATES = 5;

/** How a segment's list without a measure is reasoned ("quais fiis de hotel existem?"). */
export const SEGMENT_LIST = "a segment's funds, no measure named";
const SEGMENT_RANKED = 'a segment ranked by the measure named';

/** "o KNIP11 é de papel?", "ele é um fundo de logística?": the question's shape when a class is asked of a fund. */
const IS_OF_A_CLASS =
  /^(?:o |a )?(?:ele |ela |esse fundo |este fundo |esse fii |este fii )?(?:e|eh|seria|sera) (?:um |uma )?(?:fii |fundo |fundo imobiliario )?(?:de |do |da )?[a-z ]{3,40}$/;
/** Verbs that make the fund named what has the thing asked ("o KNRI11 tem", "tem o KNRI11"). */
const HAS = new Set(['tem', 'possui', 'tinha', 'teve', 'emitiu']);
const fundHasIt = (q: AnalysedQuestion) =>
  q.tokens.some(
    (t, i) => q.tickers.surfaces.has(t) && (HAS.has(q.tokens[i + 1]) || HAS.has(q.tokens[i - 1]) || (/^(?:o|a)$/.test(q.tokens[i - 1] ?? '') && HAS.has(q.tokens[i - 2]))),
  );

/** The question's words with its tickers left out, one space between words (the shape a question is asked in). */
const shapeOf = (normalized: string) => withoutTickers(normalized).replace(/\s+/g, ' ').trim();

/** "qual fii ... tem o menor" asks for one fund: the answer is that fund (and "dele" then points at it). */
const asksOneFund = (q: AnalysedQuestion) => /(?:^| )(?:qual|que) (?:o )?(?:fii|fundo)(?= )/.test(q.normalized) && !/(?:^| )(?:fiis|fundos)(?= |$)/.test(q.normalized);

/** What routing asks of the rest of planning. */
export interface EntityRoutingDeps {
  /** The entity's class, as the catalog declares it. */
  classOf(entity: string | null): EntityClass | null;
  /** A measure is named in the question, read alone ("o dy médio dos fiis de logística"). */
  namesMeasure(q: AnalysedQuestion): boolean;
  /** Another text analysed as a question (the question without its conditions). */
  analyse(text: string): AnalysedQuestion;
  /** The filter by which the entity can be asked of the client's funds (catalog `held`), or null. */
  heldFilter(entity: string): string | null;
  /** The question without the words that name the client's portfolio ("meus fiis", "que eu tenho"). */
  withoutPortfolioWords(q: AnalysedQuestion): AnalysedQuestion;
}

/**
 * A question routed to a catalog entity by its words: entities scored by the ontology and accepted by
 * its thresholds, an elliptic follow-up kept on the previous entity, a segment's list, a class asked of
 * a fund, and rankings redirected to the entity that has the column asked.
 */
export class EntityRouter {
  constructor(
    private readonly ontology: Ontology,
    private readonly params: ParamInference,
    private readonly deps: EntityRoutingDeps,
  ) {}

  /** `previousOneFund`: the previous answer was about one fund, which a fund named in a follow-up replaces. */
  route(q: AnalysedQuestion, suffix: string, previousEntity: string | null, previousOneFund = false): PlanResponse {
    const ellipsis = detectEllipsis(q, this.ontology, (t) => this.params.isFilterWord(t));
    const res = this.routeBySubject(q, suffix, ellipsis, previousEntity, previousOneFund);
    res.elliptic = ellipsis !== null;
    return res;
  }

  /**
   * Whether the previous answer's entity can be this question's subject: a catalog entity with a
   * parameter declaration; with a ticker in the text only an entity that takes a ticker from the text,
   * and the client's only when its answer was about one fund ("minha posição no KNRI11" → "e no VISC11?"):
   * a fund named after "quanto tenho investido?" asks about the fund.
   */
  private usablePrevious(q: AnalysedQuestion, entity: string, previousOneFund: boolean): string | null {
    const spec = this.params.entitySpec(entity);
    if (!this.ontology.has(entity) || !spec) return `${entity} is not a catalog entity`;
    const named = q.tickers.tickers.length + q.tickers.unknown.length > 0;
    if (named && this.deps.classOf(entity) === 'client' && !previousOneFund) return `${entity} is the client's own data and the question names a fund`;
    if (named && !spec.ticker.source.includes('text')) return `${entity} takes no fund ticker`;
    return null;
  }

  private routeBySubject(q: AnalysedQuestion, suffix: string, ellipsis: Ellipsis | null, previousEntity: string | null, previousOneFund = false): PlanResponse {
    const features = this.ontology.activeFeatures(q);
    const ranked = this.ontology.score(q, features);
    let previousNote = '';
    if (ellipsis && previousEntity) {
      const refused = this.usablePrevious(q, previousEntity, previousOneFund);
      if (!refused) return this.keepPrevious(q, suffix, ellipsis, previousEntity, ranked);
      previousNote = `; elliptic follow-up, but the previous entity was not kept: ${refused}`;
    }
    suffix = previousNote + suffix;
    const held = this.ofHeldFunds(q, features, ranked, suffix);
    if (held) return held;
    // The conversation is evidence too: a follow-up whose words lean, too weakly alone, to the entity the
    // previous answer came from ("quem administra o KNSC11?" → "e quem faz a gestão?") is about it.
    if (previousEntity && ranked[0]?.entity === previousEntity && ranked[0].score > 0) {
      ranked[0].score += 1;
      ranked[0].signals.push('conversation:previous_entity(+1)');
    }
    const tie = this.broaderOfTie(ranked) ?? this.fundOfTie(q, features, ranked);
    const best = ranked[0];
    const second = ranked[1] ?? { entity: '', score: 0, signals: [], label: '' };
    const { min_score, min_gap } = this.ontology.thresholds;
    const gap = Math.round((best.score - Math.max(second.score, 0)) * 100) / 100;
    const candidates = ranked.filter((c) => c.score > 0).slice(0, MAX_CANDIDATES);
    const base = {
      normalized: q.normalized,
      score: Math.max(best.score, 0),
      gap: Math.max(gap, 0),
      thresholds: { min_score, min_gap },
      candidates,
      llm_used: false,
    };
    const activeFeatures = [...features].join(', ');

    const { accepted, why } = this.acceptance(best, second, ranked, gap, tie);
    const segment = best.score > 0 && accepted ? null : this.segmentList(q, features);
    if (segment) {
      return planResponse(q, 'entity', segment.entity, segment.entity, segment.params, {
        ...base,
        accepted: true,
        reason: `${segment.ranked ? SEGMENT_RANKED : SEGMENT_LIST}: ${segment.entity} ordered by ${segment.params.params.order_by} (features: ${activeFeatures})${suffix}`,
      });
    }
    // ("o HGLG11 é de shopping?" asks its class even where "shopping" also names another entity's rows)
    const classOf = best.score > 0 && accepted && !IS_OF_A_CLASS.test(shapeOf(q.normalized)) ? null : this.classOfFund(q, features);
    if (classOf) {
      return planResponse(q, 'entity', classOf.params.entity, classOf.params.entity, classOf.inferred, {
        ...base,
        accepted: true,
        reason: `a segment or type said of the fund (${classOf.said}): its registry, ${classOf.params.entity} (features: ${activeFeatures})${suffix}`,
      });
    }
    if (best.score <= 0) {
      return planResponse(q, 'unknown', 'unknown', null, null, { ...base, accepted: false, reason: `no entity matched (features: ${activeFeatures})${suffix}` });
    }
    const { qr, inferred } = this.inferEntityParams(q, best.entity, features);
    const redirected = accepted ? this.redirectedRanking(q, qr, best.entity) : null;
    if (redirected) {
      const { redirect, params: r } = redirected;
      const rNotes = r.notes.length ? `; params: ${r.notes.join('; ')}` : '';
      return planResponse(q, 'entity', redirect.entity, redirect.entity, r, {
        ...base,
        accepted,
        reason: `${why}; ${best.entity} has no rank for "${redirect.matched}": ranked by ${redirect.entity}.${redirect.order_by} ${redirect.order} across funds (features: ${activeFeatures})${rNotes}${suffix}`,
      });
    }
    if (accepted) this.orderAcrossFunds(q, qr, best.entity, inferred);
    const notes = inferred.notes.length ? `; params: ${inferred.notes.join('; ')}` : '';
    return planResponse(q, accepted ? 'entity' : 'clarification', best.entity, best.entity, inferred, {
      ...base,
      accepted,
      reason: `${why} (features: ${activeFeatures})${notes}${suffix}`,
    });
  }

  /**
   * "quem administra os fiis que eu tenho?", "a vacância dos meus fundos": a field of a fund asked of the
   * client's funds. Read as if funds were named, the words lead to a fund entity the catalog lets be
   * asked of the funds held (a `held` filter), and they name it more than they name any view of the
   * client's own: that entity answers, over the funds the client holds. Null otherwise.
   */
  private ofHeldFunds(q: AnalysedQuestion, features: ReadonlySet<string>, ranked: Candidate[], suffix: string): PlanResponse | null {
    const own = ranked[0];
    if (q.tickers.tickers.length > 0 || !own || this.deps.classOf(own.entity) !== 'client') return null;
    // ("qual fii da minha carteira tem o melhor sharpe?" picks among them, "carteira versus ibov" weighs the whole: the
    // client's views answer; a measure named is asked of each fund held by the measure's own reading)
    if (['extreme_of_funds', 'ranking_scope', 'benchmark'].some((f) => features.has(f)) || this.deps.namesMeasure(q)) return null;
    const named = new Set([...features].filter((f) => f !== 'client_scope' && f !== 'no_ticker'));
    ['not_client_scope', 'ticker', 'multi_ticker'].forEach((f) => named.add(f));
    const asFunds = this.ontology.score(q, named);
    const [best, second = { entity: '', score: 0, signals: [], label: '' }] = asFunds;
    const filter = best ? this.deps.heldFilter(best.entity) : null;
    if (!filter) return null;
    // (what the client's views get from the words that only name the portfolio says nothing of what is asked of it)
    const rest = this.deps.withoutPortfolioWords(q);
    const ownRest = this.ontology.score(rest, new Set(features)).find((c) => this.deps.classOf(c.entity) === 'client');
    const ownWords = ownRest ? this.ontology.wordScore(ownRest) : 0;
    if (this.ontology.wordScore(best) <= ownWords) return null;
    const gap = Math.round((best.score - Math.max(second.score, 0)) * 100) / 100;
    const { accepted, why } = this.acceptance(best, second, asFunds, gap);
    if (!accepted) return null;
    const inferred = this.params.infer(q, best.entity, q.original);
    inferred.params = { ...inferred.params, ticker: null, tickers: [], filters: { ...inferred.params.filters, [filter]: 'client' } };
    inferred.ticker_sources = [];
    inferred.ticker_required = false;
    const { min_score, min_gap } = this.ontology.thresholds;
    return planResponse(q, 'entity', best.entity, best.entity, inferred, {
      normalized: q.normalized,
      score: best.score,
      gap,
      thresholds: { min_score, min_gap },
      candidates: asFunds.filter((c) => c.score > 0).slice(0, MAX_CANDIDATES),
      llm_used: false,
      accepted: true,
      reason: `the client's funds asked a fund's field: ${why}, read as about the funds held, over the client's views' own words (${ownWords})${suffix}`,
    });
  }

  /** "o KNIP11 é de papel?", "ele é de logística?": a segment or type said of one fund, nothing else asked; its registry says which it is. */
  private classOfFund(q: AnalysedQuestion, features: ReadonlySet<string>): { params: { entity: string }; inferred: InferredParams; said: string } | null {
    if (q.tickers.tickers.length === 0 && !features.has('fund_reference')) return null;
    // ("qual shopping do XPML11 tem a maior receita?" asks which of its properties, not whether it is a shopping fund)
    if (/^qua(?:l|is) /.test(shapeOf(q.normalized))) return null;
    const params = this.params;
    const entity = params.spec.ranking.class_of_fund_entity;
    const said = params.classSaid(q);
    if (!said) return null;
    const inferred = params.infer(q, entity, q.original);
    // (the class is what is asked, not a filter: "ele é de papel ou tijolo?" is about the conversation's fund)
    const { sector: _sector, fund_type: _type, ...filters } = inferred.params.filters;
    return {
      params: { entity },
      inferred: { ...inferred, params: { ...inferred.params, filters }, ticker_sources: ['text', 'context'], ticker_required: true },
      said,
    };
  }

  /**
   * "quais fiis de hotel existem?", "tem fii de agência bancária?": funds in general and a segment or
   * type, with no fund and no entity's own words, list that segment's funds (biggest first). Null otherwise.
   */
  private segmentList(q: AnalysedQuestion, features: ReadonlySet<string>): { entity: string; params: InferredParams; ranked: boolean } | null {
    if (q.tickers.tickers.length > 0 || !(features.has('ranking_scope') || features.has('fii_word'))) return null;
    const params = this.params;
    const entity = params.spec.ranking.entity;
    const inferred = params.infer(q, entity, q.original);
    const { filters } = inferred.params;
    if ((!filters.sector && !filters.fund_type) || inferred.params.conditions?.length) return null;
    inferred.ticker_sources = [];
    inferred.ticker_required = false;
    // A measure named ("o dy médio dos fiis de logística") is asked of the segment, not its list;
    // by a measure ("fiis hospitalares por dy") the segment is ranked by it, when the ranking orders by it.
    if (this.deps.namesMeasure(q)) {
      if (!inferred.params.order_by || !/(?:^| )(?:por|pelo|pela)(?= )/.test(q.normalized)) return null;
      inferred.params = { ...inferred.params, ticker: null, tickers: [], agg: 'list', window: null };
      return { entity, params: inferred, ranked: true };
    }
    inferred.params = { ...inferred.params, ticker: null, tickers: [], agg: 'list', window: null, order_by: params.spec.ranking.segment_order, order: 'asc' };
    return { entity, params: inferred, ranked: false };
  }

  /**
   * The entity's parameters. Conditions ("com valor de mercado acima de 1 bi") are read apart: their
   * words must not choose a ranking's order (`qr` is the question without them).
   */
  private inferEntityParams(q: AnalysedQuestion, entity: string, features: ReadonlySet<string>): { qr: AnalysedQuestion; inferred: InferredParams } {
    const stripped = withoutConditions(q.original, this.params.conditionColumns());
    const qr = stripped ? this.deps.analyse(stripped) : q;
    const inferred = this.params.infer(qr, entity, q.original);
    // "Esse fundo tem Sharpe bom?" is about one fund even for list-able entities: without a fund
    // in the text or the conversation Cota must ask which, not list them all.
    if (features.has('fund_reference') && inferred.ticker_sources.includes('context') && !inferred.ticker_required) {
      inferred.ticker_required = true;
      inferred.notes.push('points at one fund: ticker required');
    }
    return { qr, inferred };
  }

  /**
   * Two readings the words lean to equally, one the broader view of the other (ontology.yaml `broader_than`):
   * the broader goes first (`ranked` is reordered) and answers, for the reason returned. Null when the lead is clear or the two are unrelated.
   */
  private broaderOfTie(ranked: Candidate[]): string | null {
    const [a, b] = ranked;
    if (!a || !b || a.score - b.score >= this.ontology.thresholds.min_gap) return null;
    if (this.ontology.isBroaderThan(b.entity, a.entity)) [ranked[0], ranked[1]] = [b, a];
    else if (!this.ontology.isBroaderThan(a.entity, b.entity)) return null;
    ranked[0].signals.push(`tie:broader than ${ranked[1].entity}`);
    return 'the broader view of it';
  }

  /**
   * "quantas cotas o KNRI11 tem?": the client's view and a fund's lean to it equally, the fund named is what has it
   * and nothing says the client's (no "eu", "meu"): the fund's own figure goes first and answers. ("quantas cotas de
   * HGLG11?" says neither: it is asked back.)
   */
  private fundOfTie(q: AnalysedQuestion, features: ReadonlySet<string>, ranked: Candidate[]): string | null {
    const [a, b] = ranked;
    if (!a || !b || a.score - b.score >= this.ontology.thresholds.min_gap || !fundHasIt(q) || features.has('client_scope')) return null;
    const classes = [this.deps.classOf(a.entity), this.deps.classOf(b.entity)];
    if (classes[0] === 'client' && classes[1] === 'fund') [ranked[0], ranked[1]] = [b, a];
    else if (!(classes[0] === 'fund' && classes[1] === 'client')) return null;
    ranked[0].signals.push(`tie:the fund's own, not the client's (${ranked[1].entity})`);
    return "the fund's own figure: nothing says the client's";
  }

  /** Whether the best entity leads by enough to answer, and the reason said either way. */
  private acceptance(best: Candidate, second: Candidate, ranked: Candidate[], gap: number, tie: string | null = null): { accepted: boolean; why: string } {
    const { min_score, min_gap } = this.ontology.thresholds;
    // A smaller lead suffices when it rests on a specific word the runner-up lacks (see ontology.yaml).
    const specific = this.ontology.thresholds.specific;
    const own = specific && gap < min_gap && gap >= specific.min_gap ? this.ontology.strongestOwnWord(best, ranked[1]) : null;
    const bySpecificWord = !!own && own.weight >= (specific?.word_weight ?? Infinity);
    const accepted = best.score >= min_score && (gap >= min_gap || bySpecificWord || !!tie);
    const over = second.score > 0 ? second.entity : 'no other entity';
    const why = accepted
      ? tie && gap < min_gap && !bySpecificWord
        ? `accepted ${best.entity}: score ${best.score} >= ${min_score}, even with ${second.entity} (${second.score}): ${tie}`
        : bySpecificWord
          ? `accepted ${best.entity}: score ${best.score} >= ${min_score} and gap ${gap} >= ${specific?.min_gap} over ${over}, led by the specific "${own?.text}" (${own?.weight} >= ${specific?.word_weight})`
          : `accepted ${best.entity}: score ${best.score} >= ${min_score} and gap ${gap} >= ${min_gap} over ${over}`
      : best.score < min_score
        ? `not accepted: best ${best.entity} scored ${best.score} < ${min_score}`
        : `not accepted: ${best.entity} (${best.score}) and ${second.entity} (${second.score}) are ${gap} apart < ${min_gap}`;
    return { accepted, why };
  }

  /**
   * "Ranking de fundos por P/VP": the rankings entity has no P/VP rank, so the funds are ordered
   * by that column of the entity that has it, never silently by another rank. Null when not redirected.
   */
  private redirectedRanking(
    q: AnalysedQuestion,
    qr: AnalysedQuestion,
    entity: string,
  ): { redirect: NonNullable<ReturnType<ParamInference['rankingRedirect']>>; params: InferredParams } | null {
    const params = this.params;
    // (so is a screen the words leaned to an entity without its condition's column: "fundos de fundos (FOF) com P/VP abaixo de 0,75")
    const ranking = entity === params.spec.ranking.entity;
    const redirect =
      q.tickers.tickers.length > 0 ? null : ranking ? (params.rankingRedirect(qr) ?? params.conditionRedirect(q.original)) : params.conditionRedirect(q.original, entity);
    if (!redirect) return null;
    const r = params.infer(qr, redirect.entity, q.original);
    r.params = {
      ...r.params,
      ticker: null,
      tickers: [],
      agg: 'list',
      window: null,
      order_by: redirect.order_by,
      order: redirect.order,
      limit: r.params.limit ?? (asksOneFund(q) ? 1 : params.spec.ranking.default_limit),
    };
    r.ticker_sources = r.ticker_sources.filter((s) => s !== 'context');
    r.ticker_required = false;
    return { redirect, params: r };
  }

  /** "qual fii de lajes tem o menor p/vp?" routed straight to the entity that has the column: ordered by it, across funds. */
  private orderAcrossFunds(q: AnalysedQuestion, qr: AnalysedQuestion, entity: string, inferred: InferredParams): void {
    const params = this.params;
    const ordered = q.tickers.tickers.length === 0 && entity !== params.spec.ranking.entity ? params.rankingRedirect(qr) : null;
    if (!ordered?.directed || ordered.entity !== entity || inferred.params.order_by) return;
    inferred.params = {
      ...inferred.params,
      order_by: ordered.order_by,
      order: ordered.order,
      limit: inferred.params.limit ?? (asksOneFund(q) ? 1 : params.spec.ranking.default_limit),
    };
    inferred.notes.push(`ordered by ${ordered.order_by} ${ordered.order} ("${ordered.matched}")`);
  }

  /** An elliptic follow-up keeps the previous answer's entity; its parameters come from this question. */
  private keepPrevious(q: AnalysedQuestion, suffix: string, ellipsis: Ellipsis, entity: string, ranked: ReturnType<Ontology['score']>): PlanResponse {
    const inferred = this.params.infer(q, entity);
    const own = ranked.find((c) => c.entity === entity);
    const score = Math.max(own?.score ?? 0, 0);
    const { min_score, min_gap } = this.ontology.thresholds;
    const notes = inferred.notes.length ? `; params: ${inferred.notes.join('; ')}` : '';
    return planResponse(q, 'entity', entity, entity, inferred, {
      normalized: q.normalized,
      score,
      gap: 0,
      thresholds: { min_score, min_gap },
      candidates: [{ entity, score, signals: ['previous_entity', ...(own?.signals ?? [])], label: this.ontology.labelOf(entity) }],
      llm_used: false,
      accepted: true,
      reason: `elliptic follow-up ("${ellipsis.opener} ..." naming only ${ellipsis.anchors.join(', ')}): kept the previous subject ${entity}${notes}${suffix}`,
    });
  }
}
