import type { QuotaPolicy, RateCharge, RateDecision, RateLimiter, RateWindows } from '../rate-limiter';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An allowed hit's receipt (the test fails if the hit was refused). */
function charged(d: RateDecision): RateCharge {
  if (!d.allowed) throw new Error(`hit refused (${d.limit})`);
  return d.charge;
}

/** Windows short enough to see one end in a test: a one-second "minute" and a thirty-second "day". */
const SHORT: RateWindows = { minute: 1, day: 30 };

/** The limiter under test, made per case with its policy, and a fresh client id per call. */
interface Harness {
  make(policy: QuotaPolicy['per_client'], windows: RateWindows): RateLimiter;
  id(base: string): string;
}

/**
 * The behaviour every RateLimiter must have, run on the in-memory limiter (unit) and the Redis one
 * (integration), so embedded mode and the replicated gateway limit alike.
 */
export function describeRateLimiterContract(name: string, make: (policy: QuotaPolicy['per_client'], windows: RateWindows) => RateLimiter, cleanup?: () => Promise<void>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let n = 0;
    afterAll(async () => {
      await cleanup?.();
    });
    // Fresh ids per test: the Redis counters of one run are shared by its tests.
    const h: Harness = { make, id: (base) => `${base}-${name}-${++n}-${Date.now()}` };
    limitCases(h);
    refundAndErasureCases(h);
  });
}

/** The per-minute and per-day limits, per client, under concurrency. */
function limitCases(h: Harness): void {
  it('allows up to the per-minute limit, then says when to retry; per client; a new window starts over', async () => {
    const rl = h.make({ requests_per_minute: 2, requests_per_day: 100 }, SHORT);
    const [ana, bia] = [h.id('ana'), h.id('bia')];
    expect((await rl.hit(ana)).allowed).toBe(true);
    expect((await rl.hit(ana)).allowed).toBe(true);
    expect(await rl.hit(ana)).toEqual({ allowed: false, retryAfterSeconds: 1, limit: 'minute' });
    expect((await rl.hit(bia)).allowed).toBe(true);
    await sleep(1100);
    expect((await rl.hit(ana)).allowed).toBe(true);
  });

  it('enforces the daily quota, with the time its window has left', async () => {
    const rl = h.make({ requests_per_minute: 100, requests_per_day: 1 }, SHORT);
    const ana = h.id('ana');
    expect((await rl.hit(ana)).allowed).toBe(true);
    const refused = await rl.hit(ana);
    expect(refused).toMatchObject({ allowed: false, limit: 'day' });
    expect(refused.retryAfterSeconds).toBeGreaterThan(25);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(30);
  });

  it('counts concurrent hits exactly', async () => {
    const rl = h.make({ requests_per_minute: 10, requests_per_day: 100 }, { minute: 60, day: 60 });
    const ana = h.id('ana');
    const all = await Promise.all(Array.from({ length: 25 }, () => rl.hit(ana)));
    expect(all.filter((d) => d.allowed)).toHaveLength(10);
  });
}

/** Refunds that never reach another window or below zero, and erasure of one client only. */
function refundAndErasureCases(h: Harness): void {
  it('does not count a refunded hit in its minute', async () => {
    const rl = h.make({ requests_per_minute: 2, requests_per_day: 100 }, { minute: 60, day: 60 });
    const ana = h.id('ana');
    expect((await rl.hit(ana)).allowed).toBe(true);
    await rl.refund(ana, charged(await rl.hit(ana)));
    expect((await rl.hit(ana)).allowed).toBe(true);
    expect(await rl.hit(ana)).toMatchObject({ allowed: false, limit: 'minute' });
  });

  it('does not count a refunded hit in its day, even refunded after its minute ended', async () => {
    const rl = h.make({ requests_per_minute: 100, requests_per_day: 2 }, SHORT);
    const ana = h.id('ana');
    expect((await rl.hit(ana)).allowed).toBe(true);
    const second = charged(await rl.hit(ana));
    await sleep(1100);
    await rl.refund(ana, second);
    expect((await rl.hit(ana)).allowed).toBe(true);
    expect(await rl.hit(ana)).toMatchObject({ allowed: false, limit: 'day' });
  });

  it('never refunds into a window opened after the hit', async () => {
    const rl = h.make({ requests_per_minute: 1, requests_per_day: 100 }, SHORT);
    const ana = h.id('ana');
    const first = charged(await rl.hit(ana));
    await sleep(1100);
    expect((await rl.hit(ana)).allowed).toBe(true);
    await rl.refund(ana, first);
    expect(await rl.hit(ana)).toMatchObject({ allowed: false, limit: 'minute' });
  });

  it('never refunds below zero, nor creates a counter (a refund after erasure leaves nothing)', async () => {
    const rl = h.make({ requests_per_minute: 1, requests_per_day: 100 }, SHORT);
    const ana = h.id('ana');
    const receipt = { windowEnds: [Date.now() + 1000, Date.now() + 30_000] };
    await rl.refund(ana, receipt);
    await rl.refund(ana, receipt);
    expect(await rl.eraseClient(ana)).toBe(0);
    expect((await rl.hit(ana)).allowed).toBe(true);
    expect((await rl.hit(ana)).allowed).toBe(false);
  });

  it("erases the client's counters only: an id that extends it, or holds ':' or braces, is another client", async () => {
    const rl = h.make({ requests_per_minute: 1, requests_per_day: 100 }, { minute: 60, day: 60 });
    const ana = h.id('ana');
    const others = [`${ana}:x`, `${ana}}`, `{${ana}`, `${ana}*`];
    await rl.hit(ana);
    for (const o of others) await rl.hit(o);
    expect((await rl.hit(ana)).allowed).toBe(false);
    expect(await rl.eraseClient(ana)).toBe(2); // its minute and day counters
    expect(await rl.eraseClient(ana)).toBe(0);
    expect((await rl.hit(ana)).allowed).toBe(true);
    for (const o of others) expect((await rl.hit(o)).allowed).toBe(false);
  });
}
