import { z } from 'zod';
import { EntityClasses, loadEntityClasses } from '@cota/catalog';
import { loadPolicy, policiesDir } from '@cota/config';

const EntityName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be an entity name (lower_snake_case)');
const EntityList = z.array(EntityName);
const PositiveInt = z.number().int().positive();

/** Who may see history in one consumer (planner, narrator): empty allowed list = every entity not denied. */
const ScopePolicy = z
  .object({
    enabled: z.boolean(),
    max_turns: z.number().int().min(0).max(100),
    allowed_entities: EntityList,
    denied_entities: EntityList,
  })
  .strict();

const NarratorPolicy = ScopePolicy.extend({
  inject_history: z.boolean(),
  max_chars: PositiveInt,
}).strict();

const LastReferencePolicy = z
  .object({
    enable_last_ticker: z.boolean(),
    /** Entities that may inherit the last ticker; must be entities the catalog classes as fund. */
    allowed_entities: EntityList,
    /** A reference is fresh while current_turn - turn_index <= max_age_turns (a turn = one question). */
    max_age_turns: z.number().int().min(0).max(1000),
  })
  .strict();

/** Narrator memory (seed 004): recent cycles verbatim, older ones summarised, compressed at a word budget. */
const MemoryPolicy = z
  .object({
    recent_cycles: z.number().int().min(0).max(20),
    /** Turns kept in hot state per conversation (the durable history keeps all of them). */
    hot_turns: z.number().int().min(2).max(1000),
    word_budget: z.number().int().min(50).max(100_000),
    compress_at_ratio: z.number().gt(0).max(1),
    compress_target_words: PositiveInt,
    summary_timeout_ms: z.number().int().min(100).max(120_000),
  })
  .strict();

const SessionPolicy = z
  .object({
    default_ttl_seconds: PositiveInt,
    max_ttl_seconds: PositiveInt,
    max_value_bytes: z.number().int().min(64).max(1_000_000),
    /** Per-key default TTL (e.g. a pending action expires sooner than the active report). */
    keys: z.record(z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'session key must be 1-64 of [A-Za-z0-9_.:-]'), z.object({ ttl_seconds: PositiveInt }).strict()),
  })
  .strict();

export const ContextPolicySchema = z
  .object({
    enabled: z.boolean(),
    /** How many recent turns `loadRecent` returns. */
    max_turns: z.number().int().min(1).max(1000),
    /** Turns older than this are no longer recent; idle conversation hot state expires after it. */
    ttl_seconds: PositiveInt,
    /** Character ceiling for history handed to any prompt. */
    max_chars: PositiveInt,
    planner: ScopePolicy,
    narrator: NarratorPolicy,
    last_reference: LastReferencePolicy,
    memory: MemoryPolicy,
    session: SessionPolicy,
  })
  .strict();
export type ContextPolicy = z.infer<typeof ContextPolicySchema> & {
  /** Each catalog entity's class (policies/entities/*.yaml): only fund entities ever inherit a ticker. */
  entity_classes: EntityClasses;
};

/** The file: everything under a `context:` block, as in the seeds; the entities it lists are checked against their classes. */
export const contextPolicyFile = (classes: EntityClasses) =>
  z
    .object({ context: ContextPolicySchema })
    .strict()
    .superRefine((file, ctx) => {
      file.context.last_reference.allowed_entities.forEach((entity, i) => {
        const path = ['context', 'last_reference', 'allowed_entities', i];
        const cls = classes[entity];
        if (cls && cls !== 'fund') {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: `lists '${entity}', a ${cls} entity: market and client entities never inherit a ticker` });
        } else if (!cls) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: `lists '${entity}', which is not an entity of the catalog` });
        }
      });
      checkLimits(file.context, ctx);
    });

/** Limits that must agree with each other. */
function checkLimits(p: z.infer<typeof ContextPolicySchema>, ctx: z.RefinementCtx): void {
  if (p.narrator.max_chars > p.max_chars) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['context', 'narrator', 'max_chars'], message: `must not exceed context.max_chars (${p.max_chars})` });
  }
  if (p.memory.compress_target_words >= Math.floor(p.memory.word_budget * p.memory.compress_at_ratio)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['context', 'memory', 'compress_target_words'],
      message: 'must be below word_budget * compress_at_ratio, or compression would never shrink the summary',
    });
  }
  if (p.memory.hot_turns < 2 * p.memory.recent_cycles + 2) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['context', 'memory', 'hot_turns'], message: 'must hold at least the recent cycles plus one (2 * recent_cycles + 2)' });
  }
  if (p.session.default_ttl_seconds > p.session.max_ttl_seconds) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['context', 'session', 'default_ttl_seconds'], message: 'must not exceed max_ttl_seconds' });
  }
  for (const [key, v] of Object.entries(p.session.keys)) {
    if (v.ttl_seconds > p.session.max_ttl_seconds) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['context', 'session', 'keys', key, 'ttl_seconds'], message: 'must not exceed max_ttl_seconds' });
    }
  }
}

/**
 * Loads and validates `policies/context.yaml` with the entity classes of `policies/entities/` (call
 * once at start-up); a bad file throws PolicyError naming the field.
 */
export function loadContextPolicy(dir = policiesDir()): ContextPolicy {
  const entity_classes = loadEntityClasses(dir);
  return { ...loadPolicy('context', contextPolicyFile(entity_classes), dir).context, entity_classes };
}

/** Applies a scope's allowed/denied lists (seed M13): no entity, or a disabled scope, sees nothing. */
export function scopeAllowsEntity(scope: z.infer<typeof ScopePolicy>, entity: string | null): boolean {
  if (!entity || !scope.enabled) return false;
  if (scope.denied_entities.includes(entity)) return false;
  return scope.allowed_entities.length === 0 || scope.allowed_entities.includes(entity);
}
