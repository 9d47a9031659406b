import type Redis from 'ioredis';

/**
 * Keeps the requests of fenced keys out while their client is erased, and lets the erasure wait for
 * those already running, so nothing is written for the client after its data is gone. Shared by every
 * gateway replica (Redis); keys are named by their hash, never by the key or the client.
 *
 * Every counted request must `leave` once it is over; a replica that stops mid-request leaves its
 * count to expire `runningTtlMs` after the last request of the key came in (the questions' deadline
 * and its grace, so a count outlives no question it stands for).
 */
export interface AskFence {
  /** Counts one request of the key in; false (nothing counted) when the key is fenced. */
  enter(keyHash: string): Promise<boolean>;
  /** Counts one request of the key out. */
  leave(keyHash: string): Promise<void>;
  /** Fences the keys (for `runningTtlMs`, or until fenced again): from now on `enter` refuses them. */
  fence(keyHashes: readonly string[]): Promise<void>;
  /** Whether no request of these keys is counted running. */
  drained(keyHashes: readonly string[]): Promise<boolean>;
}

/** Fences the keys, then waits (polling) until none of their requests runs, or `maxWaitMs`; true when drained. */
export async function fenceAndDrain(fence: AskFence, keyHashes: readonly string[], maxWaitMs: number, pollMs = 25): Promise<boolean> {
  await fence.fence(keyHashes);
  const until = Date.now() + maxWaitMs;
  for (;;) {
    if (await fence.drained(keyHashes)) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** KEYS: fence, running count. ARGV: running count expiry (ms). The check and the count in one atomic command. */
const ENTER_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1
`;

/** KEYS: running count. The last one out deletes it (never below zero, never created). */
const LEAVE_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n <= 1 then redis.call('DEL', KEYS[1]) else redis.call('DECR', KEYS[1]) end
return 1
`;

type WithFence = Redis & {
  cotaFenceEnter(fenceKey: string, runningKey: string, ttlMs: number): Promise<number>;
  cotaFenceLeave(runningKey: string): Promise<number>;
};

export class RedisAskFence implements AskFence {
  private readonly redis: WithFence;

  constructor(
    redis: Redis,
    private readonly runningTtlMs: number,
    private readonly prefix = 'cota:fence:',
  ) {
    if (!('cotaFenceEnter' in redis)) redis.defineCommand('cotaFenceEnter', { numberOfKeys: 2, lua: ENTER_SCRIPT });
    if (!('cotaFenceLeave' in redis)) redis.defineCommand('cotaFenceLeave', { numberOfKeys: 1, lua: LEAVE_SCRIPT });
    this.redis = redis as WithFence;
  }

  /** `{<hash>}:<kind>`: a key's fence and count share one cluster slot (one script reads both). */
  private key(keyHash: string, kind: 'fence' | 'running'): string {
    return `${this.prefix}{${keyHash}}:${kind}`;
  }

  async enter(keyHash: string): Promise<boolean> {
    return (await this.redis.cotaFenceEnter(this.key(keyHash, 'fence'), this.key(keyHash, 'running'), this.runningTtlMs)) === 1;
  }

  async leave(keyHash: string): Promise<void> {
    await this.redis.cotaFenceLeave(this.key(keyHash, 'running'));
  }

  async fence(keyHashes: readonly string[]): Promise<void> {
    await Promise.all(keyHashes.map((h) => this.redis.set(this.key(h, 'fence'), '1', 'PX', this.runningTtlMs)));
  }

  async drained(keyHashes: readonly string[]): Promise<boolean> {
    const running = await Promise.all(keyHashes.map((h) => this.redis.exists(this.key(h, 'running'))));
    return running.every((n) => n === 0);
  }
}

/** Embedded mode (one process, one gateway): the same fence in memory. */
export class InMemoryAskFence implements AskFence {
  private readonly running = new Map<string, { count: number; until: number }>();
  private readonly fences = new Map<string, number>();

  constructor(
    private readonly runningTtlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async enter(keyHash: string): Promise<boolean> {
    if ((this.fences.get(keyHash) ?? 0) > this.now()) return false;
    const count = this.live(keyHash) + 1;
    this.running.set(keyHash, { count, until: this.now() + this.runningTtlMs });
    return true;
  }

  async leave(keyHash: string): Promise<void> {
    const r = this.running.get(keyHash);
    if (!r || r.count <= 1) this.running.delete(keyHash);
    else r.count--;
  }

  async fence(keyHashes: readonly string[]): Promise<void> {
    for (const h of keyHashes) this.fences.set(h, this.now() + this.runningTtlMs);
  }

  async drained(keyHashes: readonly string[]): Promise<boolean> {
    return keyHashes.every((h) => this.live(h) === 0);
  }

  private live(keyHash: string): number {
    const r = this.running.get(keyHash);
    if (r && r.until > this.now()) return r.count;
    this.running.delete(keyHash);
    return 0;
  }
}
