import { z } from 'zod';

/**
 * The structured question: what the planner understood, independent of any table. A question is
 * subjects × a measure × a period × an aggregation (a small semantic layer: the measure catalog in
 * policies/measures.yaml says which aggregations each measure allows). Follow-ups are edits of the
 * previous structured question ("e em abril?" changes the period only).
 */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

/**
 * A period as the person said it. Relative periods stay symbolic: "hoje", "últimos 6 meses" and
 * "este ano" are resolved by the executor against the latest date the series has (never the clock).
 */
export const PeriodSpec = z.discriminatedUnion('kind', [
  /** "hoje", "atual", no period at all: the latest value the series has. */
  z.object({ kind: z.literal('latest') }),
  /** "ontem": the session before the series' latest one. */
  z.object({ kind: z.literal('previous_session') }),
  /** A closed calendar range ("em março de 2024", "no 1º trimestre de 2023", "de jan a jun de 2025", "13/06/2025"). */
  z.object({
    kind: z.literal('range'),
    from: IsoDate,
    to: IsoDate,
    /** 'days': a range whose ends are days the person named ("de 02/01/2025 a 14/11/2025"): it starts on its first day. */
    grain: z.enum(['day', 'days', 'month', 'quarter', 'semester', 'year', 'custom']),
  }),
  /** "nos últimos 6 meses", "últimos 30 dias", "12 meses": ending at the series' latest date. */
  z.object({ kind: z.literal('trailing'), unit: z.enum(['day', 'month', 'year']), n: z.number().int().min(1).max(600) }),
  /** "há um ano", "3 meses atrás": the value at that distance before the series' latest date. */
  z.object({ kind: z.literal('ago'), unit: z.enum(['day', 'month', 'year']), n: z.number().int().min(1).max(600) }),
  /** "desde 2020", "desde março de 2021": to the series' latest date. */
  z.object({ kind: z.literal('since'), from: IsoDate }),
  /** "este ano" (0), "ano passado" (-1): calendar years counted from the series' latest year. */
  z.object({
    kind: z.literal('relative_year'),
    offset: z.number().int().min(-50).max(0),
    to_date: z.boolean().default(false),
    /** "setembro do ano passado": one month (or months) of that year. */
    month: z.number().int().min(1).max(12).optional(),
  }),
  /** "este mês" (0), "mês passado" (-1). */
  /** ("mês passado" is the calendar's month before this one, `calendar`; "mês anterior" counts from the data's latest month.) */
  z.object({ kind: z.literal('relative_month'), offset: z.number().int().min(-600).max(0), calendar: z.boolean().optional() }),
  /**
   * Months named without a year ("em abril", "no 1º trimestre", "de janeiro a junho"): the year comes
   * from the conversation, else the latest year of the series that has these months.
   */
  z.object({ kind: z.literal('months_of_year'), from_month: z.number().int().min(1).max(12), to_month: z.number().int().min(1).max(12) }),
  /**
   * A day without its year, or without its month ("e no dia 20?", "e em 10/06?"): of the conversation's month and year;
   * with `to`, the days from it to another one without their year ("de 10/06 até 25/06").
   */
  z.object({
    kind: z.literal('day_of_month'),
    day: z.number().int().min(1).max(31),
    month: z.number().int().min(1).max(12).nullable(),
    to: z.object({ day: z.number().int().min(1).max(31), month: z.number().int().min(1).max(12) }).optional(),
  }),
]);
export type PeriodSpec = z.infer<typeof PeriodSpec>;

export const SubjectKind = z.enum(['fund', 'index', 'indicator', 'currency', 'portfolio']);
export type SubjectKind = z.infer<typeof SubjectKind>;
export const QuestionSubject = z.object({ kind: SubjectKind, id: z.string().min(1).max(32) });
export type QuestionSubject = z.infer<typeof QuestionSubject>;
/** The market's series (an index, an indicator, a currency): each is also the filter key that picks it in an entity's rows. */
export const MARKET_KINDS = ['index', 'indicator', 'currency'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];
export const isMarketKind = (kind: string): kind is MarketKind => (MARKET_KINDS as readonly string[]).includes(kind);

/** How the values of the period become the answer. */
export const MeasureAgg = z.enum([
  'value', // the value at the period's end (or the latest)
  'list', // every value of the period
  'total', // sum (flows: dividends)
  'avg',
  'min', // with its date
  'max', // with its date
  'first',
  'last',
  'variation', // between the period's ends (levels: prices, index points)
  'accumulated', // compounded (monthly rates)
  'count',
  'changes', // how many times the value changed from one date to the next ("quantas vezes a Selic mudou")
  'rises', // ... went up
  'falls', // ... went down
]);
export type MeasureAgg = z.infer<typeof MeasureAgg>;

