import { z } from 'zod';
import { defineRpc } from '../define';
import { Caller, QueryParams, Ticker, Turn } from '../common';
import { PeriodSpec, QuestionSubject, StructuredQuestion } from '../question';

export const ContextMeta = z.object({ last_reference_used: z.boolean(), reason: z.string() });
export type ContextMeta = z.infer<typeof ContextMeta>;

export const LastReference = z.object({
  ticker: Ticker,
  entity: z.string(),
  intent: z.string(),
  updated_at: z.string(),
  turn_index: z.number().int(),
});
export type LastReference = z.infer<typeof LastReference>;

/** Memory handed to the narrator: recent cycles verbatim, older ones summarised. */
export const NarratorMemory = z.object({ recent: z.array(Turn), summary: z.string().nullable() });
export type NarratorMemory = z.infer<typeof NarratorMemory>;

/** Opens a turn: records the user question and decides ticker inheritance (the only place it is decided). */
export const ResolveRequest = Caller.extend({
  question: z.string(),
  intent: z.string(),
  entity: z.string().nullable(),
  tickers_in_text: z.array(Ticker),
  ticker_sources: z.array(z.enum(['text', 'context'])),
});
export const ResolveResponse = z.object({
  turn_index: z.number().int(),
  ticker: Ticker.nullable(),
  tickers: z.array(Ticker),
  context: ContextMeta,
  memory: NarratorMemory,
});

/** Closes a turn: records the answer and, when accepted with exactly one ticker, the last reference. */
export const CommitRequest = Caller.extend({
  turn_index: z.number().int(),
  answer: z.string(),
  status: z.enum(['ok', 'needs_clarification', 'confirmation_required', 'error']),
  intent: z.string(),
  entity: z.string().nullable(),
  accepted: z.boolean(),
  tickers: z.array(Ticker),
  /** Query filters of the answer (kept for elliptic follow-ups). */
  filters: z.record(z.string(), z.string()).default({}),
  /** The answered structured question, kept so the next follow-up can edit it. */
  question: StructuredQuestion.nullable().default(null),
  /** The entity query's parameters (order, limit, window), so "só os 3 primeiros" edits the ranking. */
  params: QueryParams.nullable().default(null),
  /** Every fund the answer listed (a ranking, the client's positions): "qual deles" picks among them. */
  listed_tickers: z.array(Ticker).max(50).default([]),
  meta: z.record(z.unknown()).default({}),
});
export const CommitResponse = z.object({ reference_updated: z.boolean() });

export const ConversationKey = z.object({ client_id: z.string().min(1), conversation_id: z.string().min(1) });

export const HistoryRequest = ConversationKey.extend({ limit: z.number().int().min(1).max(500).default(100) });
export const HistoryResponse = z.object({ conversation_id: z.string(), turns: z.array(Turn) });

export const DebugResponse = z.object({
  key: ConversationKey,
  turn_count: z.number().int(),
  last_reference: LastReference.nullable(),
  session: z.record(z.unknown()),
  recent: z.array(Turn),
  summary: z.string().nullable(),
});
export const ClearResponse = z.object({ cleared: z.boolean() });

/** What the previous answer was about, read without opening a turn (to re-plan elliptic follow-ups). */
export const PeekResponse = z.object({
  last_entity: z.string().nullable(),
  last_tickers: z.array(Ticker),
  /** Filters the previous answer used (indicator, currency, index...), so "e em 2023?" keeps them. */
  last_filters: z.record(z.string(), z.string()).default({}),
  /** The previous answer's structured question, when it had one. */
  last_question: StructuredQuestion.nullable().default(null),
  /** The previous entity answer's query parameters. */
  last_params: QueryParams.nullable().default(null),
  /** The funds the previous answer listed. */
  last_listed_tickers: z.array(Ticker).default([]),
  /** The subjects of the answered question before the last one, for "qual dos dois" across two turns. */
  earlier_subjects: z.array(QuestionSubject).max(10).default([]),
  /** The period of the answer before the previous one: "qual foi a variação nesse intervalo?" spans both. */
  earlier_period: PeriodSpec.nullable().default(null),
  /** The tool whose call waits for a missing argument in this conversation, if any. */
  pending_call: z.string().nullable().default(null),
  /** The last tool that ran in this conversation, so a follow-up can change one of its arguments. */
  last_call: z.string().nullable().default(null),
  /** How the newest answer was made (entity, measure, tool, ...), so follow-ups edit the right thing. */
  last_kind: z.string().nullable().default(null),
  last_reference: LastReference.nullable(),
});

/** Session values used by tools (active report, pending action), each with its own TTL. */
export const SessionGetRequest = ConversationKey.extend({ keys: z.array(z.string()).optional() });
export const SessionGetResponse = z.object({ values: z.record(z.unknown()) });
export const SessionSetRequest = ConversationKey.extend({
  key: z.string().min(1).max(64),
  /** null deletes the key. */
  value: z.unknown().nullable(),
  ttl_seconds: z.number().int().positive().nullable(),
});
export const SessionSetResponse = z.object({ ok: z.boolean() });

export const ContextSubjects = {
  resolve: defineRpc({ subject: 'cota.context.resolve.v1', service: 'context', request: ResolveRequest, response: ResolveResponse }),
  // Repeating a commit records the turn once (hot state and durable history both check the turn index).
  commit: defineRpc({ subject: 'cota.context.commit.v1', service: 'context', request: CommitRequest, response: CommitResponse, mustLand: true }),
  history: defineRpc({ subject: 'cota.context.history.v1', service: 'context', request: HistoryRequest, response: HistoryResponse, idempotent: true }),
  debug: defineRpc({ subject: 'cota.context.debug.v1', service: 'context', request: ConversationKey, response: DebugResponse, idempotent: true }),
  peek: defineRpc({ subject: 'cota.context.peek.v1', service: 'context', request: ConversationKey, response: PeekResponse, idempotent: true }),
  clear: defineRpc({ subject: 'cota.context.clear.v1', service: 'context', request: ConversationKey, response: ClearResponse }),
  sessionGet: defineRpc({ subject: 'cota.context.session-get.v1', service: 'context', request: SessionGetRequest, response: SessionGetResponse, idempotent: true }),
  sessionSet: defineRpc({ subject: 'cota.context.session-set.v1', service: 'context', request: SessionSetRequest, response: SessionSetResponse }),
};
