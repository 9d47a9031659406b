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
  /**
   * Gives back one allowed hit charged at `chargedAt` (a request shed with 503 before it was served):
   * both counters of that hit's windows lose one, never below zero; a counter that expired or was
   * erased stays absent (a refund never creates one).
   */
  refund(clientId: string, chargedAt: number): Promise<void>;
  /** Erasure: drops the client's counters (they name the client); returns how many. */
  eraseClient(clientId: string): Promise<number>;
}

/**
 * A counter key `{<client id>}:<kind>:<window number>`, the id URI-encoded: the hash tag puts a
 * client's two counters in one Redis Cluster slot (one script updates both), and the encoded id holds
 * no brace or colon, so no other client's keys can match it.
 */
const counterKey = (kind: 'm' | 'd', clientId: string, window: number): string => `{${encodeURIComponent(clientId)}}:${kind}:${window}`;

/** A counter of exactly this client (the key without its prefix). */
const isCounterOf = (rest: string, clientId: string): boolean => {
  const tag = `{${encodeURIComponent(clientId)}}:`;
  return rest.startsWith(tag) && /^[md]:\d+$/.test(rest.slice(tag.length));
};

/** A literal for a Redis MATCH pattern (glob). */
const globEscape = (text: string): string => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/** KEYS: minute counter, day counter. ARGV: their expiries (s). Both counts in one atomic command. */
const HIT_SCRIPT = `
local m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
return {m, d}
`;

/** KEYS: minute counter, day counter. Each present counter above zero loses one, in one atomic command. */
const REFUND_SCRIPT = `
for i = 1, 2 do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`;

/** The scripts as ioredis commands: sent by EVALSHA (loaded on first use), auto-pipelined with the rest. */
type WithHit = Redis & {
  cotaRateHit(minuteKey: string, dayKey: string, minuteTtl: number, dayTtl: number): Promise<[number, number]>;
  cotaRateRefund(minuteKey: string, dayKey: string): Promise<number>;
};

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
  private readonly redis: WithHit;

  constructor(
    redis: Redis,
    private readonly policy: QuotaPolicy['per_client'],
    private readonly prefix = 'cota:rl:',
  ) {
    if (!('cotaRateHit' in redis)) redis.defineCommand('cotaRateHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    if (!('cotaRateRefund' in redis)) redis.defineCommand('cotaRateRefund', { numberOfKeys: 2, lua: REFUND_SCRIPT });
    this.redis = redis as WithHit;
  }

  async hit(clientId: string, now = Date.now()): Promise<RateDecision> {
    const w = windows(now);
    const [m, d] = await this.redis.cotaRateHit(this.prefix + counterKey('m', clientId, w.minute), this.prefix + counterKey('d', clientId, w.day), 120, 172_800);
    return decide(this.policy.requests_per_minute, this.policy.requests_per_day, Number(m), Number(d), w);
  }

  async refund(clientId: string, chargedAt: number): Promise<void> {
    const w = windows(chargedAt);
    await this.redis.cotaRateRefund(this.prefix + counterKey('m', clientId, w.minute), this.prefix + counterKey('d', clientId, w.day));
  }

  async eraseClient(clientId: string): Promise<number> {
    let erased = 0;
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', `${globEscape(this.prefix)}{${globEscape(encodeURIComponent(clientId))}}:*`, 'COUNT', 500);
      cursor = next;
      const mine = found.filter((k) => isCounterOf(k.slice(this.prefix.length), clientId));
      if (mine.length) erased += await this.redis.del(...mine);
    } while (cursor !== '0');
    return erased;
  }
}

/** Embedded mode (one process): the same windows in memory. */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, number>();
  constructor(private readonly policy: QuotaPolicy['per_client']) {}

  async hit(clientId: string, now = Date.now()): Promise<RateDecision> {
    const w = windows(now);
    const mk = counterKey('m', clientId, w.minute);
    const dk = counterKey('d', clientId, w.day);
    const m = (this.counts.get(mk) ?? 0) + 1;
    const d = (this.counts.get(dk) ?? 0) + 1;
    this.counts.set(mk, m);
    this.counts.set(dk, d);
    if (this.counts.size > 50_000) this.counts.clear();
    return decide(this.policy.requests_per_minute, this.policy.requests_per_day, m, d, w);
  }

  async refund(clientId: string, chargedAt: number): Promise<void> {
    const w = windows(chargedAt);
    for (const k of [counterKey('m', clientId, w.minute), counterKey('d', clientId, w.day)]) {
      const n = this.counts.get(k) ?? 0;
      if (n > 0) this.counts.set(k, n - 1);
    }
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