/** The most subjects one question compares (funds, indices...): more are asked again in smaller groups. */
export const MAX_QUESTION_SUBJECTS = 10;

export const StructuredQuestion = z.object({
  subjects: z.array(QuestionSubject).max(MAX_QUESTION_SUBJECTS),
  /**
   * A measure of policies/measures.yaml, or null when the question names none. Null with several
   * market subjects is a panel: each series' own measure, at the same date.
   */
  measure: z.string().max(48).nullable(),
  agg: MeasureAgg.nullable(),
  /** Further aggregations asked together ("maior e menor", "primeiro e último", "quantos e quanto no total"). */
  also: z.array(MeasureAgg).max(4).default([]),
  period: PeriodSpec.nullable(),
  group_by: z.enum(['day', 'month', 'year']).nullable(),
  /** "qual é maior/melhor/paga mais": the comparison names a winner by this order. */
  compare: z.enum(['max', 'min']).nullable(),
  /**
   * "o melhor mês do IFIX em 2023", "em que mês o IFIX mais caiu": `agg` (max/min) picks among the groups'
   * own figures (a level's variation in each month, a flow's total), not among the values.
   */
  /** "se eu tivesse 500 cotas do HGLG11": a holding said; a per-share figure is also said for that many shares. */
  shares: z.number().int().positive().max(100_000_000).optional(),
  extreme_group: z.boolean().optional(),
  /** "quanto recebi de cada fii": the client's own measure, one figure per fund held (not the portfolio's rows). */
  each_fund: z.boolean().optional(),
  /**
   * "... dividido pelo fechamento de 25/06/2025": the days whose last close a yield divides by, when the question
   * names them (else the period's own last close).
   */
  price_at: z.object({ from: IsoDate, to: IsoDate }).optional(),
  /** "em quantos meses o IPCA passou de 1%": the values counted are those above/below a level. */
  condition: z
    .object({ op: z.enum(['gt', 'lt']), value: z.number() })
    .nullable()
    .default(null),
});
export type StructuredQuestion = z.infer<typeof StructuredQuestion>;

/** What a follow-up took from the previous question and what it changed, for meta and the explain panel. */
export const FollowUpMeta = z.object({
  applied: z.boolean(),
  inherited: z.array(z.string()),
  changed: z.array(z.string()),
  reason: z.string(),
});
export type FollowUpMeta = z.infer<typeof FollowUpMeta>;

/**
 * How a measure's values are said: reais, percent, points, a count, a plain number (`ratio`: a Sharpe,
 * a beta), a monthly/yearly/daily rate, or a fraction stored as such and said as a percent (`fraction`: a
 * drawdown of 0,1526 is 15,26%).
 */
export const MeasureUnit = z.enum(['brl', 'pct', 'points', 'count', 'ratio', 'pct_month', 'pct_year', 'pct_day', 'fraction']);
export type MeasureUnit = z.infer<typeof MeasureUnit>;

