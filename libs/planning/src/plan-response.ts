import { PlannerMeta, PlanResponse, QueryParams, queryParams } from '@cota/contracts';
import type { AnalysedQuestion } from './analysis';
import type { InferredParams } from './params';

/** A planner's response of one kind, with the question's funds and the parameters inferred (when an entity was chosen). */
export function planResponse(
  q: AnalysedQuestion,
  kind: PlanResponse['kind'],
  intent: string,
  entity: string | null,
  inferred: InferredParams | null,
  planner: PlannerMeta,
): PlanResponse {
  const tickers = q.tickers.tickers;
  const params: QueryParams = inferred?.params ?? queryParams({ ticker: tickers.length === 1 ? tickers[0] : null, tickers: tickers.slice(0, 20) });
  return {
    kind,
    intent,
    entity,
    plan: null,
    tickers_in_text: tickers.slice(0, 20),
    unknown_tickers: q.tickers.unknown,
    funds_named: tickers.length,
    params,
    ticker_sources: inferred?.ticker_sources ?? [],
    ticker_required: inferred?.ticker_required ?? false,
    tool: null,
    smalltalk: null,
    out_of_scope: null,
    confirmation: null,
    advice: false,
    elliptic: false,
    follow_up_candidate: false,
    question: null,
    follow_up: null,
    planner,
  };
}
