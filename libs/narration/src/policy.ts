import { z } from 'zod';
import { PlanKind } from '@cota/contracts';
import { loadPolicy, policiesDir } from '@cota/config';

/**
 * `policies/narrator.yaml`: what the narrator may do with a model, how answers are styled and
 * the fixed pt-BR messages for every planner outcome that is not an entity answer.
 * Loaded once at start-up; a bad file stops the service naming file and field.
 */

const Text = z.string().trim().min(1);

export const NarratorPolicySchema = z
  .object({
    version: z.literal(1),
    llm: z
      .object({
        enabled: z.boolean(),
        /** Entities whose answers the model may rephrase; "*" allows every entity. */
        entities: z.array(z.string().min(1)),
        /** Answer kinds the model may rephrase (entity, concept, smalltalk...). */
        kinds: z.array(PlanKind),
        timeout_ms: z.number().int().min(50).max(60000),
        max_chars: z.number().int().min(100).max(20000),
        max_rows_in_prompt: z.number().int().min(1).max(500),
        max_history_turns: z.number().int().min(0).max(50),
        max_rag_chunks: z.number().int().min(0).max(20),
        temperature: z.number().min(0).max(2),
      })
      .strict(),
    style: z.object({ system_prompt: z.string().trim().min(40) }).strict(),
    nickname: z
      .object({
        /** Address the person by nickname on the first answer of a conversation. */
        first_answer: z.boolean(),
        /** Then at most once every N answers (0: only the first answer). */
        every_n_answers: z.number().int().min(0).max(100),
      })
      .strict(),
    tables: z
      .object({
        /** From this many rows on a fund's answer is a table, below it sentences. */
        table_from_rows: z.number().int().min(2).max(50),
        max_rows: z.number().int().min(1).max(500),
        max_columns: z.number().int().min(2).max(12),
        /** Bookkeeping columns never shown to a person. */
        hidden_columns: z.array(z.string()),
      })
      .strict(),
    /** Source ids (as the executor reports them) to the label the person reads. */
    sources: z.record(z.string().min(1), Text),
    concept: z
      .object({
        min_score: z.number().min(0).max(1),
        max_chunks: z.number().int().min(1).max(10),
        max_chars: z.number().int().min(100).max(10000),
      })
      .strict(),
    messages: z
      .object({
        context_prefix: Text,
        source_line: Text,
        source_line_no_date: Text,
        source_line_dated: Text,
        more_rows: Text,
        /** The query hit its row limit inside the asked period (`{count}`, `{window}`). */
        truncated_rows: Text,
        unknown_tickers_note: Text,
        /** A ranking left funds out as implausible (`{count}`, `{column}`). */
        left_out_note: Text,
        list_cut: Text,
        /** Fewer rows than the question asked for: the query's most (`{shown}`, `{asked}`), or all the data has (`{shown}`, `{asked}`, `{unit}`). */
        limit_capped: Text,
        limit_beyond_data: Text,
        smalltalk: z.object({ greeting: Text, thanks: Text, capabilities: Text, goodbye: Text, identity: Text, advice: Text }).strict(),
        /** What Cota does not cover, said plainly (`{termo}`: the asset or measure named). */
        out_of_scope: z
          .object({
            asset: Text,
            measure: Text,
            topic: Text,
            /** Said after it when a verdict was asked too ("vale a pena comprar bitcoin?"). */
            advice: Text,
          })
          .strict(),
        /** Closes an answer to a request for a recommendation. */
        advice_note: Text,
        problems: z
          .object({
            ticker_required: Text,
            /** A market measure asked with no series named ("e em 2023?" when nothing says which index). */
            series_required: Text,
            unknown_ticker: Text,
            no_data: Text,
            /** A list across funds that no fund meets ("fundos de hotelaria com valor de mercado acima de 100 bi"). */
            no_funds_match: Text,
            outside_criterion: Text,
            service_unavailable: Text,
            not_understood: Text,
            /** More funds named than one question compares: {limit} and {count}. */
            too_many_funds: Text,
            generic: Text,
          })
          .strict(),
        clarification: Text,
        clarification_no_candidates: Text,
        concept_intro: Text,
        concept_not_found: Text,
        concept_source: Text,
        tool_done: Text,
        tool_confirm: Text,
        tool_cancelled: Text,
        tool_failed: Text,
        confirmation_nothing_pending: Text,
      })
      .strict(),
  })
  .strict();

export type NarratorPolicy = z.infer<typeof NarratorPolicySchema>;

/** Loads `policies/narrator.yaml` (or from another policies folder, for tests). */
export function loadNarratorPolicy(dir: string = policiesDir()): NarratorPolicy {
  return loadPolicy('narrator', NarratorPolicySchema, dir);
}

/** Whether the policy lets the model rephrase answers of this entity. */
export function llmAllowsEntity(policy: NarratorPolicy, entity: string | null): boolean {
  if (policy.llm.entities.includes('*')) return true;
  return entity !== null && policy.llm.entities.includes(entity);
}
