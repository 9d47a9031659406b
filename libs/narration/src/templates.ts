import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { loadYamlFile, policiesDir, PolicyError } from '@cota/config';
import { checkSyntax, placeholdersOf } from './template-text';

/**
 * `policies/templates/<entity>.yaml`: how one entity's rows are told to a person. Templates are
 * data: which sentence for one row (and for a question about one field), which columns make the
 * table when rows are many, how aggregates and windows are phrased.
 */

const Text = z
  .string()
  .trim()
  .min(1)
  .superRefine((t, ctx) => {
    const problem = checkSyntax(t);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

export const WindowUnitSchema = z.object({ one: z.string().min(1), many: z.string().min(1), gender: z.enum(['m', 'f']) }).strict();
export type WindowUnit = z.infer<typeof WindowUnitSchema>;

export const EntityTemplateSchema = z
  .object({
    entity: z.string().min(1),
    /** The data with its article, for sentences like "Não encontrei os dividendos ..." */
    subject: Text,
    /** What the entity answers, for asking back ("dados cadastrais (CNPJ, administrador, ISIN)"). */
    describe: Text,
    /** The fund column rows are grouped by (null for market and client entities). */
    key: z.string().nullable(),
    /** Column with the fund's name, used by `{fund}` ("HGLG11 (Pátria Log ...)"). */
    name_column: z.string().nullable().default(null),
    /** Column naming each row of a fund's list (a property's name): a row the question names is the one answered. */
    row_name_column: z.string().nullable().default(null),
    /** The date rows are ordered by, used by `{first_date}`/`{last_date}` and the period. */
    date_column: z.string().nullable(),
    /** Monthly series phrase their dates as months. */
    monthly: z.boolean().default(false),
    /** Other date columns that hold a month ("Início do período": fevereiro de 2022). */
    month_columns: z.array(z.string()).default([]),
    /** How `rows:N` windows are phrased ("nos últimos 6 pagamentos"). */
    window_unit: WindowUnitSchema.default({ one: 'registro', many: 'registros', gender: 'm' }),
    /** Sentences for questions about one field, matched by keywords of the question. */
    focus: z
      .array(
        z
          .object({
            keywords: z.array(z.string().trim().min(2)).min(1),
            sentence: Text,
            /** Said instead when `sentence` lacks a required value (another source's figure). */
            fallback: Text.optional(),
            /** Table columns when the question is about this field and rows are many. */
            columns: z.array(z.string()).default([]),
            /** Lead line of a list of many funds when the question is about this field ("Sua carteira tem resultado de ..."). */
            lead_all: Text.optional(),
            /** Lead line of one fund's many rows when the question is about this field (the fund's vacancy over its properties). */
            lead: Text.optional(),
            /**
             * The field's own dating, when it is not the row's (a head count from one monthly report):
             * the answer's source line then names this source and date, not the snapshot's.
             */
            dated_by: z
              .object({ date: z.string(), source: z.string().optional(), grain: z.enum(['day', 'month']).default('day') })
              .strict()
              .optional(),
          })
          .strict(),
      )
      .default([]),
    /**
     * How a filter of the entity's own rows is said, `{value}` in lower case ("loss_risk: com risco de perda {value}"):
     * `{kept}` in the entity's sentences and the no-data message, so rows kept to a value never read as all of them.
     */
    kept: z.record(z.string(), z.string().includes('{value}')).default({}),
    one_row: z
      .object({
        /** Tried in order; each one whose required values exist is used, up to `max_sentences`. */
        sentences: z.array(Text).min(1),
        max_sentences: z.number().int().min(1).max(10).default(2),
        /** Extra "Label: value" lines after the sentences (summaries). */
        details: z.array(z.string()).default([]),
        /** Said instead when every detail is missing (a fund without risk metrics). */
        empty: Text.optional(),
      })
      .strict(),
    many_rows: z
      .object({
        /** Lead line before a fund's table. */
        lead: Text,
        /** Lead line when rows are of many funds (ranking, market data). */
        lead_all: Text,
        columns: z.array(z.string()).min(1),
        /**
         * Columns a list ordered by a column shows with it, whatever the words ("e só os de papel?" after
         * "maior peso no IFIX" keeps the weights): order_by column → the values behind that order.
         */
        by_order: z.record(z.string(), z.array(z.string()).min(1)).default({}),
      })
      .strict(),
    aggregates: z
      .object({
        /** The column avg/sum/count apply to. */
        measure: z.string().min(1),
        avg: Text,
        sum: Text,
        count: Text,
      })
      .strict()
      .nullable()
      .default(null),
  })
  .strict();

export type EntityTemplate = z.infer<typeof EntityTemplateSchema>;
export type TemplateSet = Record<string, EntityTemplate>;

/** Values every template may use besides the row's columns. */
export const NARRATION_VALUES = ['fund', 'count', 'window', 'first_date', 'last_date', 'value', 'subject', 'nickname', 'funds', 'filters', 'conditions', 'order', 'kept'] as const;

/** Columns every aggregate row has besides its key columns (libs/warehouse query builder). */
export const AGGREGATE_COLUMNS = ['period_start', 'period_end', 'row_count'] as const;

/** Loads and checks every `policies/templates/*.yaml`; the file name must be the entity. */
export function loadTemplates(dir: string = policiesDir()): TemplateSet {
  const folder = join(dir, 'templates');
  if (!existsSync(folder)) throw new PolicyError('policies/templates', '(folder)', 'is missing: one template per entity is required');
  const out: TemplateSet = {};
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const path = join(folder, file);
    const tpl = loadYamlFile(path, EntityTemplateSchema);
    const name = basename(file, '.yaml');
    if (tpl.entity !== name) throw new PolicyError(`policies/templates/${file}`, 'entity', `must be '${name}' (the file name), got '${tpl.entity}'`);
    out[name] = tpl;
  }
  return out;
}

/** Every column a template names, with the field that names it (for start-up errors). */
export function referencedColumns(tpl: EntityTemplate): Array<{ field: string; column: string }> {
  const refs: Array<{ field: string; column: string }> = [];
  const add = (field: string, column: string | null) => {
    if (column) refs.push({ field, column });
  };
  const addText = (field: string, text: string) => {
    for (const name of placeholdersOf(text)) {
      if (!(NARRATION_VALUES as readonly string[]).includes(name)) add(field, name);
    }
  };
  add('key', tpl.key);
  add('name_column', tpl.name_column);
  add('row_name_column', tpl.row_name_column);
  add('date_column', tpl.date_column);
  tpl.month_columns.forEach((c, i) => add(`month_columns.${i}`, c));
  tpl.focus.forEach((f, i) => {
    addText(`focus.${i}.sentence`, f.sentence);
    if (f.fallback) addText(`focus.${i}.fallback`, f.fallback);
    if (f.lead_all) addText(`focus.${i}.lead_all`, f.lead_all);
    if (f.lead) addText(`focus.${i}.lead`, f.lead);
    f.columns.forEach((c, j) => add(`focus.${i}.columns.${j}`, c));
  });
  tpl.one_row.sentences.forEach((s, i) => addText(`one_row.sentences.${i}`, s));
  tpl.one_row.details.forEach((c, i) => add(`one_row.details.${i}`, c));
  if (tpl.one_row.empty) addText('one_row.empty', tpl.one_row.empty);
  addText('many_rows.lead', tpl.many_rows.lead);
  addText('many_rows.lead_all', tpl.many_rows.lead_all);
  tpl.many_rows.columns.forEach((c, i) => add(`many_rows.columns.${i}`, c));
  for (const [by, cols] of Object.entries(tpl.many_rows.by_order)) {
    add(`many_rows.by_order.${by}`, by);
    cols.forEach((c, i) => add(`many_rows.by_order.${by}.${i}`, c));
  }
  if (tpl.aggregates) {
    add('aggregates.measure', tpl.aggregates.measure);
    for (const k of ['avg', 'sum', 'count'] as const) {
      for (const name of placeholdersOf(tpl.aggregates[k])) {
        const known = (NARRATION_VALUES as readonly string[]).includes(name) || (AGGREGATE_COLUMNS as readonly string[]).includes(name);
        if (!known) add(`aggregates.${k}`, name);
      }
    }
  }
  return refs;
}

/** Column names per entity, as the entity catalog declares them. */
export type CatalogColumns = Record<string, string[]>;

/**
 * Start-up check against the entity catalog: every referenced column must exist, and (when
 * `requireAll`) every catalog entity must have a template. Throws PolicyError naming the field.
 */
export function validateTemplates(templates: TemplateSet, catalog: CatalogColumns, opts: { requireAll?: boolean } = {}): void {
  for (const [entity, tpl] of Object.entries(templates)) {
    const columns = catalog[entity];
    const file = `policies/templates/${entity}.yaml`;
    if (!columns) throw new PolicyError(file, 'entity', `'${entity}' is not in the entity catalog`);
    for (const ref of referencedColumns(tpl)) {
      if (!columns.includes(ref.column)) {
        throw new PolicyError(file, ref.field, `names column '${ref.column}', which ${entity} does not have (columns: ${columns.join(', ')})`);
      }
    }
  }
  if (opts.requireAll) {
    for (const entity of Object.keys(catalog)) {
      if (!templates[entity]) throw new PolicyError(`policies/templates/${entity}.yaml`, '(file)', 'is missing: every catalog entity needs a template');
    }
  }
}

/** The filters of the entity's own rows a query kept, as the template says them ("com risco de perda provável"); null when none. */
export function keptPhrase(tpl: EntityTemplate | null | undefined, filters: Readonly<Record<string, string>> | undefined): string | null {
  const said = Object.entries(filters ?? {})
    .filter(([k]) => tpl?.kept[k])
    .map(([k, v]) => tpl!.kept[k].replace('{value}', v.toLowerCase()));
  return said.length ? said.join(' e ') : null;
}