/** One subject's answer to a structured question. */
export const MeasureValue = z.object({
  subject: QuestionSubject,
  /** The answer's number (null: no data in the period). */
  value: z.number().nullable(),
  /** The date the value belongs to (the max's day, the last session...). */
  date: IsoDate.nullable(),
  /** Variation/accumulation ends, when the aggregation has them. */
  start: z.object({ date: IsoDate, value: z.number() }).nullable(),
  end: z.object({ date: IsoDate, value: z.number() }).nullable(),
  /** A return on adjusted closes (dividends reinvested) also said on the traded closes at the same ends, when both are traded. */
  traded: z
    .object({ value: z.number(), start: z.object({ date: IsoDate, value: z.number() }), end: z.object({ date: IsoDate, value: z.number() }) })
    .nullable()
    .default(null),
  /** How many values the period had. */
  count: z.number().int(),
  /** The further aggregations asked (StructuredQuestion.also), each with its date when it has one. */
  extra: z.array(z.object({ agg: MeasureAgg, value: z.number().nullable(), date: IsoDate.nullable() })).default([]),
  /** A second date of the value (a dividend's payment date; the data-com of a payment dated by its payment). */
  paid_on: IsoDate.nullable().default(null),
  /** The closest dates with data around an empty period ("o dado anterior é de 29/04/2022"). */
  nearest: z.object({ before: IsoDate.nullable(), after: IsoDate.nullable() }).nullable().default(null),
  /** The values that met the question's condition (their dates), when it had one. */
  matched: z.array(IsoDate).nullable().default(null),
  /** In a panel (several series at one date, or their returns over a period), the measure, aggregation and unit of this line. */
  measure: z.string().nullable().default(null),
  /** In a returns panel: 'variation' for a level (an index, a currency), 'accumulated' for a rate (compounded). */
  agg: MeasureAgg.nullable().default(null),
  unit: MeasureUnit.nullable().default(null),
  /** The answering measure's grain when it differs from the result's (a fallback to a monthly series). */
  grain: z.enum(['day', 'month']).nullable().default(null),
  /** The measure that answered when the one asked had no data (the close for "mínima" without intraday prices). */
  fallback: z.string().nullable().default(null),
  /** Days of the period left out of the series for a corrupted value at the source (the dollar at R$ 0,16), said with the answer. */
  skipped: z.array(z.object({ date: IsoDate, value: z.number().nullable() })).default([]),
  /** The period's values, newest last; a trade's carry its shares and price per share ("1 venda: 70 cotas a R$ 86,70"). */
  rows: z.array(
    z.object({
      date: IsoDate,
      value: z.number(),
      quantity: z.number().optional(),
      price: z.number().optional(),
      /** A trade of the whole portfolio: its fund, and its side where the measure counts both ("me lista minhas operações"). */
      fund: z.string().optional(),
      side: z.enum(['buy', 'sell']).optional(),
      /** The row's other date, where the measure declares one: a payment's data-com, or the day a data-com's payment was made. */
      other_date: IsoDate.optional(),
    }),
  ),
  /** A client's figure over the whole portfolio: the funds its rows came from, in order. */
  funds: z.array(z.string()).default([]),
  /** Dates the series has for this subject: a period without data is answered with them. */
  coverage: z.object({ from: IsoDate, to: IsoDate }).nullable(),
  /** The period the values came from, resolved to dates. */
  period: z.object({ from: IsoDate, to: IsoDate }).nullable(),
  adjusted: z.boolean(),
  /**
   * What a yield's price (`end`) is: a traded close, or the publisher's reference price of its snapshot
   * (P/VP × NAV per share), which is no traded close and is said as such.
   */
  price_kind: z.enum(['close', 'reference']).nullable().default(null),
  /**
   * The publisher's own figure for the value when it differs from Cota's (another window, or payments the base
   * does not hold yet): its value, publication date and the last payment it counts. Said beside the value, never instead.
   */
  published: z.object({ value: z.number(), date: IsoDate, paid_to: IsoDate.nullable() }).nullable().default(null),
  sources: z.array(z.string()),
});
export type MeasureValue = z.infer<typeof MeasureValue>;

export const MeasureResult = z.object({
  measure: z.string(),
  /** The catalog entity the measure belongs to (meta.entity). */
  entity: z.string(),
  agg: MeasureAgg,
  unit: MeasureUnit,
  /** Unit of the aggregate when it differs from the measure's (a price's variation is a percentage). */
  value_unit: MeasureUnit,
  group_by: z.enum(['day', 'month', 'year']).nullable(),
  /** `agg` picked the month (year) whose own figure is the extreme; `values[].rows` are those figures. */
  extreme_group: z.boolean().optional(),
  /** What to say when a fallback measure answered (the catalog's note, pt-BR). */
  fallback_note: z.string().nullable().default(null),
  /** "quais dos meus fundos estão com P/VP abaixo de 0,95?": the values kept meet the condition, of `of` subjects asked. */
  screened: z
    .object({ of: z.number().int().nonnegative(), op: z.enum(['gt', 'lt']), value: z.number() })
    .nullable()
    .default(null),
  /** Monthly series are dated by month in answers. */
  grain: z.enum(['day', 'month']).default('day'),
  values: z.array(MeasureValue),
  /** The subject that wins the comparison, when one was asked. */
  winner: QuestionSubject.nullable(),
  /**
   * The calendar day (America/Sao_Paulo) a question about "ontem" or "este mês" was asked on: when the
   * data does not reach it, the answer gives the latest value and says how far the data goes.
   */
  today: IsoDate.nullable().default(null),
  /** A fund measure asked of the client's portfolio: its funds' values weighted by market value. */
  portfolio: z
    .object({ value: z.number().nullable(), weights: z.array(z.object({ ticker: z.string(), weight: z.number() })) })
    .nullable()
    .default(null),
});
export type MeasureResult = z.infer<typeof MeasureResult>;
