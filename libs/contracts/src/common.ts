import { TICKER_RE } from '@cota/text';
import { z } from 'zod';

/** Who is asking. Set by the gateway from the API key, never from the request body. */
export const Caller = z.object({
  request_id: z.string().min(1),
  client_id: z.string().min(1),
  conversation_id: z.string().min(1),
});
export type Caller = z.infer<typeof Caller>;

export { TICKER_RE };
export const Ticker = z.string().regex(TICKER_RE, 'is not a fund ticker (AAAA11)');

export const Agg = z.enum(['list', 'latest', 'avg', 'sum', 'count']);
export type Agg = z.infer<typeof Agg>;
export const Order = z.enum(['asc', 'desc']);

/**
 * Window of a query: `rows:N` (last N rows), `months:N` (last N months from the newest row),
 * `year:YYYY` (one calendar year), or null (entity default).
 */
export const Window = z
  .string()
  .regex(/^(rows:\d{1,4}|months:\d{1,3}|days:\d{1,4}|year:\d{4})$/, 'must be rows:N, months:N, days:N or year:YYYY')
  .nullable();

/** Query parameters as meta.params shows them (CONTRACT: ticker, tickers, agg, window, limit, order). */
export const QueryParams = z.object({
  ticker: Ticker.nullable(),
  tickers: z.array(Ticker).max(20),
  agg: Agg,
  window: Window,
  limit: z.number().int().min(1).max(1000).nullable(),
  /**
   * How many rows the question itself asked for ("top 50", "últimos 1000"), when it named a number:
   * an answer with fewer rows says why (the most a query lists, or all there is).
   */
  limit_asked: z.number().int().min(1).max(1000).nullable().optional(),
  order: Order.nullable(),
  /** Column to order by (must be one the entity allows). */
  order_by: z.string().max(64).nullable().default(null),
  /** Entity-specific filters declared in the catalog (e.g. indicator: SELIC, currency: USD). */
  filters: z.record(z.string().max(64), z.string().max(128)).default({}),
  /**
   * Numeric conditions on the entity's own numeric columns ("DY acima de 15%", "valor de mercado
   * acima de 1 bi"): every one must hold. Values travel as query parameters.
   */
  conditions: z
    .array(
      z.object({
        column: z
          .string()
          .regex(/^[a-z][a-z0-9_]*$/)
          .max(64),
        op: z.enum(['gt', 'lt']),
        value: z.number().min(-1e15).max(1e15),
      }),
    )
    .max(4)
    .optional(),
});
export type QueryParams = z.infer<typeof QueryParams>;
export type QueryCondition = NonNullable<QueryParams['conditions']>[number];

export const TurnRole = z.enum(['user', 'assistant', 'system']);
export const Turn = z.object({
  role: TurnRole,
  content: z.string(),
  created_at: z.string(),
  meta: z.record(z.unknown()).default({}),
});
export type Turn = z.infer<typeof Turn>;

export const Column = z.object({
  name: z.string(),
  type: z.enum(['text', 'integer', 'number', 'money', 'percent', 'ratio', 'date', 'datetime', 'boolean', 'cnpj', 'url']),
  label: z.string(),
});
export type Column = z.infer<typeof Column>;

export const Row = z.record(z.unknown());
export type Row = z.infer<typeof Row>;

/** Rows an entity query returned, with what is needed to present and audit them. */
export const QueryResult = z.object({
  entity: z.string(),
  columns: z.array(Column),
  rows: z.array(Row),
  row_count: z.number().int(),
  truncated: z.boolean(),
  /** Newest date among the rows (ISO), when the entity is dated. */
  as_of: z.string().nullable(),
  /** Values of the rows dated otherwise than as_of (an overview's last price): label and date (ISO). */
  as_of_notes: z.array(z.object({ label: z.string(), date: z.string() })).optional(),
  /** Where the facts came from (source folders / publishers). */
  sources: z.array(z.string()),
  params: QueryParams,
  /** A ranking's funds left out because their value of the ranked column is implausible. */
  left_out: z.object({ count: z.number().int(), column: z.string() }).nullable().optional(),
  /** How many rows a list matched when it was cut at its limit ("10 de 18"); null otherwise. */
  matched: z.number().int().min(0).nullable().optional(),
});
export type QueryResult = z.infer<typeof QueryResult>;

export const RagChunk = z.object({
  text: z.string(),
  score: z.number(),
  doc_id: z.string(),
  chunk_id: z.string(),
  collection: z.string(),
  entity: z.string().nullable().default(null),
  source_id: z.string().nullable().default(null),
  tags: z.array(z.string()).default([]),
});
export type RagChunk = z.infer<typeof RagChunk>;

export const Health = z.object({
  service: z.string(),
  instance: z.string(),
  ok: z.boolean(),
  checks: z.record(z.object({ ok: z.boolean(), detail: z.string().optional() })),
});
export type Health = z.infer<typeof Health>;
