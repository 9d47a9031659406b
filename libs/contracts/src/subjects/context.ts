import { z } from 'zod';
import { defineRpc } from '../define';
import { Caller, QueryParams, Turn } from '../common';
import { IsoDate, QuestionSubject, StructuredQuestion } from '../question';
import { ConversationState, LastReference } from '../conversation-state';
import { PlanResponse } from './planner';

/** Memory handed to the narrator: recent cycles verbatim, older ones summarised. */
export const NarratorMemory = z.object({ recent: z.array(Turn), summary: z.string().nullable() });
export type NarratorMemory = z.infer<typeof NarratorMemory>;

/** Opens a turn: records the user question and hands back what the conversation holds and the narrator's memory. */
export const OpenRequest = Caller.extend({ question: z.string().min(1).max(2000) });
export const OpenResponse = z.object({ state: ConversationState, memory: NarratorMemory });
export type OpenResponse = z.infer<typeof OpenResponse>;

/** What an answered turn found, for the conversation to decide what the turn leaves behind. */
export const TurnOutcome = z.object({
  status: z.enum(['ok', 'needs_clarification', 'confirmation_required', 'error']),
  /** Why the question could not be answered as asked (ticker_required, no_data, ...), or null. */
  problem: z.string().nullable().default(null),
  /** The structured question as answered (subjects filled from the conversation). */
  question: StructuredQuestion.nullable().default(null),
  /** The entity query's final parameters. */
  params: QueryParams.nullable().default(null),
  /** The funds of the entity answer's rows, in order; of a measure answer over the whole portfolio, the funds its values came from. */
  row_tickers: z.array(z.string().max(16)).max(1000).default([]),
  /** The measure answer's values by subject, in the order computed. */
  values: z
    // (its date: the day, or the end of the month, the value was found at; "nesse mês" after the worst month points at it)
    .array(z.object({ subject: QuestionSubject, value: z.number().nullable(), date: IsoDate.nullable().default(null) }))
    .max(1000)
    .default([]),
  winner: QuestionSubject.nullable().default(null),
  /** A compound question's other parts, as answered, in the order asked (the first part is `question`). */
  also_questions: z.array(StructuredQuestion).max(3).default([]),
});
export type TurnOutcome = z.infer<typeof TurnOutcome>;

/** Closes a turn: records the answer; the conversation decides from the reading and the outcome what the turn leaves behind. */
export const CommitRequest = Caller.extend({
  turn_index: z.number().int(),
  answer: z.string(),
  reading: PlanResponse,
  outcome: TurnOutcome,
});
export const CommitResponse = z.object({ reference_updated: z.boolean() });

export const ConversationKey = z.object({ client_id: z.string().min(1), conversation_id: z.string().min(1) });

export const HistoryRequest = ConversationKey.extend({ limit: z.number().int().min(1).max(500).default(100) });
export const HistoryResponse = z.object({ conversation_id: z.string(), turns: z.array(Turn) });

