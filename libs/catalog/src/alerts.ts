import { z } from 'zod';
import { loadPolicy, policiesDir } from '@cota/config';

/**
 * policies/alerts.yaml: what a client can be alerted about. The measures a level or a daily move
 * watches, and the kinds of rule, each with the words that name it in the chat (read by the planner's
 * alert extractor) and the sentences that describe it (libs/alerts, which also evaluates it on the
 * warehouse change events). Nothing about a kind is written per sentence in code.
 */

/** How a change event gives a measure's value; each has an implementation in libs/alerts (observers). */
export const ALERT_OBSERVERS = ['close', 'dy_12m', 'pvp', 'indicator', 'index'] as const;
/** The observers that also know the day before (a daily move can be computed from them). */
export const DAILY_MOVE_OBSERVERS: readonly AlertObserver[] = ['close', 'index'];
export type AlertObserver = (typeof ALERT_OBSERVERS)[number];
export const ALERT_UNITS = ['percent', 'percent_year', 'money', 'ratio', 'points'] as const;
export type AlertUnit = (typeof ALERT_UNITS)[number];
export const ALERT_KINDS = ['distribution', 'level', 'move', 'monthly_report'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const words = z.array(z.string().min(1)).min(1);
/** Phrases that state a direction and are followed by the number: "passar de 9%", "cair mais de 3%". */
const phrases = z.object({ acima: words, abaixo: words, qualquer: words.optional() }).strict();

const AlertMeasure = z
  .object({
    /** The value of criar_alerta's `medida` (policies/tool_gate.yaml). */
    arg: z.string().regex(/^[a-z_]+$/),
    words,
    /** The measure in a sentence: "o DY (12 meses)" ("quando o DY (12 meses) do HGLG11 passar de 9,00%"). */
    name: z.string().min(1),
    /** fund: of one fund (the rule needs a ticker); market: one series. */
    scope: z.enum(['fund', 'market']),
    unit: z.enum(ALERT_UNITS),
    /** A level above this is not possible (asked back). */
    max: z.number().positive().optional(),
    observe: z.enum(ALERT_OBSERVERS),
    /** The series' name in the change events (indicator-published), for `indicator` and `index`. */
    series: z.string().min(1).optional(),
    /** Whether "variar mais de X% num dia" applies. */
    daily_move: z.boolean().default(false),
  })
  .strict();
export type AlertMeasure = z.infer<typeof AlertMeasure> & { id: string };

const Kind = z
  .object({
    /** The value of criar_alerta's `tipo`. */
    arg: z.string().regex(/^[a-z_]+$/),
    /** Words that name the kind (distribution, monthly report), or */
    words: words.optional(),
    /** phrases that state a direction and a number (level, daily move). */
    phrases: phrases.optional(),
    /** The rule in a sentence; {who} is the measure (and fund), {value} the number as written. */
    describe: z.union([z.string().min(1), z.object({ acima: z.string(), abaixo: z.string(), qualquer: z.string().optional() }).strict()]),
    /** For a kind without a measure: the sentence when the rule names no fund (the client's own funds). */
    describe_holdings: z.string().min(1).optional(),
    /** What the kind is, for the question back when nothing was understood. */
    summary: z.string().min(1),
    example: z.string().min(1),
  })
  .strict();
export type AlertKindDef = z.infer<typeof Kind> & { id: AlertKind };

export const AlertCatalogSchema = z
  .object({
    measures: z.record(z.string().regex(/^[a-z_]+$/), AlertMeasure),
    /** In the order the chat's reading tries them (a move's "cair mais de" before a level's "cair"). */
    kinds: z.record(z.enum(ALERT_KINDS), Kind),
  })
  .strict()
  .superRefine((c, ctx) => {
    for (const k of ALERT_KINDS) if (!c.kinds[k]) ctx.addIssue({ code: 'custom', path: ['kinds', k], message: 'missing' });
    const args = new Set<string>();
    for (const [id, m] of Object.entries(c.measures)) {
      if (args.has(m.arg)) ctx.addIssue({ code: 'custom', path: ['measures', id, 'arg'], message: `'${m.arg}' is used twice` });
      args.add(m.arg);
      if ((m.observe === 'indicator' || m.observe === 'index') && !m.series)
        ctx.addIssue({ code: 'custom', path: ['measures', id, 'series'], message: `required by observe: ${m.observe}` });
      if (m.daily_move && !DAILY_MOVE_OBSERVERS.includes(m.observe))
        ctx.addIssue({ code: 'custom', path: ['measures', id, 'daily_move'], message: `observe: ${m.observe} has no day before (only ${DAILY_MOVE_OBSERVERS.join(', ')})` });
    }
    for (const [id, k] of Object.entries(c.kinds)) {
      const measured = id === 'level' || id === 'move';
      if (measured && (!k.phrases || typeof k.describe === 'string'))
        ctx.addIssue({ code: 'custom', path: ['kinds', id], message: 'a measured kind needs phrases and a describe per direction' });
      if (!measured && (!k.words || typeof k.describe !== 'string'))
        ctx.addIssue({ code: 'custom', path: ['kinds', id], message: 'a kind without a measure needs words and one describe' });
    }
  });

export interface AlertCatalog {
  measures: AlertMeasure[];
  /** In the file's order. */
  kinds: AlertKindDef[];
  kind(id: AlertKind): AlertKindDef;
  measure(id: string): AlertMeasure | null;
  measureByArg(arg: string): AlertMeasure | null;
  kindByArg(arg: string): AlertKindDef | null;
}

export function loadAlertCatalog(dir = policiesDir()): AlertCatalog {
  const raw = loadPolicy('alerts', AlertCatalogSchema, dir);
  const measures = Object.entries(raw.measures).map(([id, m]) => ({ ...m, id }));
  const kinds = Object.entries(raw.kinds).map(([id, k]) => ({ ...k!, id: id as AlertKind }));
  return {
    measures,
    kinds,
    kind: (id) => kinds.find((k) => k.id === id)!,
    measure: (id) => measures.find((m) => m.id === id) ?? null,
    measureByArg: (arg) => measures.find((m) => m.arg === arg) ?? null,
    kindByArg: (arg) => kinds.find((k) => k.arg === arg) ?? null,
  };
}

let shared: AlertCatalog | null = null;
/** The shipped catalog, read once (each service that uses it calls this at start-up, so a bad file stops it). */
export function alertCatalog(): AlertCatalog {
  return (shared ??= loadAlertCatalog());
}
