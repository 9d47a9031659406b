import type Redis from 'ioredis';
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

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the exhausted window resets (for Retry-After). */
  retryAfterSeconds: number;
  limit: 'minute' | 'day' | null;
}

/** Fixed-window counters per client; Redis-backed so every gateway replica shares them. */
export interface RateLimiter {
  hit(clientId: string, now?: number): Promise<RateDecision>;
  /** Erasure: drops the client's counters (they name the client); returns how many. */
  eraseClient(clientId: string): Promise<number>;
}

/** A counter key `<kind>:<client id>:<window number>` of exactly this client (the id may itself hold ':'). */
const isCounterOf = (rest: string, clientId: string): boolean =>
  (rest.startsWith(`m:${clientId}:`) || rest.startsWith(`d:${clientId}:`)) && /^\d+$/.test(rest.slice(clientId.length + 3));

/** A literal for a Redis MATCH pattern (glob). */
const globEscape = (text: string): string => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

const windows = (now: number) => {
  const minute = Math.floor(now / 60_000);
  const day = Math.floor(now / 86_400_000);
  return {
    minute,
    day,
    minuteLeft: Math.ceil((60_000 - (now % 60_000)) / 1000),
    dayLeft: Math.ceil((86_400_000 - (now % 86_400_000)) / 1000),
  };
};

function decide(perMinute: number, perDay: number, m: number, d: number, w: ReturnType<typeof windows>): RateDecision {
  if (m > perMinute) return { allowed: false, retryAfterSeconds: w.minuteLeft, limit: 'minute' };
  if (d > perDay) return { allowed: false, retryAfterSeconds: w.dayLeft, limit: 'day' };
  return { allowed: true, retryAfterSeconds: 0, limit: null };
}

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly policy: QuotaPolicy['per_client'],
    private readonly prefix = 'cota:rl:',
  ) {}

  async hit(clientId: string, now = Date.now()): Promise<RateDecision> {
    const w = windows(now);
    const mk = `${this.prefix}m:${clientId}:${w.minute}`;
    const dk = `${this.prefix}d:${clientId}:${w.day}`;
    const res = await this.redis.multi().incr(mk).expire(mk, 120).incr(dk).expire(dk, 172_800).exec();
    if (!res) throw new Error('rate limiter transaction aborted');
    return decide(this.policy.requests_per_minute, this.policy.requests_per_day, Number(res[0][1]), Number(res[2][1]), w);
  }

  async eraseClient(clientId: string): Promise<number> {
    let erased = 0;
    for (const kind of ['m', 'd']) {
      let cursor = '0';
      do {
        const [next, found] = await this.redis.scan(cursor, 'MATCH', `${globEscape(this.prefix)}${kind}:${globEscape(clientId)}:*`, 'COUNT', 500);
        cursor = next;
        const mine = found.filter((k) => isCounterOf(k.slice(this.prefix.length), clientId));
        if (mine.length) erased += await this.redis.del(...mine);
      } while (cursor !== '0');
    }
    return erased;
  }
}

/** Embedded mode (one process): the same windows in memory. */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, number>();
  constructor(private readonly policy: QuotaPolicy['per_client']) {}

  async hit(clientId: string, now = Date.now()): Promise<RateDecision> {
    const w = windows(now);
    const mk = `m:${clientId}:${w.minute}`;
    const dk = `d:${clientId}:${w.day}`;
    const m = (this.counts.get(mk) ?? 0) + 1;
    const d = (this.counts.get(dk) ?? 0) + 1;
    this.counts.set(mk, m);
    this.counts.set(dk, d);
    if (this.counts.size > 50_000) this.counts.clear();
    return decide(this.policy.requests_per_minute, this.policy.requests_per_day, m, d, w);
  }

  async eraseClient(clientId: string): Promise<number> {
    let erased = 0;
    for (const k of [...this.counts.keys()]) {
      if (!isCounterOf(k, clientId)) continue;
      this.counts.delete(k);
      erased++;
    }
    return erased;
  }
}
