import { z } from 'zod';
import { defineRpc } from '../define';
import { Caller, QueryParams, Ticker } from '../common';
import { ContextMeta, ConversationState } from '../conversation-state';
import { FollowUpMeta, StructuredQuestion } from '../question';
import { ExecutionPlan } from '../plan';

/** A question and what its conversation holds (from `context.open`): the planner reads the turn once against it. */
export const PlanRequest = Caller.extend({
  question: z.string().min(1).max(2000),
  /** null for a conversation the context could not describe (its first turn reads the same). */
  state: ConversationState.nullable().default(null),
});

/** What kind of answer the question needs. */
export const PlanKind = z.enum([
  'entity', // answered from a catalog entity
  'measure', // a measure over a period, computed from the measure catalog (structured question)
  'smalltalk', // greeting, thanks, "o que você sabe fazer?"
  'concept', // conceptual question ("o que é P/VP?"), answered from the knowledge base
  'tool', // a tool runs (report, filter, e-mail, calculation)
  'plan', // several steps (facts and tools) run in waves and are synthesised (comparison, projection, screen, benchmark)
  'confirmation', // "sim"/"não" answering a pending action
  'clarification', // two readings too close or too weak: ask back
  'unknown', // nothing matched
]);
export type PlanKind = z.infer<typeof PlanKind>;

/** The intent (and the answer's problem) of a question naming more funds than one question compares (MAX_QUESTION_SUBJECTS). */
export const TOO_MANY_FUNDS = 'too_many_funds';

export const PlanCandidate = z.object({
  entity: z.string(),
  score: z.number(),
  signals: z.array(z.string()),
  /** How Cota names this reading when it asks back, pt-BR ("os dividendos pagos pelo fundo"). */
  label: z.string().optional(),
});

export const PlannerMeta = z.object({
  normalized: z.string(),
  score: z.number(),
  gap: z.number(),
  accepted: z.boolean(),
  thresholds: z.object({ min_score: z.number(), min_gap: z.number() }),
  candidates: z.array(PlanCandidate),
  llm_used: z.boolean(),
  reason: z.string(),
});
export type PlannerMeta = z.infer<typeof PlannerMeta>;

/**
 * A tool call as the planner read it: the arguments the message states, and whether it continues the
 * conversation's call waiting for an argument (`complete`) or edits the last one (`edit`).
 */
export const ToolReading = z.object({
  name: z.string(),
  args: z.record(z.unknown()),
  continuation: z.enum(['none', 'complete', 'edit']).optional(),
  /** The message reads as this tool on its own ("e o VPL desses fluxos?"): its arguments may stand alone. */
  own: z.boolean().optional(),
  /** The conversation's one fund, for tools that take a ticker ("e o número mágico dele?"). */
  context_ticker: Ticker.nullable().optional(),
});
export type ToolReading = z.infer<typeof ToolReading>;

export const OutOfScopeReading = z.object({ reason: z.enum(['asset', 'measure', 'topic']), term: z.string().max(64).nullable() });
export type OutOfScopeReading = z.infer<typeof OutOfScopeReading>;

/** How one question is read (a compound question has several: see PlanResponse.parts). */
export const PlanReading = z.object({
  kind: PlanKind,
  intent: z.string(),
  entity: z.string().nullable(),
  /** Tickers written in the question, in order; unknown ones listed separately. */
  tickers_in_text: z.array(Ticker),
  unknown_tickers: z.array(z.string()),
  /** How many funds the question names (`tickers_in_text` keeps the first 20): more than a question compares is said in the answer. */
  funds_named: z.number().int().min(0).optional(),
  /** Parameters inferred from the question, with the turn's funds (written or inherited) in `ticker`/`tickers`. */
  params: QueryParams,
  /** How the turn's funds were decided under the last-reference rule (CONTRACT, three layers); set once the turn is read. */
  context: ContextMeta.optional(),
  /** Where a ticker may come from for this entity (param_inference.yaml). */
  ticker_sources: z.array(z.enum(['text', 'context'])),
  /** Whether the entity cannot answer without a ticker. */
  ticker_required: z.boolean(),
  tool: ToolReading.nullable(),
  smalltalk: z.enum(['greeting', 'thanks', 'capabilities', 'goodbye', 'identity', 'advice', 'out_of_scope']).nullable(),
  /** What the question asks that Cota does not cover (smalltalk `out_of_scope`): another asset, a measure FIIs do not report, another topic. */
  out_of_scope: OutOfScopeReading.nullable().default(null),
  /** A request for a recommendation: the answer gives facts and says Cota does not recommend. */
  advice: z.boolean().default(false),
  confirmation: z.enum(['yes', 'no']).nullable(),
  /** The question has no subject of its own and continues the previous one ("e o do XPML11?", "e em 2023?"). */
  elliptic: z.boolean().default(false),
  /**
   * The question may edit the previous one ("e em abril?", "compara com o XPML11", "qual deles"): the
   * gateway re-plans it with the previous structured question when the conversation has one.
   */
  follow_up_candidate: z.boolean().default(false),
  /** The structured question (subjects, measure, period, aggregation), when the planner could build one. */
  question: StructuredQuestion.nullable().default(null),
  /** kind 'plan': the validated execution plan (from the deterministic shapes or an LLM). */
  plan: ExecutionPlan.nullable().default(null),
  /** What a follow-up inherited from the previous question and what it changed. */
  follow_up: FollowUpMeta.nullable().default(null),
  planner: PlannerMeta,
  /** A part of a compound question: the words this part asks, as it was read (the narrator words the answer to them). */
  asked: z.string().max(2000).optional(),
});
export type PlanReading = z.infer<typeof PlanReading>;

/** The most parts a compound question is answered in. */
export const MAX_QUESTION_PARTS = 4;

export const PlanResponse = PlanReading.extend({
  /**
   * A compound question ("o CNPJ e o P/VP do GTWR11"): the other things it asked, each read as a
   * question of its own and answered after this one, in the order asked. Absent for one thing asked.
   */
  parts: z
    .array(PlanReading)
    .max(MAX_QUESTION_PARTS - 1)
    .optional(),
});
export type PlanRequest = z.infer<typeof PlanRequest>;
export type PlanResponse = z.infer<typeof PlanResponse>;

export const PlannerSubjects = {
  plan: defineRpc({ subject: 'cota.planner.plan.v2', service: 'planner', request: PlanRequest, response: PlanResponse, idempotent: true }),
};
