import { z } from 'zod';
import { Column } from '@cota/contracts';

/**
 * One catalog entity (policies/entities/<entity>.yaml). Every SQL identifier the executor ever
 * writes comes from here, so names are restricted to plain lower-case identifiers at load time.
 */
const Ident = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier');

export const FilterDef = z.discriminatedUnion('match', [
  /** column = value; `values` (when given) is the closed list of accepted values. */
  z.object({ match: z.literal('exact'), column: Ident, values: z.array(z.string()).optional() }),
  /** Codes compared without case and punctuation (IGP-M = IGPM = igpm). */
  z.object({ match: z.literal('code'), column: Ident, values: z.array(z.string()).optional() }),
  /** Free text compared without case and accents (segment names). */
  z.object({ match: z.literal('text'), column: Ident }),
  /**
   * A fund's registry field (segment), for entities that list funds without carrying it: the rows are
   * those whose ticker the registry table files under that value (compared without case and accents).
   */
  z.object({ match: z.literal('registry'), table: Ident, column: Ident }),
  /**
   * The funds the authenticated client holds ("quem administra os meus fiis?"): the rows whose ticker the
   * client's positions table lists for the client (`column` is its client column). The value is not
   * read: the client is always the authenticated one.
   */
  z.object({ match: z.literal('held'), table: Ident, column: Ident }),
  /** Wide tables: the value picks a column that must be present (index IFIX -> ifix_points_count). */
  z.object({ match: z.literal('present'), columns: z.record(z.string().regex(/^[A-Z0-9]+$/), Ident) }),
]);
export type FilterDef = z.infer<typeof FilterDef>;

export const EntityDefSchema = z
  .object({
    entity: Ident,
    description: z.string().min(3),
    /** The entity's class: fund, market or client (what it answers about; client entities are private). */
    scope: z.enum(['fund', 'market', 'client']),
    view: Ident,
    identifiers: z.object({ ticker: z.boolean(), client: z.boolean() }),
    date_column: Ident.nullable(),
    /**
     * What dates an undated entity's values (a snapshot, a registry, a portfolio at its last prices):
     * the newest value of this column is the answer's as-of date. Ignored when date_column is set.
     */
    as_of_column: Ident.nullable().default(null),
    /** Values of the same row dated otherwise (an overview's last price): said next to the as-of date. */
    other_dates: z.array(z.object({ column: Ident, label: z.string().min(1) }).strict()).default([]),
    /** Extra partition columns for "latest" and row windows (e.g. indicator_name). */
    series: z.array(Ident).default([]),
    columns: z
      .array(
        Column.extend({
          name: Ident,
          label: z.string().min(1),
          /**
           * Values a ranking by this column may show (exclusive bounds): a P/VP of -0,34 or 0,00 or a
           * 117% yield is a data error, not the top of a list. Documented in docs/METRICS.md.
           */
          plausible: z.object({ above: z.number().optional(), below: z.number().optional() }).strict().optional(),
          /** A rank column: the column whose values it ranks (a ranking by it keeps that column's plausible bounds). */
          ranks: Ident.optional(),
        }),
      )
      .min(1),
    default_order: z.object({ by: Ident, dir: z.enum(['asc', 'desc']) }),
    orderings: z.array(Ident).min(1),
    aggregations: z.array(z.enum(['list', 'latest', 'avg', 'sum', 'count'])).min(1),
    aggregatable: z.array(Ident).default([]),
    windows: z.array(z.enum(['rows', 'months', 'days', 'year'])).default([]),
    default_window: z
      .string()
      .regex(/^(rows:\d{1,4}|months:\d{1,3}|days:\d{1,4})$/)
      .nullable()
      .default(null),
    default_limit: z.number().int().min(1).max(1000),
    max_rows: z.number().int().min(1).max(5000),
    filters: z.record(Ident, FilterDef).default({}),
    privacy: z.enum(['public', 'client_private']),
    sources: z.array(z.string().min(1)).min(1),
  })
  .strict()
  .superRefine((e, ctx) => {
    const names = new Set(e.columns.map((c) => c.name));
    const need = (name: string, path: (string | number)[]) => {
      if (!names.has(name)) ctx.addIssue({ code: 'custom', path, message: `'${name}' is not a column of the entity` });
    };
    if (e.date_column) need(e.date_column, ['date_column']);
    if (e.as_of_column) need(e.as_of_column, ['as_of_column']);
    e.other_dates.forEach((o, i) => need(o.column, ['other_dates', i, 'column']));
    need(e.default_order.by, ['default_order', 'by']);
    e.orderings.forEach((o, i) => need(o, ['orderings', i]));
    e.series.forEach((s, i) => need(s, ['series', i]));
    e.columns.forEach((c, i) => c.ranks && need(c.ranks, ['columns', i, 'ranks']));
    e.aggregatable.forEach((a, i) => {
      need(a, ['aggregatable', i]);
      const col = e.columns.find((c) => c.name === a);
      if (col && !['integer', 'number', 'money', 'percent', 'ratio'].includes(col.type)) {
        ctx.addIssue({ code: 'custom', path: ['aggregatable', i], message: `'${a}' is not numeric` });
      }
    });
    if (e.identifiers.ticker) need('ticker', ['identifiers', 'ticker']);
    if (e.scope === 'client' && (!e.identifiers.client || e.privacy !== 'client_private')) {
      ctx.addIssue({ code: 'custom', path: ['identifiers', 'client'], message: 'client entities must be filtered by client and private' });
    }
    if (e.scope !== 'client' && e.identifiers.client) {
      ctx.addIssue({ code: 'custom', path: ['identifiers', 'client'], message: 'only client entities are filtered by client' });
    }
    if ((e.aggregations.includes('avg') || e.aggregations.includes('sum')) && e.aggregatable.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['aggregatable'], message: 'avg/sum need at least one aggregatable column' });
    }
    if (e.windows.length && !e.date_column) ctx.addIssue({ code: 'custom', path: ['windows'], message: 'windows need a date_column' });
    for (const [key, f] of Object.entries(e.filters)) {
      if (key === 'date') ctx.addIssue({ code: 'custom', path: ['filters', key], message: "'date' is implicit for dated entities" });
      if (f.match === 'present') Object.entries(f.columns).forEach(([v, c]) => need(c, ['filters', key, 'columns', v]));
      else if (f.match === 'registry' || f.match === 'held') {
        if (!e.identifiers.ticker) ctx.addIssue({ code: 'custom', path: ['filters', key], message: `${f.match} filters need a ticker column` });
      } else need(f.column, ['filters', key, 'column']);
    }
  });

export type EntityDef = z.infer<typeof EntityDefSchema>;
export type EntityCatalog = Record<string, EntityDef>;
