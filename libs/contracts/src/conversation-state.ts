import { z } from 'zod';
import { QueryParams, Ticker } from './common';
import { IsoDate, MAX_QUESTION_SUBJECTS, PeriodSpec, QuestionSubject, StructuredQuestion } from './question';

/** How the planner decided the turn's funds under the contract's last-reference rule (`meta.context`). */
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

/** A tool call kept by the conversation: waiting for `missing` arguments, or the last one that ran. */
export const ToolCallState = z.object({ tool: z.string(), args: z.record(z.unknown()), missing: z.array(z.string()) });
export type ToolCallState = z.infer<typeof ToolCallState>;

/**
 * What a conversation holds when a turn opens (`context.open`), the one input the planner reads a
 * follow-up against: the last reference, the previous structured question and what it listed, the
 * answer before it, and the tool call waiting for an argument or just run.
 */
export const ConversationState = z.object({
  /** The turn being opened (user turns so far, this one included). */
  turn_index: z.number().int().min(1),
  last_entity: z.string().nullable(),
  last_tickers: z.array(Ticker),
  /** Filters the previous answer used (indicator, currency, index...), so "e em 2023?" keeps them. */
  last_filters: z.record(z.string(), z.string()).default({}),
  /** The previous answer's structured question, when it had one. */
  last_question: StructuredQuestion.nullable().default(null),
  /** The previous entity answer's query parameters. */
  last_params: QueryParams.nullable().default(null),
  /** The funds the previous answer listed, in the order shown. */
  last_listed_tickers: z.array(Ticker).max(50).default([]),
  /**
   * The conversation's newest list of two or more funds, in the order shown: it stays the list while
   * later answers pick from it ("qual o cnpj do segundo?" then "e o p/vp do terceiro?", "desses, ...").
   */
  last_list: z.array(Ticker).max(50).default([]),
  /** The date of the one value the previous answer found ("o pior mês foi novembro de 2022"): "nesse mês" points at it. */
  last_answered_date: IsoDate.nullable().default(null),
  /** The other things the previous question asked when it was compound ("o VP por cota e o patrimônio"): "e do HGLG11?" edits each. */
  last_also_questions: z.array(StructuredQuestion).max(3).default([]),
  /** The subjects of the answered question before the last one, for "qual dos dois" across two turns. */
  earlier_subjects: z.array(QuestionSubject).max(MAX_QUESTION_SUBJECTS).default([]),
  /** The period of the answer before the previous one: "qual foi a variação nesse intervalo?" spans both. */
  earlier_period: PeriodSpec.nullable().default(null),
  /** The measure of the answer before the previous one: "e do KNCR11 em 2023?" back to the fund asked before asks that measure again. */
  earlier_measure: z.string().nullable().default(null),
  /** The tool call waiting for a missing argument in this conversation, if any. */
  pending_call: ToolCallState.nullable().default(null),
  /** The last tool call that ran (editable tools), so a follow-up can change one of its arguments. */
  last_call: ToolCallState.nullable().default(null),
  /** How the newest answer was made (entity, measure, tool, ...), so follow-ups edit the right thing. */
  last_kind: z.string().nullable().default(null),
  /** The person's words the newest answer answered: a concept's follow-up ("e fundo imobiliário tem isso?") is read with them. */
  last_asked: z.string().max(500).nullable().default(null),
  last_reference: LastReference.nullable(),
  /**
   * Questions opened after the last reference whose answer never came (a 5xx, a timeout): they are
   * not turns of the conversation, so they do not age the reference (CONTRACT: a turn is one question).
   */
  unanswered_since_reference: z.number().int().min(0).default(0),
});
export type ConversationState = z.infer<typeof ConversationState>;
