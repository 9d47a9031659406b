import { z } from 'zod';
import { loadPolicy, PolicyError } from '@cota/config';

/** The three knowledge collections plus the warehouse news. */
export const KNOWLEDGE_COLLECTIONS = ['concepts-fiis', 'concepts-risk', 'concepts-macro'] as const;
export const NEWS_COLLECTION = 'fiis_noticias';
export const ALL_COLLECTIONS = [...KNOWLEDGE_COLLECTIONS, NEWS_COLLECTION] as const;
const Collection = z.enum(ALL_COLLECTIONS);

const Profile = z
  .object({
    /** Candidates taken from each search before the per-entity cut (max_chunks). */
    k: z.number().int().min(1).max(50),
    /** Fused score (vector + lexical) below which a chunk is not used. */
    min_score: z.number().min(0).max(1),
    /** Characters of chunk text handed to the narrator, at most. */
    max_context_chars: z.number().int().min(200).max(100000),
  })
  .strict();

const EntityRule = z
  .object({
    profile: z.string().min(1),
    collections: z.array(Collection).min(1),
    max_chunks: z.number().int().min(1).max(50),
    /** Overrides the profile's min_score for this entity. */
    min_score: z.number().min(0).max(1).optional(),
  })
  .strict();

const Identifier = z.string().regex(/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/, 'must be a SQL identifier (schema.name)');

export const RagPolicySchema = z
  .object({
    version: z.literal(1),
    profiles: z.record(z.string().min(1), Profile),
    routing: z
      .object({
        allow_intents: z.array(z.string().min(1)),
        deny_intents: z.array(z.string().min(1)),
      })
      .strict(),
    rag: z
      .object({
        /** Rules by entity name (or by intent when the plan has no entity, e.g. `concept`). */
        entities: z.record(z.string().min(1), EntityRule),
        default: EntityRule,
      })
      .strict(),
    embedder: z
      .object({
        /** `openai` is used only when OPENAI_API_KEY or OPENAI_BASE_URL is configured; otherwise `local`. */
        prefer: z.enum(['local', 'openai']),
        local_dim: z.number().int().min(64).max(4096),
        openai_model: z.string().min(1),
        timeout_ms: z.number().int().min(100).max(120000),
      })
      .strict(),
    hybrid: z
      .object({
        vector_weight: z.number().min(0).max(1),
        lexical_weight: z.number().min(0).max(1),
        /** Full-text rank (Postgres `ts_rank`) at which the lexical part reaches 0.63 (1 - 1/e); saturates instead of growing without bound. */
        lexical_scale: z.number().positive(),
        /**
         * Added when the question names what a document is about (its title's lead, "IFIX - ..."):
         * "o que é o IFIX?" is about the IFIX page, not the IFIL page that mentions the IFIX ten times.
         */
        subject_boost: z.number().min(0).max(1).default(0),
      })
      .strict()
      .refine((h) => Math.abs(h.vector_weight + h.lexical_weight - 1) < 1e-9, { message: 'vector_weight + lexical_weight must be 1' }),
    news: z
      .object({
        /** Warehouse relation with ticker, source, title, description, url, published_at. */
        relation: Identifier,
        /** Newest items kept per ticker in the index. */
        max_items_per_ticker: z.number().int().min(1).max(10000),
      })
      .strict(),
    /** How often a replica checks whether another one reindexed (seconds). */
    cache_check_seconds: z.number().int().min(1).max(3600),
    /** Ignored by the context builder; vocabulary for external validators (seed compatibility). */
    terms: z.unknown().optional(),
  })
  .strict();

export type RagPolicy = z.infer<typeof RagPolicySchema>;
export type RagProfile = z.infer<typeof Profile>;
export type RagEntityRule = z.infer<typeof EntityRule>;

/** Cross-field checks zod cannot express: every rule names an existing profile. */
export function checkRagPolicy(policy: RagPolicy, file = 'policies/rag.yaml'): RagPolicy {
  const rules: Array<[string, RagEntityRule]> = [
    ...Object.entries(policy.rag.entities).map(([k, r]) => [`rag.entities.${k}`, r] as [string, RagEntityRule]),
    ['rag.default', policy.rag.default],
  ];
  for (const [path, rule] of rules) {
    if (!policy.profiles[rule.profile]) {
      throw new PolicyError(file, `${path}.profile`, `names profile '${rule.profile}', which is not in profiles (${Object.keys(policy.profiles).join(', ')})`);
    }
  }
  return policy;
}

/** Loads and validates `policies/rag.yaml` once, at start-up; a bad file throws PolicyError. */
export function loadRagPolicy(dir?: string): RagPolicy {
  return checkRagPolicy(loadPolicy('rag', RagPolicySchema, dir));
}

export type GateDecision = { enabled: true; reason: 'allowed' } | { enabled: false; reason: 'intent_denied' | 'intent_not_allowed' };

/** Gate 1 (routing): deny wins over allow; an intent in neither list is off. */
export function gateIntent(policy: RagPolicy, intent: string): GateDecision {
  if (policy.routing.deny_intents.includes(intent)) return { enabled: false, reason: 'intent_denied' };
  if (policy.routing.allow_intents.includes(intent)) return { enabled: true, reason: 'allowed' };
  return { enabled: false, reason: 'intent_not_allowed' };
}

export function isRagEnabled(policy: RagPolicy, intent: string): boolean {
  return gateIntent(policy, intent).enabled;
}

/** What one retrieval uses, after entity/intent rule and profile are merged (the policy snapshot). */
export interface ResolvedRule {
  rule: string;
  profile: string;
  collections: string[];
  k: number;
  max_chunks: number;
  min_score: number;
  max_context_chars: number;
}

/** Gate 2: the entity's rule, else the intent's rule, else `rag.default`; values inherited from the profile. */
export function resolveRule(policy: RagPolicy, entity: string | null, intent: string): ResolvedRule {
  const [name, rule] =
    entity && policy.rag.entities[entity]
      ? [`rag.entities.${entity}`, policy.rag.entities[entity]]
      : policy.rag.entities[intent]
        ? [`rag.entities.${intent}`, policy.rag.entities[intent]]
        : ['rag.default', policy.rag.default];
  const profile = policy.profiles[rule.profile];
  return {
    rule: name,
    profile: rule.profile,
    collections: [...rule.collections],
    k: Math.max(profile.k, rule.max_chunks),
    max_chunks: rule.max_chunks,
    min_score: rule.min_score ?? profile.min_score,
    max_context_chars: profile.max_context_chars,
  };
}
