import type { InvokeResponse, MeasureResult, PlanResponse, PlanRun, QueryParams, QueryResult, RagMeta, StructuredQuestion } from '@cota/contracts';
import type { BusClient } from '@cota/messaging';
import type { AskInput, AskStatus } from '../ask-types';

/** What the narrator needs to know when the question cannot be answered as asked. */
export type Problem = 'ticker_required' | 'series_required' | 'unknown_ticker' | 'no_data' | 'not_understood' | 'too_many_funds' | 'generic' | null;

/** Everything one kind of turn needs to act: the bus, who asks, and the turn's reading. */
export interface ActContext {
  client: BusClient;
  input: AskInput;
  reading: PlanResponse;
}

/** What acting on a reading found: the answer's data and why it may fall short. */
export interface Acted {
  status: AskStatus;
  problem: Problem;
  /** The contract's `results`: the rows, values or tool result the answer rests on. */
  results: Record<string, unknown>;
  params: QueryParams;
  question: StructuredQuestion | null;
  /** A compound question's other parts, as answered (the first part is `question`). */
  alsoQuestions?: StructuredQuestion[];
  data: QueryResult | null;
  measure: MeasureResult | null;
  rag: RagMeta | null;
  tool: InvokeResponse | null;
  planRun: PlanRun | null;
}

/** A turn that found nothing to fetch (asked back, small talk, not understood), or one cut short. */
export function nothingFetched(reading: PlanResponse, status: AskStatus, problem: Problem): Acted {
  return { status, problem, results: {}, params: reading.params, question: reading.question, data: null, measure: null, rag: null, tool: null, planRun: null };
}

/**
 * The turn names a fund Cota does not know ("knxp11") and no fund it knows: said plainly, whether the
 * words asked for a catalog entity or a measure, rather than asking which fund or answering another.
 */
export function unknownFundOnly(reading: PlanResponse): Acted | null {
  const named = reading.params.tickers.length > 0 || (reading.question?.subjects.length ?? 0) > 0;
  return reading.unknown_tickers.length > 0 && !named ? nothingFetched(reading, 'error', 'unknown_ticker') : null;
}

export const callerOf = (input: AskInput) => ({ request_id: input.request_id, client_id: input.client_id, conversation_id: input.conversation_id });
