import { z } from 'zod';
import { loadPolicy, PolicyError, policiesDir } from '@cota/config';

/** Argument types a tool contract can declare; values are checked (and coerced) before a tool runs. */
export const ArgType = z.enum(['string', 'integer', 'decimal', 'boolean', 'email', 'enum', 'string_list', 'decimal_list', 'date', 'ticker']);
export type ArgType = z.infer<typeof ArgType>;

/** Names of the extractors the gate knows (see `extract/index.ts`). */
export const EXTRACTOR_NAMES = [
  'report_id',
  'report_filters',
  'email',
  'finance',
  'fund',
  'magic',
  'transaction',
  'transaction_query',
  'tax_sale',
  'trade',
  'ledger_period',
  'return_period',
  'alert',
  'alert_pick',
] as const;

/** Injection sources that are not session keys: the conversation's last single fund (see the gate). */
export const CONTEXT_SOURCES = ['last_ticker'] as const;

/** Arguments required (or one of them) only when another argument has one of some values. */
const Condition = z.record(z.string().min(1), z.array(z.string().min(1)).min(1));

const ArgSpec = z
  .object({
    type: ArgType,
    required: z.boolean().default(false),
    /**
     * Not required when every argument of one of these sets is stated (a sale whose prices are said needs no fund:
     * "comprei a 98 e vendi a 105"; nor does one whose gain is: "vendi com lucro de 3.500").
     */
    required_unless: z.array(z.array(z.string().min(1)).min(1)).default([]),
    /** Enum values (type enum only). */
    values: z.array(z.string().min(1)).optional(),
    /** Session keys tried in order when the argument is missing (explicit values always win). */
    inject_from: z.array(z.string().min(1)).default([]),
    /** Used last, after explicit values and the session. */
    default: z.unknown().optional(),
    /** pt-BR message when a required argument can be neither read nor injected. */
    missing_message: z.string().min(1).optional(),
    description: z.string().optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.type === 'enum' && !a.values?.length) ctx.addIssue({ code: 'custom', path: ['values'], message: 'is required for type enum' });
    if (a.required && a.default === undefined && !a.missing_message) {
      ctx.addIssue({ code: 'custom', path: ['missing_message'], message: 'is required for a required argument without default' });
    }
  });
export type ArgSpec = z.infer<typeof ArgSpec>;

const ToolContract = z
  .object({
    description: z.string().min(1),
    /** A sensitive tool runs only after the person answers "sim" to a preview. */
    sensitive: z.boolean().default(false),
    /** A follow-up may change one argument of the last run ("e a 2% ao mês?"); never for sensitive tools. */
    editable: z.boolean().default(false),
    /** The editable tool a follow-up of this one edits (the briefing is followed by its filter). */
    followed_by: z.string().optional(),
    confirmation: z
      .object({
        /** Argument set to true to ask the executor for a preview (nothing is done). */
        preview_arg: z.string().min(1),
        /** pt-BR prompt; {placeholders} are filled from the preview result. */
        prompt: z.string().min(1),
        /** What is cancelled, for "não" ("o envio do relatório por e-mail"). */
        action: z.string().min(1),
        /**
         * Argument carrying the id of the confirmed preview when the action runs, so that two "sim"
         * racing each other make the tool act once (it deduplicates on this id).
         */
        idempotency_arg: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    extractors: z.array(z.enum(EXTRACTOR_NAMES)).default([]),
    /** At least one of these arguments must be present (e.g. some filter for filtrar_relatorio). */
    require_any: z
      .object({ args: z.array(z.string().min(1)).min(1), message: z.string().min(1) })
      .strict()
      .optional(),
    /** Arguments a calculation needs only in some cases ("vpl" needs fluxos and taxa). */
    required_when: z.array(z.object({ when: Condition, args: z.array(z.string().min(1)).min(1) }).strict()).default([]),
    /** At least one of these arguments in some cases (VaR: returns or a volatility). */
    require_any_when: z.array(z.object({ when: Condition, args: z.array(z.string().min(1)).min(1), message: z.string().min(1) }).strict()).default([]),
    args: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'argument names are snake_case'), ArgSpec).default({}),
  })
  .strict()
  .superRefine((t, ctx) => {
    t.required_when.forEach((r, i) => {
      for (const a of [...Object.keys(r.when), ...r.args]) {
        if (!t.args[a]) ctx.addIssue({ code: 'custom', path: ['required_when', i], message: `names '${a}', which is not an argument` });
      }
      for (const a of r.args) {
        if (t.args[a] && !t.args[a].missing_message)
          ctx.addIssue({ code: 'custom', path: ['args', a, 'missing_message'], message: 'is required for an argument listed in required_when' });
      }
    });
    t.require_any_when.forEach((r, i) => {
      for (const a of [...Object.keys(r.when), ...r.args]) {
        if (!t.args[a]) ctx.addIssue({ code: 'custom', path: ['require_any_when', i], message: `names '${a}', which is not an argument` });
      }
    });
    if (t.sensitive && !t.confirmation) ctx.addIssue({ code: 'custom', path: ['confirmation'], message: 'is required for a sensitive tool' });
    if (t.sensitive && t.editable) ctx.addIssue({ code: 'custom', path: ['editable'], message: 'a sensitive tool cannot be editable' });
    for (const a of t.require_any?.args ?? []) {
      if (!t.args[a]) ctx.addIssue({ code: 'custom', path: ['require_any', 'args'], message: `names '${a}', which is not an argument` });
    }
  });
