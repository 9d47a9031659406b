import { z } from 'zod';
import { loadPolicy, PolicyError, policiesDir } from '@cota/config';

/** Argument types a tool contract can declare; values are checked (and coerced) before a tool runs. */
export const ArgType = z.enum(['string', 'integer', 'decimal', 'boolean', 'email', 'enum', 'string_list', 'decimal_list']);
export type ArgType = z.infer<typeof ArgType>;

/** Names of the extractors the gate knows (see `extract/index.ts`). */
export const EXTRACTOR_NAMES = ['report_id', 'report_filters', 'email', 'finance'] as const;

const ArgSpec = z
  .object({
    type: ArgType,
    required: z.boolean().default(false),
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
    args: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'argument names are snake_case'), ArgSpec).default({}),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.sensitive && !t.confirmation) ctx.addIssue({ code: 'custom', path: ['confirmation'], message: 'is required for a sensitive tool' });
    for (const a of t.require_any?.args ?? []) {
      if (!t.args[a]) ctx.addIssue({ code: 'custom', path: ['require_any', 'args'], message: `names '${a}', which is not an argument` });
    }
  });
export type ToolContract = z.infer<typeof ToolContract>;

const VocabularyEntry = z.object({ label: z.string().min(1), terms: z.array(z.string().min(1)).min(1) }).strict();

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
      })
      .strict(),
    filters: z
      .object({
        sections: z.record(z.string().min(1), VocabularyEntry),
        segments: z.record(z.string().min(1), VocabularyEntry),
      })
      .strict(),
    tools: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), ToolContract),
  })
  .strict()
  .superRefine((p, ctx) => {
    for (const [name, tool] of Object.entries(p.tools)) {
      for (const [arg, spec] of Object.entries(tool.args)) {
        spec.inject_from.forEach((key, i) => {
          if (!p.session.keys[key]) {
            ctx.addIssue({ code: 'custom', path: ['tools', name, 'args', arg, 'inject_from', i], message: `session key '${key}' is not declared under session.keys` });
          }
        });
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
