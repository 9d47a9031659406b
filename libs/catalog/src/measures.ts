import { z } from 'zod';
import { CATALOG_ENTITIES, MARKET_KINDS, MeasureAgg, MeasureUnit, SubjectKind } from '@cota/contracts';
import { loadPolicy, policiesDir } from '@cota/config';

/**
 * The measure catalog (policies/measures.yaml): what a structured question can ask, where each
 * series lives and how a period of it is aggregated. Every identifier the measure query writes
 * comes from here, so names are restricted to plain lower-case identifiers at load time.
 */
const Ident = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier');
const Unit = MeasureUnit;
const Words = z.array(z.string().min(1)).min(1);

export const MeasureKind = z.enum([
  'level', // prices, index points: a value at a date; periods vary and have extremes
  'flow', // dividends: periods sum
  'stock', // NAV, shareholders (monthly reports): a value at a date
  'yield', // dividends of the period over the price at its end
  'monthly_rate', // IPCA, IGP-M: periods compound
  'annual_rate', // SELIC, CDI: a rate at a date; periods average
]);
export type MeasureKind = z.infer<typeof MeasureKind>;

/** Which value of a measure wins a comparison: the higher (DY), the lower (P/VP), or none (a price: a matter of taste). */
export const Better = z.enum(['higher', 'lower', 'none']);
export type Better = z.infer<typeof Better>;

/** What one row of a series is, to count rows in words ("3 pagamentos"). */
const RowNoun = z.object({ one: z.string().min(1), many: z.string().min(1) }).strict();