export type ToolContract = z.infer<typeof ToolContract>;

const VocabularyEntry = z.object({ label: z.string().min(1), terms: z.array(z.string().min(1)).min(1) }).strict();
/** A category of the client's transactions; `tipo` is what an entry in it is when the message does not say. */
const CategoryEntry = VocabularyEntry.extend({ tipo: z.enum(['despesa', 'receita']).optional() }).strict();

export const ToolGatePolicySchema = z
  .object({
    version: z.literal(1),
    session: z
      .object({
        /** Every session key the gate reads or writes, with its time to live. */
        keys: z.record(z.string().min(1), z.object({ ttl_seconds: z.number().int().positive() }).strict()),
      })
      .strict(),
    messages: z
      .object({
        unknown_tool: z.string().min(1),
        no_tool: z.string().min(1),
        no_pending_action: z.string().min(1),
        cancelled: z.string().min(1),
        invalid_arg: z.string().min(1),
        tool_failed: z.string().min(1),
        /** Said before the question for a missing argument when the next message did not complete the call. */
        still_missing: z.string().min(1),
      })
      .strict(),
    filters: z
      .object({
        sections: z.record(z.string().min(1), VocabularyEntry),
        segments: z.record(z.string().min(1), VocabularyEntry),
        /** Categories of the client's own expenses and income, and the words people use for them. */
        categories: z.record(z.string().min(1), CategoryEntry),
      })
      .strict(),
    tools: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), ToolContract),
  })
  .strict()
  .superRefine((p, ctx) => {
    for (const [name, tool] of Object.entries(p.tools)) {
      for (const [arg, spec] of Object.entries(tool.args)) {
        spec.inject_from.forEach((key, i) => {
          if (!p.session.keys[key] && !(CONTEXT_SOURCES as readonly string[]).includes(key)) {
            ctx.addIssue({ code: 'custom', path: ['tools', name, 'args', arg, 'inject_from', i], message: `session key '${key}' is not declared under session.keys` });
          }
        });
      }
      if (tool.followed_by && !p.tools[tool.followed_by]?.editable) {
        ctx.addIssue({ code: 'custom', path: ['tools', name, 'followed_by'], message: `names '${tool.followed_by}', which is not an editable tool` });
      }
      if (tool.sensitive && !p.session.keys.pending_action) {
        ctx.addIssue({ code: 'custom', path: ['session', 'keys', 'pending_action'], message: `is required because tool '${name}' is sensitive` });
      }
    }
  });
export type ToolGatePolicy = z.infer<typeof ToolGatePolicySchema>;

/** Loads and validates `policies/tool_gate.yaml` (once, at start-up). */
export function loadToolGatePolicy(dir: string = policiesDir()): ToolGatePolicy {
  return loadPolicy('tool_gate', ToolGatePolicySchema, dir);
}

/** TTL of a session key, or a PolicyError when the policy forgot to declare it. */
export function sessionTtl(policy: ToolGatePolicy, key: string): number {
  const k = policy.session.keys[key];
  if (!k) throw new PolicyError('policies/tool_gate.yaml', `session.keys.${key}`, 'is not declared');
  return k.ttl_seconds;
}
