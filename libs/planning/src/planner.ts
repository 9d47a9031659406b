import { PlanResponse, PlannerMeta, QueryParams, queryParams } from '@cota/contracts';
import type { LlmClient } from '@cota/llm';
import { AnalysedQuestion, analyseQuestion } from './analysis';
import { chooseEntityWithLlm } from './llm-fallback';
import { Ontology } from './ontology';
import { PlanningPolicies } from './policies';
import { detectConcept, detectConfirmation, detectSmalltalk, detectTool } from './special';
import { TickerIndex } from './tickers';

export interface PlannerOptions {
  policies: PlanningPolicies;
  /** Known fund tickers, or null until the warehouse's list arrives (pattern-only recognition). */
  funds: Iterable<string> | null;
  /** Model for the fallback; null (not configured) means deterministic only. */
  llm?: LlmClient | null;
}

const MAX_CANDIDATES = 5;

/**
 * Decides how a question is answered: entity (with parameters), tool, concept, small talk,
 * confirmation, or asks back. Deterministic first, every decision explained in `planner`;
 * the model is asked only when that decision is not confident enough.
 */
export class Planner {
  private tickers: TickerIndex;
  private readonly ontology: Ontology;
  private readonly llm: LlmClient | null;

  constructor(private readonly opts: PlannerOptions) {
    this.ontology = opts.policies.ontology;
    this.tickers = new TickerIndex(opts.funds, this.ontology.tickerPrefixStopwords);
    this.llm = opts.llm ?? null;
  }

  /** Replaces the fund list (the service refreshes it from the warehouse). */
  setFunds(funds: Iterable<string>): void {
    this.tickers = new TickerIndex(funds, this.ontology.tickerPrefixStopwords);
  }

  get fundsLoaded(): boolean {
    return this.tickers.loaded;
  }

  get fundCount(): number {
    return this.tickers.size;
  }

  private recognizeTickers(question: string) {
    return this.tickers.recognize(question, (w) => this.ontology.vocabulary.has(w));
  }

  /** The deterministic decision, synchronous and cheap (no I/O). */
  planDeterministic(question: string): PlanResponse {
    const q = analyseQuestion(question, this.recognizeTickers(question), this.ontology.vocabulary);
    const tickerNote =
      q.tickers.mode === 'fund-list'
        ? ''
        : '; fund list not loaded yet: tickers recognised by pattern (AAAA11) only';
    const corrections = q.corrections.length ? `; corrected ${q.corrections.join(', ')}` : '';
    const suffix = tickerNote + corrections;

    const confirmation = detectConfirmation(q, this.ontology);
    if (confirmation) {
      return this.special(q, 'confirmation', 'confirmation', { confirmation: confirmation.value }, `whole message is a ${confirmation.value} ("${confirmation.phrase}")${suffix}`);
    }
    const smalltalk = detectSmalltalk(q, this.ontology);
    if (smalltalk) {
      return this.special(q, 'smalltalk', `smalltalk_${smalltalk.kind}`, { smalltalk: smalltalk.kind }, `small talk (${smalltalk.kind}): ${smalltalk.phrases.join(', ')}${suffix}`);
    }
    // Definitions first: "o que são juros compostos?" asks for a concept, not a calculation.
    const concept = detectConcept(q, this.ontology);
    if (concept) {
      return this.special(q, 'concept', 'concept', {}, `conceptual question (knowledge base): matched ${concept}${suffix}`);
    }
    const tool = detectTool(q, this.ontology);
    if (tool) {
      return this.special(q, 'tool', tool.name, { tool: { name: tool.name, args: {} } }, `tool ${tool.name}: matched ${tool.matched}${suffix}`);
    }
    return this.routeEntity(q, suffix);
  }

  /** Full decision: deterministic, then the model when configured and the decision was not accepted. */
  async plan(question: string): Promise<PlanResponse> {
    const plan = this.planDeterministic(question);
    const undecided = (plan.kind === 'clarification' || plan.kind === 'unknown') && !plan.planner.accepted;
    const fallback = this.ontology.spec.llm_fallback;
    if (!undecided || !this.llm || !fallback.enabled) return plan;
    const choice = await chooseEntityWithLlm(this.llm, this.ontology, question, plan.planner.candidates, {
      timeoutMs: fallback.timeout_ms,
      maxCandidates: fallback.max_candidates,
    });
    if (!choice.entity) {
      return { ...plan, planner: { ...plan.planner, llm_used: true, reason: `${plan.planner.reason}; llm fallback not used: ${choice.failure}` } };
    }
    const q = analyseQuestion(question, this.recognizeTickers(question), this.ontology.vocabulary);
    const inferred = this.opts.policies.params.infer(q, choice.entity);
    return {
      ...plan,
      kind: 'entity',
      intent: choice.entity,
      entity: choice.entity,
      params: inferred.params,
      ticker_sources: inferred.ticker_sources,
      ticker_required: inferred.ticker_required,
      planner: {
        ...plan.planner,
        // Accepted by the fallback (score and gap still show the deterministic miss): callers
        // treat kind 'entity' without acceptance as "ask back", which would waste the model's answer.
        accepted: true,
        llm_used: true,
        reason: `${plan.planner.reason}; accepted by the llm fallback, which chose ${choice.entity}`,
      },
    };
  }