export const MeasureDefSchema = z
  .object({
    /** The measure's name on its own (charts, the explain panel): "preço de fechamento". */
    label: z.string().min(1),
    /** How an answer names it, with its article: "o dividend yield", "as cotas vendidas". */
    answer_name: z.string().regex(/^(o|a|os|as) \S/, 'must start with its article (o, a, os, as)'),
    /** What one row is, for measures whose totals and counts say how many rows they took. */
    row_noun: RowNoun.optional(),
    /** How an answer names its largest or smallest value, where "o maior valor d…" would not do ("o maior dividendo por cota", "a máxima"). */
    extreme_names: z
      .object({ max: z.string().min(1).optional(), min: z.string().min(1).optional() })
      .strict()
      .optional(),
    better: Better,
    entity: z.enum(CATALOG_ENTITIES as unknown as [string, ...string[]]),
    subject: SubjectKind,
    subject_ids: z.array(z.string().regex(/^[A-Z0-9-]{2,16}$/)).optional(),
    table: Ident,
    subject_column: Ident,
    date_column: Ident,
    value_column: Ident,
    adjusted_column: Ident.optional(),
    /** Yields: the measure whose value at the period's end divides the period's flow (dy = dividends / price). */
    price_measure: z.string().optional(),
    /** A second date shown with the value (a dividend's payment date). */
    secondary_date_column: Ident.optional(),
    /** Answers in its place, saying so, when this measure has no data in the period (intraday extremes → closes). */
    fallback_measure: z.string().optional(),
    /** Where the current value is published (a snapshot): "hoje" and the last 12 months read it. */
    current: z
      .object({
        table: Ident,
        subject_column: Ident,
        date_column: Ident,
        value_column: Ident,
        /** The measure's entity lists a history: a question of the latest value is the measure's current value. */
        answers_latest: z.boolean().default(false),
        /** What a current yield rests on (its window, sum, count, price and source), said with the value. */
        basis: z
          .object({
            from_column: Ident,
            total_column: Ident,
            count_column: Ident,
            price_column: Ident,
            price_date_column: Ident,
            /** What the price is: a traded close ('close') or a publisher's reference price ('reference'). */
            price_kind_column: Ident.optional(),
            source_column: Ident,
            /**
             * The publisher's own figure for the same measure, its publication date and the last payment its window
             * holds: said beside the value when it differs (another window, or payments the base does not have yet).
             */
            published: z.object({ value_column: Ident, date_column: Ident, paid_to_column: Ident }).strict().optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    /** Monthly series (rates, CVM reports) are dated by month: answers say "outubro de 2021", not 01/10/2021. */
    grain: z.enum(['day', 'month']).default('day'),
    /**
     * How "os últimos n meses" is counted (libs/periods `trailingMonths`): `month` for monthly events
     * (distributions: 12 whole months ending with the latest data's month), `day` for daily series.
     */
    window_grain: z.enum(['day', 'month']).default('day'),
    /** How an annual rate accumulates over a period: compounded per business day (252 a year). */
    compounding: z.enum(['daily_252']).optional(),
    /** Client measures: rows are always filtered by the authenticated client on this column (never by the question). */
    client_column: Ident.optional(),
    /** Rows the measure counts, fixed by the catalog (a client's buys: side = buy). */
    /** Rows of one kind only (`equals`), or of a few (`in`: "operações" are buys and sells, not splits). */
    fixed_filter: z
      .object({
        column: Ident,
        equals: z
          .string()
          .regex(/^[a-z0-9_]{1,32}$/, 'must be a plain lower-case code')
          .optional(),
        in: z
          .array(z.string().regex(/^[a-z0-9_]{1,32}$/, 'must be a plain lower-case code'))
          .min(1)
          .optional(),
      })
      .strict()
      .refine((f) => (f.equals === undefined) !== (f.in === undefined), { message: 'declare equals or in, one of them' })
      .optional(),
    /**
     * The source's own figure of the measure in the same row (`table` at the value's date), said beside
     * Cota's when they differ, in its own unit, with a note on what it lacks (a volatility with no stated unit).
     */
    published: z
      .object({ value_column: Ident, unit: Unit, source: z.string().min(1), note: z.string().min(1) })
      .strict()
      .optional(),
    /** Amounts per share of a fund (a distribution): a holding said ("com 500 cotas") is also said in total. */
    per_share: z.boolean().default(false),
    /** The client's own income of a fund asked for a holding said ("se eu tivesse 500 cotas"): that fund measure per share. */
    /** A trade's own columns: each row of the measure is a trade, said with its shares and price per share. */
    trade: z
      .object({
        quantity_column: Ident,
        price_column: Ident,
        /** Where a measure counts both sides, the column that says which ("buy", "sell"). */
        side_column: Ident.optional(),
      })
      .strict()
      .optional(),
    per_share_measure: z.string().optional(),
    /** Said after the value when a fallback measure answered in this one's place. */
    fallback_note: z.string().optional(),
    /**
     * The range a value can plausibly take (docs/METRICS.md, "Plausibility"): one outside it is still
     * said, since it is what the sources give, but with a warning (a 12-month DY of 187%).
     */
    plausible: z.object({ above: z.number().optional(), below: z.number().optional() }).strict().optional(),
    /** Generic measures (price: "fechamento", "cotação") give way when a more specific one is also named. */
    priority: z.number().int().min(0).max(9).default(1),
    unit: Unit,
    kind: MeasureKind,
    aggregations: z.array(MeasureAgg).min(1),
    default_agg: MeasureAgg,
    words: Words,
    /** A total of positions valued at the last close (market value, unrealised gain): the answer says that close's date. */
    as_of_close: z.boolean().default(false),
    /**
     * A client's level whose whole portfolio is the sum of its funds' at the same date (a position's value at a close):
     * asked of the portfolio, each fund held then is valued and the funds are summed.
     */
    sum_of_funds: z.boolean().default(false),
    /**
     * Words that name this measure together, apart in the question, one of each group ("quando eu comprei o KNHY11
     * e a que preço?": a purchase and a price name the purchase's price).
     */
    words_apart: z
      .array(z.array(z.string().min(1)).min(1))
      .min(2)
      .optional(),
    /**
     * Words that say which date the facts go by ("pela data com"): among measures of the same facts
     * (same table and value) dated differently, they choose this one whatever the other words said
     * ("quanto pagou em 2024 pela data com?" goes by data-com). They also name the measure alone.
     */
    dating_words: z.array(z.string().min(1)).default([]),
    /**
     * Words that say which date the facts go by without naming the measure ("referente a maio", "com data com em
     * junho"): they choose among the same facts dated otherwise, and leave the measure to the other words or the conversation.
     */
    dating_only_words: z.array(z.string().min(1)).default([]),
    /**
     * Words that name this measure when the question names no period ("preço médio do KNRI11" is what the client
     * paid for it; "preço médio do KNRI11 em 2024" is the mean close of that year).
     */
    periodless_words: z.array(z.string().min(1)).default([]),
    /**
     * Words that name this measure when the question names one month or a day of it ("quanto o ABCP11 pagou de
     * dividendo em outubro de 2025?" is what was paid that month, by payment date; "dividendos de outubro" go by data-com).
     */
    period_words: z.array(z.string().min(1)).default([]),
    /** A signed result said as what it is: "um lucro de R$ 168,70", "um prejuízo de R$ 126,40 (-R$ 126,40)" (never a bare negative amount). */
    outcome_words: z.object({ gain: z.string().min(1), loss: z.string().min(1) }).optional(),
    /** Words that name this measure only when the question is about the client's holdings ("preço médio do KNIP11 na minha carteira"). */
    client_words: z.array(z.string().min(1)).default([]),
    /**
     * Measures of one family (the client's sales) read each other's follow-ups: right after a question of the
     * family, `family_words` name this measure too ("vendi quantas cotas?" → "a que preço?" is the sale's price).
     */
    family: z
      .string()
      .regex(/^[a-z_]{2,32}$/)
      .optional(),
    family_words: z.array(z.string().min(1)).default([]),
    /**
     * Subjects whose figure over a span (a month, a semester, a year) is what they accumulated in it, as
     * investors quote them ("o CDI de março de 2023" is 1,17%, not the annual rate), unless the measure's
     * own words ask the rate ("a taxa do CDI em março").
     */
    span_accumulates: z.array(z.string().min(1)).default([]),
    /** Beside the measure's own words, what asks the rate itself over a span, not what it accumulated ("quanto tava o CDI em abril?"). */
    rate_words: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.family_words.length && !m.family) ctx.addIssue({ code: 'custom', path: ['family_words'], message: 'family words need the family they are read in' });
    if (m.subject === 'portfolio' && !m.client_column) ctx.addIssue({ code: 'custom', path: ['client_column'], message: 'portfolio measures must be filtered by client' });
    if (m.client_column && m.subject !== 'portfolio') ctx.addIssue({ code: 'custom', path: ['subject'], message: 'client measures are portfolio measures' });
    if (!m.aggregations.includes(m.default_agg)) ctx.addIssue({ code: 'custom', path: ['default_agg'], message: 'must be one of aggregations' });
    if (m.aggregations.includes('accumulated') && m.kind !== 'monthly_rate' && !m.compounding) {
      ctx.addIssue({ code: 'custom', path: ['aggregations'], message: "'accumulated' compounds monthly rates, or annual rates that declare their compounding" });
    }
    if (m.rate_words.length && !m.span_accumulates.length)
      ctx.addIssue({ code: 'custom', path: ['rate_words'], message: 'only a measure quoted over a span by what it accumulates has them' });
    if (m.span_accumulates.length && !m.aggregations.includes('accumulated'))
      ctx.addIssue({ code: 'custom', path: ['span_accumulates'], message: 'needs the accumulated aggregation' });
    for (const id of m.span_accumulates) if (!m.subject_ids?.includes(id)) ctx.addIssue({ code: 'custom', path: ['span_accumulates'], message: `${id} is not one of subject_ids` });
    if (m.aggregations.includes('total') && m.kind !== 'flow') ctx.addIssue({ code: 'custom', path: ['aggregations'], message: "'total' sums flows only" });
    if (m.sum_of_funds && (m.subject !== 'portfolio' || m.kind !== 'level'))
      ctx.addIssue({ code: 'custom', path: ['sum_of_funds'], message: "sums the client's funds' levels: a portfolio measure of kind level" });
  })
  // (a dating word names its measure like any of its words, everywhere words are read)
  .transform((m) => ({ ...m, words: [...new Set([...m.words, ...m.dating_words])] }));
export type MeasureDef = z.infer<typeof MeasureDefSchema> & { name: string };

const AggWords = z.object(Object.fromEntries(MeasureAgg.options.map((a) => [a, z.array(z.string()).default([])])) as Record<MeasureAgg, z.ZodDefault<z.ZodArray<z.ZodString>>>);

export const MeasureCatalogSchema = z
  .object({
    measures: z.record(z.string().regex(/^[a-z_]{2,48}$/), MeasureDefSchema),
    subjects: z.object({
      index: z.record(z.string(), Words),
      indicator: z.record(z.string(), Words),
      currency: z.record(z.string(), Words),
      portfolio: z.record(z.string(), Words),
    }),
    aggregations: AggWords,
    group_by: z.object({ month: Words, year: Words }),
    /** "em quantos meses de 2024 o IFIX caiu?": a count of moves made by groups (each group's last value against the one before). */
    moves_by: z.object({ month: Words, year: Words }).default({ month: [], year: [] }),
    compare: z.object({ max: Words, min: Words }),
    /**
     * "o melhor mês do IFIX em 2023", "em que mês o IFIX mais caiu": the group (month, year) asked for by its
     * unit ("qual mês", "melhor mês"), and the words of the direction its own figure is picked by.
     */
    group_extreme: z.object({ units: z.object({ day: Words, month: Words, year: Words }), max: Words, min: Words }).strict(),
    /** "quando eu comprei o HGLG11?": a flow asked when, with nothing else asked of it, lists its rows with their dates. */
    dates_asked: Words,
    each_fund: Words,
    list_order: z.object({ max: Words, min: Words }).strict(),
    per_share_words: Words,
    /** The client's positions: a fund measure asked of "meus fundos" is asked of each, weighted by value for averages. */
    portfolio: z.object({ table: Ident, client_column: Ident, ticker_column: Ident, weight_column: Ident }).strict(),
    /** The measure an entity answer stands for when its question named none (for follow-ups to edit). */
    entity_defaults: z.record(z.enum(CATALOG_ENTITIES as unknown as [string, ...string[]]), z.string()).default({}),
  })
  .strict()
  .superRefine((c, ctx) => {
    for (const [entity, name] of Object.entries(c.entity_defaults)) {
      if (c.measures[name]?.entity !== entity) ctx.addIssue({ code: 'custom', path: ['entity_defaults', entity], message: `'${name}' is not a measure of ${entity}` });
    }
    for (const [name, m] of Object.entries(c.measures)) {
      if (m.fallback_measure && !c.measures[m.fallback_measure]) ctx.addIssue({ code: 'custom', path: ['measures', name, 'fallback_measure'], message: 'is not a measure' });
      if (m.per_share_measure && !c.measures[m.per_share_measure]?.per_share) {
        ctx.addIssue({ code: 'custom', path: ['measures', name, 'per_share_measure'], message: 'is not a per-share measure' });
      }
      if (m.kind === 'yield' && (!m.price_measure || c.measures[m.price_measure]?.kind !== 'level')) {
        ctx.addIssue({ code: 'custom', path: ['measures', name, 'price_measure'], message: 'a yield needs the level measure it divides by' });
      }
    }
    for (const kind of MARKET_KINDS) {
      for (const id of Object.keys(c.subjects[kind])) {
        const served = Object.values(c.measures).some((m) => m.subject === kind && (!m.subject_ids || m.subject_ids.includes(id)));
        if (!served) ctx.addIssue({ code: 'custom', path: ['subjects', kind, id], message: 'no measure serves this subject' });
      }
    }
  });

export interface MeasureCatalog {
  measures: Record<string, MeasureDef>;
  subjects: z.infer<typeof MeasureCatalogSchema>['subjects'];
  aggregations: Record<MeasureAgg, string[]>;
  group_by: { month: string[]; year: string[] };
  moves_by: { month: string[]; year: string[] };
  compare: { max: string[]; min: string[] };
  group_extreme: { units: { day: string[]; month: string[]; year: string[] }; max: string[]; min: string[] };
  dates_asked: string[];
  /** "quanto recebi de cada fii": the client's own figure fund by fund, one line each. */
  each_fund: string[];
  /** "do maior pro menor": several subjects listed in the measure's order. */
  list_order: { max: string[]; min: string[] };
  /** "quanto foi por cota?" after the client's own figure: its fund measure per share (`per_share_measure`). */
  per_share_words: string[];
  entity_defaults: Record<string, string>;
  portfolio: { table: string; client_column: string; ticker_column: string; weight_column: string };
}

/** Reads policies/measures.yaml once at start-up; a bad file throws PolicyError naming the field. */
export function loadMeasureCatalog(dir = policiesDir()): MeasureCatalog {
  const raw = loadPolicy('measures', MeasureCatalogSchema, dir);
  const measures = Object.fromEntries(Object.entries(raw.measures).map(([name, m]) => [name, { ...m, name }]));
  return { ...raw, measures, aggregations: raw.aggregations as Record<MeasureAgg, string[]> };
}

/** Two measures of the same facts (one table, value, unit and kind), whichever date each goes by (dividends by data-com and by payment). */
export function sameFacts(a: MeasureDef, b: MeasureDef): boolean {
  return a.table === b.table && a.value_column === b.value_column && a.unit === b.unit && a.kind === b.kind;
}

/**
 * A fund measure's client counterpart: the portfolio measure of what the client's shares got of it (`per_share_measure`),
 * the one per share of this very measure first (dated alike: dividends by data-com are received by data-com).
 */
export function clientMeasureOf(catalog: MeasureCatalog, fund: MeasureDef): MeasureDef | undefined {
  if (fund.subject !== 'fund') return undefined;
  const own = Object.values(catalog.measures).filter((m) => m.subject === 'portfolio' && m.per_share_measure);
  return own.find((m) => m.per_share_measure === fund.name) ?? own.find((m) => sameFacts(catalog.measures[m.per_share_measure!], fund));
}

/** The measure that serves a market subject by default (IFIX → index_points, IPCA → monthly_rate). */

export function defaultMeasureFor(catalog: MeasureCatalog, kind: SubjectKind, id: string): MeasureDef | null {
  return Object.values(catalog.measures).find((m) => m.subject === kind && (!m.subject_ids || m.subject_ids.includes(id))) ?? null;
}
