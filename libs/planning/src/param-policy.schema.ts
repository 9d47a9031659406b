import { z } from 'zod';
import { Agg, Order } from '@cota/contracts';

const FilterKey = z.enum(['indicator', 'currency', 'index', 'benchmark', 'date', 'sector', 'fund_type', 'loss_risk']);
export type FilterKey = z.infer<typeof FilterKey>;

const Window = z.string().regex(/^(rows:\d{1,4}|months:\d{1,3}|days:\d{1,4}|year:\d{4})$/, 'must be rows:N, months:N, days:N or year:YYYY');

/** Per entity (seed 000: `params.ticker.source: [text, context]`, `context_key: last_reference`). */
const TickerDecl = z
  .object({
    source: z.array(z.enum(['text', 'context'])),
    context_key: z.literal('last_reference').optional(),
    required: z.boolean(),
    /**
     * Listable across funds only when the question asks for a list (a filter, "top N", "quais
     * fundos", a plural): "qual o cnpj?" alone is about one fund, so Cota asks which.
     */
    list_needs_cue: z.boolean().default(false),
  })
  .strict();

const EntityParams = z
  .object({
    ticker: TickerDecl,
    /** Aggregation used when the question asks for none (or for one the entity cannot do). */
    agg: Agg,
    aggs: z.array(Agg).min(1),
    /** Window for `latest` when the text gives none. */
    latest_window: Window.nullable().default(null),
    order: Order.nullable().default(null),
    limit: z.number().int().min(1).max(1000).nullable().default(null),
    filters: z.array(FilterKey).default([]),
    /** Numeric columns a question may put a condition on ("DY acima de 15%"); named by `condition_words`. */
    conditions: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (!e.aggs.includes(e.agg)) ctx.addIssue({ code: 'custom', path: ['agg'], message: `must be one of aggs (${e.aggs.join(', ')})` });
    if (e.ticker.required && !e.ticker.source.includes('text')) {
      ctx.addIssue({ code: 'custom', path: ['ticker', 'source'], message: 'must include text when a ticker is required' });
    }
  });
export type EntityParamsSpec = z.infer<typeof EntityParams>;

const Words = z.array(z.string().min(1)).min(1);
/** canonical value -> words that name it. */
const Vocabulary = z.record(z.string().min(1), Words);

export const ParamPolicySchema = z
  .object({
    version: z.literal(1),
    /** Named ticker declarations the entities reuse (YAML anchors); documentation only. */
    ticker_presets: z.record(z.string(), TickerDecl).default({}),
    agg_words: z.object({ avg: Words, sum: Words, count: Words, list: Words, latest: Words }).strict(),
    /** Phrases that contain an aggregation word without asking for it ("preço médio" of a position). */
    agg_vetoes: z
      .array(
        z
          .object({
            agg: Agg,
            phrases: z.array(z.string().min(1)).min(1),
            /** Entities the veto applies to; all when omitted. */
            entities: z.array(z.string()).optional(),
          })
          .strict(),
      )
      .default([]),
    /**
     * Decides the aggregation for the listed entities before any word does, when every group of
     * `all` has a phrase in the question (stemmed, anywhere): "acumulado em 12 meses" of
     * fiis_dividends_yields is its stored 12-month figure (latest row), not a sum of rows.
     */
    agg_overrides: z
      .array(
        z
          .object({
            agg: Agg,
            all: z.array(z.array(z.string().min(1)).min(1)).min(1),
            entities: z.array(z.string()).min(1),
          })
          .strict(),
      )
      .default([]),
    /** Precedence when several aggregation words appear. */
    agg_precedence: z.array(Agg).min(1),
    number_words: z.record(z.string().min(1), z.number().int().positive()),
    month_names: z.record(z.string().min(1), z.number().int().min(1).max(12)),
    window_units: z.object({ months: Words, years: Words, days: Words, weeks: Words, rows: Words }).strict(),
    order_words: z.object({ asc: z.array(z.string()), desc: z.array(z.string()) }).strict(),
    filters: z
      .object({
        indicator: Vocabulary,
        currency: Vocabulary,
        index: Vocabulary,
        benchmark: Vocabulary,
        sector: Vocabulary,
        /** The fund's type in the registry (papel, tijolo, híbrido, desenvolvimento, fundo de fundos). */
        fund_type: Vocabulary,
        /** A legal process's chance of loss as the fund reports it (remota, possível, provável). */
        loss_risk: Vocabulary,
      })
      .strict(),
    /** column -> the words that name it in a numeric condition ("dy", "valor de mercado", "p/vp"). */
    condition_words: Vocabulary.default({}),
    ranking: z
      .object({
        entity: z.string().min(1),
        default_limit: z.number().int().min(1).max(1000),
        /** rank column -> phrases; the first column (in file order) whose phrase matches wins. */
        columns: Vocabulary,
        /** "piores"/"menores": the list is read from the bottom (order desc). */
        worst_words: z.array(z.string().min(1)),
        /**
         * Phrases that make a question a list across funds ("top 5", "quais fiis"): with no ticker in
         * the text it must not inherit the conversation's fund.
         */
        cross_fund_words: z.array(z.string().min(1)),
        /**
         * The rank column a segment's funds are listed by when the question names the segment but no
         * measure ("quais fiis de hotel existem?"): the biggest funds first.
         */
        segment_order: z.string().min(1),
        /** "o KNIP11 é de papel?": a segment or type said of a named fund, nothing else asked, is answered by its registry. */
        class_of_fund_entity: z.string().min(1),
        /**
         * Metrics without a rank column ("ranking por P/VP"): ranked by ordering `entity` on `order_by`
         * across funds, ascending or descending by the question's words, else `order`.
         */
        redirects: z
          .array(
            z
              .object({
                order_by: z.string().min(1),
                entity: z.string().min(1),
                words: Words,
                asc_words: z.array(z.string().min(1)).default([]),
                desc_words: z.array(z.string().min(1)).default([]),
                order: Order,
              })
              .strict(),
          )
          .default([]),
      })
      .strict(),
    /** Words that, with a year, ask for that year's last value ("quanto fechou o IBOV em 2024"). */
    year_close_words: z.array(z.string().min(1)).default([]),
    entities: z.record(z.string().regex(/^[a-z0-9_]+$/), EntityParams),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (!p.entities[p.ranking.entity]) ctx.addIssue({ code: 'custom', path: ['ranking', 'entity'], message: 'is not an entity of this file' });
    p.ranking.redirects.forEach((r, i) => {
      const spec = p.entities[r.entity];
      if (!spec) ctx.addIssue({ code: 'custom', path: ['ranking', 'redirects', i, 'entity'], message: `${r.entity} is not an entity of this file` });
      else if (!spec.aggs.includes('list')) ctx.addIssue({ code: 'custom', path: ['ranking', 'redirects', i, 'entity'], message: `${r.entity} must offer agg list` });
    });
    p.agg_overrides.forEach((o, i) =>
      o.entities.forEach((e, j) => {
        const spec = p.entities[e];
        if (!spec) ctx.addIssue({ code: 'custom', path: ['agg_overrides', i, 'entities', j], message: `${e} is not an entity of this file` });
        else if (!spec.aggs.includes(o.agg)) ctx.addIssue({ code: 'custom', path: ['agg_overrides', i, 'agg'], message: `${o.agg} is not offered by ${e}` });
      }),
    );
  });
export type ParamPolicySpec = z.infer<typeof ParamPolicySchema>;
