import { z } from 'zod';
import { ALL_RPCS, SERVICES } from '@cota/contracts';

/**
 * policies/fabric.yaml: how much work each subscription takes at once (bulkheads) and how the
 * callers listed in `client.callers` guard their calls (circuit breaker per target service,
 * retries of idempotent reads). Loaded once at start-up (service-kit's startService); a bad
 * value stops the service naming the file and the field.
 */
const Limits = z
  .object({
    /** Handlers of this subscription running at once in one replica. */
    max_concurrent: z.number().int().min(1).max(10_000),
    /** Messages waiting for a slot; one more is answered UNAVAILABLE at once. */
    max_queue: z.number().int().min(0).max(100_000),
  })
  .strict();
export type BulkheadLimits = z.infer<typeof Limits>;

interface Backoff {
  initial_delay_ms: number;
  max_delay_ms: number;
}

/** Exponential backoff between attempts (cockatiel), with the fields of what is retried. */
function withBackoff<T extends z.ZodRawShape>(fields: T) {
  return z
    .object({ ...fields, initial_delay_ms: z.number().int().min(1).max(10_000), max_delay_ms: z.number().int().min(1).max(60_000) })
    .strict()
    .refine((r) => (r as unknown as Backoff).max_delay_ms >= (r as unknown as Backoff).initial_delay_ms, {
      path: ['max_delay_ms'],
      message: 'must be at least initial_delay_ms',
    });
}

const knownSubjects = new Set(ALL_RPCS.map((d) => d.subject));

export const FabricPolicy = z
  .object({
    version: z.literal(1),
    bulkhead: z
      .object({
        default: Limits,
        /** Per-subject overrides, keyed by a contract subject (`cota.executor.query.v1`). */
        subjects: z.record(z.string(), Limits).default({}),
        /** The Retry-After (seconds) an overloaded service suggests; the gateway passes it on with its 503. */
        retry_after_s: z.number().int().min(1).max(3600),
      })
      .strict()
      .superRefine((b, ctx) => {
        for (const subject of Object.keys(b.subjects)) {
          if (!knownSubjects.has(subject)) {
            ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['subjects', subject], message: 'is not a subject of the contracts (libs/contracts)' });
          }
        }
      }),
    client: z
      .object({
        /** Services whose bus client uses the breakers and retries below (the gateway drives every question). */
        callers: z.array(z.enum(SERVICES)),
        breaker: z
          .object({
            /** Consecutive failures (no answer in time, nobody answering) of one target service that open its circuit. */
            consecutive_failures: z.number().int().min(1).max(1000),
            /** How long an open circuit answers UNAVAILABLE at once before one trial call goes through. */
            half_open_after_ms: z.number().int().min(100).max(600_000),
          })
          .strict(),
        /** Extra attempts of an idempotent read that found its target unavailable (0: none). */
        retry: withBackoff({ max_retries: z.number().int().min(0).max(5) }),
        /** A write that must land (a turn's commit): tried again while the question has more than reserve_ms left. */
        must_land: withBackoff({ reserve_ms: z.number().int().min(0).max(60_000) }),
      })
      .strict(),
  })
  .strict();
export type FabricPolicy = z.infer<typeof FabricPolicy>;
export type ClientPolicy = FabricPolicy['client'];

/** The shipped values of policies/fabric.yaml, for buses built without it (tests, CLIs). */
export const DEFAULT_FABRIC: FabricPolicy = {
  version: 1,
  bulkhead: { default: { max_concurrent: 32, max_queue: 128 }, subjects: {}, retry_after_s: 1 },
  client: {
    callers: ['gateway'],
    breaker: { consecutive_failures: 5, half_open_after_ms: 3000 },
    retry: { max_retries: 1, initial_delay_ms: 50, max_delay_ms: 200 },
    must_land: { initial_delay_ms: 50, max_delay_ms: 1000, reserve_ms: 500 },
  },
};

export function bulkheadLimits(fabric: FabricPolicy, subject: string): BulkheadLimits {
  return fabric.bulkhead.subjects[subject] ?? fabric.bulkhead.default;
}