/** A page of the client's conversations, newest activity first; `cursor` is the previous page's `next_cursor`. */
export const ListConversationsRequest = z.object({
  client_id: z.string().min(1),
  limit: z.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).nullable().default(null),
});
export const ConversationSummary = z.object({
  id: z.string(),
  /** The title the client gave it, else its first question. */
  title: z.string(),
  last_activity: z.string(),
  questions: z.number().int().min(0),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;
export const ListConversationsResponse = z.object({ conversations: z.array(ConversationSummary), next_cursor: z.string().nullable() });
export type ListConversationsResponse = z.infer<typeof ListConversationsResponse>;

export const MAX_TITLE_CHARS = 120;
export const RenameConversationRequest = ConversationKey.extend({ title: z.string().min(1).max(MAX_TITLE_CHARS) });
/** `renamed` false: the client has no conversation with this id. */
export const RenameConversationResponse = z.object({ renamed: z.boolean() });
export const DeleteConversationResponse = z.object({ deleted: z.boolean(), turns: z.number().int().min(0) });

/** A person's verdict on one answer (the answer's `meta.request_id`), with an optional comment. */
export const FEEDBACK_COMMENT_MAX = 1000;
export const FeedbackRating = z.enum(['up', 'down']);
export type FeedbackRating = z.infer<typeof FeedbackRating>;
export const FeedbackRequest = ConversationKey.extend({
  request_id: z.string().min(1).max(128),
  rating: FeedbackRating,
  comment: z.string().max(FEEDBACK_COMMENT_MAX).nullable().default(null),
});
/** `stored` false: no answer of this conversation has this request id. */
export const FeedbackResponse = z.object({ stored: z.boolean() });

/** Feedback as recorded, for the ops export (never an API key; the client id is the account's). */
export const FeedbackRecord = z.object({
  client_id: z.string(),
  conversation_id: z.string(),
  request_id: z.string(),
  turn_index: z.number().int(),
  rating: FeedbackRating,
  comment: z.string().nullable(),
  created_at: z.string(),
  /** The questions of the conversation up to the rated one, oldest first (a follow-up replays in context). */
  questions: z.array(z.string()),
  answer: z.string(),
  /** The rated answer's recorded meta: structured question, entity, params, status, tickers. */
  meta: z.record(z.unknown()),
});
export type FeedbackRecord = z.infer<typeof FeedbackRecord>;
export const FeedbackExportRequest = z.object({
  rating: FeedbackRating.nullable().default(null),
  /** ISO date-time: verdicts given from then on. */
  since: z.string().max(40).nullable().default(null),
  limit: z.number().int().min(1).max(10_000).default(1000),
});
/** One case of the answer-accuracy sets (test/eval/answers/README.md, "Format") made from a verdict. */
export const FeedbackEvalCase = z.object({
  id: z.string(),
  category: z.string(),
  client_id: z.string(),
  turns: z.array(
    z.object({
      q: z.string(),
      expect: z.object({
        subjects: z.array(z.string()).optional(),
        period: z.object({ from: z.string(), to: z.string() }).optional(),
        status: z.literal('ok').optional(),
      }),
    }),
  ),
  evidence: z.string(),
});
export type FeedbackEvalCase = z.infer<typeof FeedbackEvalCase>;
export const FeedbackExportResponse = z.object({ cases: z.array(FeedbackEvalCase) });

export const DebugResponse = z.object({
  key: ConversationKey,
  turn_count: z.number().int(),
  last_reference: LastReference.nullable(),
  session: z.record(z.unknown()),
  recent: z.array(Turn),
  summary: z.string().nullable(),
});
export const ClearResponse = z.object({ cleared: z.boolean() });

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
  open: defineRpc({ subject: 'cota.context.open.v2', service: 'context', request: OpenRequest, response: OpenResponse }),
  // Repeating a commit records the turn once (hot state and durable history both check the turn index).
  commit: defineRpc({ subject: 'cota.context.commit.v2', service: 'context', request: CommitRequest, response: CommitResponse, mustLand: true }),
  history: defineRpc({ subject: 'cota.context.history.v1', service: 'context', request: HistoryRequest, response: HistoryResponse, idempotent: true }),
  list: defineRpc({ subject: 'cota.context.list.v1', service: 'context', request: ListConversationsRequest, response: ListConversationsResponse, idempotent: true }),
  rename: defineRpc({ subject: 'cota.context.rename.v1', service: 'context', request: RenameConversationRequest, response: RenameConversationResponse, idempotent: true }),
  // Deleting twice deletes once: the second finds nothing.
  remove: defineRpc({ subject: 'cota.context.remove.v1', service: 'context', request: ConversationKey, response: DeleteConversationResponse, idempotent: true }),
  // One verdict per answer: a repeated one replaces it.
  feedback: defineRpc({ subject: 'cota.context.feedback.v1', service: 'context', request: FeedbackRequest, response: FeedbackResponse, idempotent: true }),
  feedbackExport: defineRpc({
    subject: 'cota.context.feedback-export.v1',
    service: 'context',
    request: FeedbackExportRequest,
    response: FeedbackExportResponse,
    idempotent: true,
  }),
  debug: defineRpc({ subject: 'cota.context.debug.v1', service: 'context', request: ConversationKey, response: DebugResponse, idempotent: true }),
  clear: defineRpc({ subject: 'cota.context.clear.v1', service: 'context', request: ConversationKey, response: ClearResponse }),
  sessionGet: defineRpc({ subject: 'cota.context.session-get.v1', service: 'context', request: SessionGetRequest, response: SessionGetResponse, idempotent: true }),
  sessionSet: defineRpc({ subject: 'cota.context.session-set.v1', service: 'context', request: SessionSetRequest, response: SessionSetResponse }),
};
