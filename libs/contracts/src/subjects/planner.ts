import { z } from 'zod';
import { defineRpc } from '../define';
import { Caller, QueryParams, Ticker } from '../common';
import { FollowUpMeta, PeriodSpec, QuestionSubject, StructuredQuestion } from '../question';
import { ExecutionPlan } from '../plan';

export const PlanRequest = Caller.extend({
  question: z.string().min(1).max(2000),
  /**
   * The entity of the conversation's previous answer, sent only to re-plan an elliptic follow-up
   * ("E o do XPML11?" after a P/VP question): the planner then keeps that subject.
   */
  previous_entity: z.string().nullable().default(null),
  /** The previous answer's structured question: a follow-up ("e em abril?") is planned as an edit of it. */
  previous_question: StructuredQuestion.nullable().default(null),
  /** The funds the previous answer was about ("qual deles paga mais?" ranks over them). */
  previous_tickers: z.array(Ticker).max(50).default([]),
  /** The subjects of the answer before the previous one ("qual dos dois" after "IFIX em nov/23?" → "e o IBOV?"). */
  earlier_subjects: z.array(QuestionSubject).max(10).default([]),
  /** The period of the answer before the previous one ("cotistas em dez/2021" → "e em dez/2023?" → "quanto variou nesse intervalo?"). */
  earlier_period: PeriodSpec.nullable().default(null),
  /**
   * The previous answer's query parameters and the filters the conversation holds: a follow-up of the
   * same entity edits them ("e os de logística?" changes a ranking's filter, keeps its order and size).
   */
  previous_params: QueryParams.nullable().default(null),
  previous_filters: z.record(z.string().max(64), z.string().max(128)).default({}),
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

export const PlanResponse = z.object({
  kind: PlanKind,
  intent: z.string(),
  entity: z.string().nullable(),
  /** Tickers written in the question, in order; unknown ones listed separately. */
  tickers_in_text: z.array(Ticker),
  unknown_tickers: z.array(z.string()),
  /** Parameters inferred from the text only; the context service may fill `ticker`. */
  params: QueryParams,
  /** Where a ticker may come from for this entity (param_inference.yaml). */
  ticker_sources: z.array(z.enum(['text', 'context'])),
  /** Whether the entity cannot answer without a ticker. */
  ticker_required: z.boolean(),
  tool: z.object({ name: z.string(), args: z.record(z.unknown()) }).nullable(),
  smalltalk: z.enum(['greeting', 'thanks', 'capabilities', 'goodbye', 'identity', 'advice']).nullable(),
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
});
export type PlanRequest = z.infer<typeof PlanRequest>;
export type PlanResponse = z.infer<typeof PlanResponse>;

export const PlannerSubjects = {
  plan: defineRpc({ subject: 'cota.planner.plan.v1', service: 'planner', request: PlanRequest, response: PlanResponse, idempotent: true }),
};
