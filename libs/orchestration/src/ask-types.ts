import type { ContextMeta, FollowUpMeta, NarratorMeta, PlannerMeta, QueryParams, RagMeta, StructuredQuestion, ToolMeta } from '@cota/contracts';

export type AskStatus = 'ok' | 'needs_clarification' | 'confirmation_required' | 'error';

/** The body of POST /ask after validation; client_id is the authenticated client. */
export interface AskInput {
  request_id: string;
  question: string;
  conversation_id: string;
  nickname: string;
  client_id: string;
  /** Ask the narrator to publish guarded answer deltas (chat page streaming). */
  stream?: boolean;
}

/** CONTRACT.md `meta`: always at least these keys. */
export interface AskMeta {
  request_id: string;
  intent: string;
  entity: string | null;
  params: Pick<QueryParams, 'ticker' | 'tickers' | 'agg' | 'window' | 'limit' | 'order'> & Partial<QueryParams>;
  context: ContextMeta & { turn_index?: number };
  planner: PlannerMeta & { kind: string; question?: StructuredQuestion | null; follow_up?: FollowUpMeta | null };
  tool?: ToolMeta;
  rag: Partial<RagMeta> & { enabled: boolean; reason: string };
  narrator: NarratorMeta;
  timings_ms: Record<string, number>;
}

export interface AskOutput {
  status: AskStatus;
  results: Record<string, unknown>;
  meta: AskMeta;
  answer: string;
}
