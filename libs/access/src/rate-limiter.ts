import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { loadPolicy } from '@cota/config';

export const QuotaPolicy = z.object({
  version: z.literal(1),
  http: z.object({
    /** Largest accepted /ask body; larger is 413. */
    max_body_bytes: z.number().int().min(256).max(1_048_576),
    max_question_chars: z.number().int().min(10).max(10_000),
    /** Deadline for one question end to end; past it the gateway answers 504. */
    ask_deadline_ms: z.number().int().min(100).max(120_000),
    /**
     * After start, /health/ready waits (at most this long) until every service the gateway calls has
     * answered once, so no question is sent before the fabric can answer it (a rollout's first 503s).
     */
    ready_waits_for_services_s: z.number().int().min(0).max(3600),
  }),
  per_client: z.object({
    requests_per_minute: z.number().int().positive(),
    requests_per_day: z.number().int().positive(),
  }),
});
export type QuotaPolicy = z.infer<typeof QuotaPolicy>;

export const loadQuotaPolicy = () => loadPolicy('quotas', QuotaPolicy);

/** An allowed hit, with its receipt (what `refund` needs to find the windows it was counted in), or a refused one. */
export type RateDecision =
  | { allowed: true; retryAfterSeconds: 0; limit: null; charge: RateCharge }
  | {
      allowed: false;
      /** Seconds until the exhausted window resets (for Retry-After). */
      retryAfterSeconds: number;
      limit: 'minute' | 'day';
    };

/**
 * When each budget's window that counted a hit ends (epoch ms, one per budget). A window is told from
 * the next one by its end: two estimates of one window's end differ by a round trip, two windows' ends
 * by at least the window's length, so no clock race can refund into a window opened after the hit.
 */
export interface RateCharge {
  windowEnds: number[];
}

/** Per-client request budgets (rate-limiter-flexible); Redis-backed so every gateway replica shares them. */
export interface RateLimiter {
  hit(clientId: string): Promise<RateDecision>;
  /**
   * Gives back one allowed hit (a request shed with 503 before it was served), by its receipt: each
   * window that hit was counted in loses one, never below zero; a window that ended since, or was
   * erased, is left alone (a refund never opens one).
   */
  refund(clientId: string, charge: RateCharge): Promise<void>;
  /** Erasure: drops the client's counters (they name the client); returns how many. */
  eraseClient(clientId: string): Promise<number>;
}

/** How long each budget's window lasts, in seconds (shorter only in tests). */
export interface RateWindows {
  minute: number;
  day: number;
}
const WINDOWS: RateWindows = { minute: 60, day: 86_400 };

/**
 * A client's counter key, `{<client id>}` URI-encoded: the hash tag puts a client's two counters in one
 * Redis Cluster slot, and the encoded id holds no brace or colon, so no other client's key can equal it.
 */
const clientKey = (clientId: string): string => `{${encodeURIComponent(clientId)}}`;

type Budget = { limit: 'minute' | 'day'; limiter: RateLimiterAbstract };

/**
 * A fixed window per client and budget (the per-minute rate and the daily quota), each opened by the
 * client's first request in it; a request over either budget is refused with the time its window has left.
 */
class BudgetLimiter implements RateLimiter {
  constructor(private readonly budgets: Budget[]) {}

  async hit(clientId: string): Promise<RateDecision> {
    const key = clientKey(clientId);
    // Every budget counts the request, allowed or not (like a counter that only goes up in its window).
    const outcomes = await Promise.all(
      this.budgets.map(({ limiter }) =>
        limiter.consume(key).then(
          (res) => ({ refused: false, res }),
          (e: unknown) => {
            if (e instanceof RateLimiterRes) return { refused: true, res: e };
            throw e;
          },
        ),
      ),
    );
    const refused = outcomes.findIndex((o) => o.refused);
    if (refused < 0) {
      const now = Date.now();
      return { allowed: true, retryAfterSeconds: 0, limit: null, charge: { windowEnds: outcomes.map((o) => now + o.res.msBeforeNext) } };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(outcomes[refused]!.res.msBeforeNext / 1000)), limit: this.budgets[refused].limit };
  }

  async refund(clientId: string, charge: RateCharge): Promise<void> {
    const key = clientKey(clientId);
    await Promise.all(
      this.budgets.map(async ({ limiter }, i) => {
        const window = await limiter.get(key);
        if (!window || window.consumedPoints <= 0) return;
        // Another window than the one the hit was counted in (that one ended): the current one never counted it.
        if (Math.abs(Date.now() + window.msBeforeNext - charge.windowEnds[i]) > limiter.msDuration / 2) return;
        await limiter.reward(key, 1);
      }),
    );
  }

  async eraseClient(clientId: string): Promise<number> {
    const key = clientKey(clientId);
    const deleted = await Promise.all(this.budgets.map(({ limiter }) => limiter.delete(key)));
    return deleted.filter(Boolean).length;
  }
}

function budgets(policy: QuotaPolicy['per_client'], windows: RateWindows, make: (name: 'm' | 'd', points: number, duration: number) => RateLimiterAbstract): Budget[] {
  return [
    { limit: 'minute', limiter: make('m', policy.requests_per_minute, windows.minute) },
    { limit: 'day', limiter: make('d', policy.requests_per_day, windows.day) },
  ];
}

/** The gateway's limiter: counters in Redis (`<prefix>m:{client}`, `<prefix>d:{client}`), shared by every replica. */
export class RedisRateLimiter extends BudgetLimiter {
  constructor(redis: Redis, policy: QuotaPolicy['per_client'], prefix = 'cota:rl:', windows: RateWindows = WINDOWS) {
    super(budgets(policy, windows, (name, points, duration) => new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}${name}`, points, duration })));
  }
}

/** Embedded mode (one process): the same budgets in memory. */
export class InMemoryRateLimiter extends BudgetLimiter {
  constructor(policy: QuotaPolicy['per_client'], windows: RateWindows = WINDOWS) {
    super(budgets(policy, windows, (name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration })));
  }
}