  private routeEntity(q: AnalysedQuestion, suffix: string): PlanResponse {
    const features = this.ontology.activeFeatures(q);
    const ranked = this.ontology.score(q, features);
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

    if (best.score <= 0) {
      return this.respond(q, 'unknown', 'unknown', null, null, { ...base, accepted: false, reason: `no entity matched (features: ${activeFeatures})${suffix}` });
    }
    const inferred = this.opts.policies.params.infer(q, best.entity);
    // "Esse fundo tem Sharpe bom?" is about one fund even for list-able entities: without a fund
    // in the text or the conversation Cota must ask which, not list them all.
    if (features.has('fund_reference') && inferred.ticker_sources.includes('context') && !inferred.ticker_required) {
      inferred.ticker_required = true;
      inferred.notes.push('points at one fund: ticker required');
    }
    // A smaller lead suffices when it rests on a specific word the runner-up lacks (see ontology.yaml).
    const specific = this.ontology.thresholds.specific;
    const own = specific && gap < min_gap && gap >= specific.min_gap ? this.ontology.strongestOwnWord(best, ranked[1]) : null;
    const bySpecificWord = !!own && own.weight >= (specific?.word_weight ?? Infinity);
    const accepted = best.score >= min_score && (gap >= min_gap || bySpecificWord);
    const over = second.score > 0 ? second.entity : 'no other entity';
    const why = accepted
      ? bySpecificWord
        ? `accepted ${best.entity}: score ${best.score} >= ${min_score} and gap ${gap} >= ${specific?.min_gap} over ${over}, led by the specific "${own?.text}" (${own?.weight} >= ${specific?.word_weight})`
        : `accepted ${best.entity}: score ${best.score} >= ${min_score} and gap ${gap} >= ${min_gap} over ${over}`
      : best.score < min_score
        ? `not accepted: best ${best.entity} scored ${best.score} < ${min_score}`
        : `not accepted: ${best.entity} (${best.score}) and ${second.entity} (${second.score}) are ${gap} apart < ${min_gap}`;
    const notes = inferred.notes.length ? `; params: ${inferred.notes.join('; ')}` : '';
    return this.respond(q, accepted ? 'entity' : 'clarification', best.entity, best.entity, inferred, {
      ...base,
      accepted,
      reason: `${why} (features: ${activeFeatures})${notes}${suffix}`,
    });
  }

  private special(
    q: AnalysedQuestion,
    kind: 'confirmation' | 'smalltalk' | 'tool' | 'concept',
    intent: string,
    extra: Partial<Pick<PlanResponse, 'tool' | 'smalltalk' | 'confirmation'>>,
    reason: string,
  ): PlanResponse {
    const res = this.respond(q, kind, intent, null, null, {
      normalized: q.normalized,
      score: 0,
      gap: 0,
      accepted: true,
      thresholds: { min_score: this.ontology.thresholds.min_score, min_gap: this.ontology.thresholds.min_gap },
      candidates: [],
      llm_used: false,
      reason,
    });
    return { ...res, ...extra };
  }

  private respond(
    q: AnalysedQuestion,
    kind: PlanResponse['kind'],
    intent: string,
    entity: string | null,
    inferred: ReturnType<PlanningPolicies['params']['infer']> | null,
    planner: PlannerMeta,
  ): PlanResponse {
    const tickers = q.tickers.tickers;
    const params: QueryParams = inferred?.params ?? queryParams({ ticker: tickers.length === 1 ? tickers[0] : null, tickers: tickers.slice(0, 20) });
    return {
      kind,
      intent,
      entity,
      tickers_in_text: tickers.slice(0, 20),
      unknown_tickers: q.tickers.unknown,
      params,
      ticker_sources: inferred?.ticker_sources ?? [],
      ticker_required: inferred?.ticker_required ?? false,
      tool: null,
      smalltalk: null,
      confirmation: null,
      elliptic: false,
      planner,
    };
  }
}

