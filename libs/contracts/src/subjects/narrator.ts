import { z } from 'zod';
import { defineRpc, defineStream } from '../define';
import { QueryParams, QueryResult, RagChunk } from '../common';
import { NarratorMemory } from './context';
import { MeasureResult, StructuredQuestion } from '../question';
import { OutOfScopeReading, PlanKind } from './planner';
import { ToolMeta } from './tool-gate';
import { PlanRun } from '../plan';

export const NarratorMeta = z.object({
  llm_used: z.boolean(),
  reason: z.string(),
  model: z.string().nullable(),
  latency_ms: z.number(),
});
export type NarratorMeta = z.infer<typeof NarratorMeta>;

/** Everything the answer may be built from; the narrator never queries anything itself. */
export const NarrateRequest = z.object({
  request_id: z.string().min(1),
  question: z.string(),
  nickname: z.string(),
  status: z.enum(['ok', 'needs_clarification', 'confirmation_required', 'error']),
  kind: PlanKind,
  intent: z.string(),
  entity: z.string().nullable(),
  params: QueryParams.nullable(),
  smalltalk: z.string().nullable(),
  /** What Cota does not cover, when the question asked it (smalltalk `out_of_scope`). */
  out_of_scope: OutOfScopeReading.nullable().default(null),
  unknown_tickers: z.array(z.string()),
  /** How many funds the question named (PlanResponse.funds_named), for an answer that says how many it takes. */
  funds_named: z.number().int().min(0).optional(),
  /** Candidate entities when asking back. */
  candidates: z.array(z.string()),
  /** Why the question cannot be answered (no ticker, not found...), as a code the templates know. */
  problem: z.string().nullable(),
  data: QueryResult.nullable(),
  /** The question asked for a recommendation: the answer ends with the not-advice note. */
  advice: z.boolean().default(false),
  /** A computed measure (kind 'measure') and the question it answers. */
  measure: MeasureResult.nullable().default(null),
  question_spec: StructuredQuestion.nullable().default(null),
  tool: z.object({ meta: ToolMeta.nullable(), result: z.unknown(), message: z.string().nullable() }).nullable(),
  /** kind 'plan': the plan and what each step gave. */
  plan: PlanRun.nullable().default(null),
  rag: z.array(RagChunk),
  memory: NarratorMemory,
  context_used: z.boolean(),
  /** Publish the model's text as it is written (guarded sentence by sentence) on NarratorStream. */
  stream: z.boolean().default(false),
});
export type NarrateRequest = z.infer<typeof NarrateRequest>;

export const NarrateResponse = z.object({ answer: z.string(), narrator: NarratorMeta });
export type NarrateResponse = z.infer<typeof NarrateResponse>;

export const NarratorSubjects = {
  narrate: defineRpc({ subject: 'cota.narrator.narrate.v1', service: 'narrator', request: NarrateRequest, response: NarrateResponse, timeoutMs: 20000 }),
};

/** Guarded pieces of the answer while the model writes it, for the chat page (server-sent events). */
export const AnswerDelta = z.object({ request_id: z.string(), seq: z.number().int().min(0), text: z.string() });
export type AnswerDelta = z.infer<typeof AnswerDelta>;
export const NarratorStream = defineStream({ prefix: 'cota.narrator.delta.v1', service: 'narrator', payload: AnswerDelta });
