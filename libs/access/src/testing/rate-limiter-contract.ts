import type { QuotaPolicy, RateLimiter } from '../rate-limiter';

/**
 * The behaviour every RateLimiter must have, run on the in-memory limiter (unit) and the Redis one
 * (integration), so embedded mode and the replicated gateway limit alike.
 */
export function describeRateLimiterContract(name: string, make: (policy: QuotaPolicy['per_client']) => RateLimiter, cleanup?: () => Promise<void>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let n = 0;
    // Fresh ids per test: the Redis counters of one run are shared by its tests.
    const id = (base: string) => `${base}-${name}-${++n}`;
    afterAll(async () => {
      await cleanup?.();
    });

    it('allows up to the per-minute limit, then says when to retry; per client; a new minute starts over', async () => {
      const rl = make({ requests_per_minute: 2, requests_per_day: 100 });
      const [ana, bia] = [id('ana'), id('bia')];
      const t = Date.UTC(2026, 0, 1, 12, 0, 45);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      expect(await rl.hit(ana, t)).toEqual({ allowed: false, retryAfterSeconds: 15, limit: 'minute' });
      expect((await rl.hit(bia, t)).allowed).toBe(true);
      expect((await rl.hit(ana, t + 20_000)).allowed).toBe(true);
    });

    it('enforces the daily quota', async () => {
      const rl = make({ requests_per_minute: 100, requests_per_day: 1 });
      const ana = id('ana');
      const t = Date.UTC(2026, 0, 1, 23, 59, 0);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      expect(await rl.hit(ana, t + 1000)).toMatchObject({ allowed: false, limit: 'day', retryAfterSeconds: 59 });
    });

    it('counts concurrent hits exactly', async () => {
      const rl = make({ requests_per_minute: 10, requests_per_day: 100 });
      const ana = id('ana');
      const t = Date.UTC(2026, 0, 1, 12, 0, 0);
      const all = await Promise.all(Array.from({ length: 25 }, () => rl.hit(ana, t)));
      expect(all.filter((d) => d.allowed)).toHaveLength(10);
    });

    it('does not count a refunded hit in its minute', async () => {
      const rl = make({ requests_per_minute: 2, requests_per_day: 100 });
      const ana = id('ana');
      const t = Date.UTC(2026, 0, 1, 12, 0, 10);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      await rl.refund(ana, t);
      expect((await rl.hit(ana, t + 1000)).allowed).toBe(true);
      expect(await rl.hit(ana, t + 1000)).toMatchObject({ allowed: false, limit: 'minute' });
    });

    it('does not count a refunded hit in its day, even refunded in a later minute', async () => {
      const rl = make({ requests_per_minute: 100, requests_per_day: 2 });
      const ana = id('ana');
      const t = Date.UTC(2026, 0, 1, 12, 0, 59);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      await rl.refund(ana, t);
      expect((await rl.hit(ana, t + 5000)).allowed).toBe(true);
      expect(await rl.hit(ana, t + 5000)).toMatchObject({ allowed: false, limit: 'day' });
    });

    it('never refunds below zero, nor creates a counter (a refund after erasure leaves nothing)', async () => {
      const rl = make({ requests_per_minute: 1, requests_per_day: 100 });
      const ana = id('ana');
      const t = Date.UTC(2026, 0, 1, 12, 0, 0);
      await rl.refund(ana, t);
      await rl.refund(ana, t);
      expect(await rl.eraseClient(ana)).toBe(0);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      expect((await rl.hit(ana, t)).allowed).toBe(false);
    });

    it("erases the client's counters only: an id that extends it, or holds ':' or braces, is another client", async () => {
      const rl = make({ requests_per_minute: 1, requests_per_day: 100 });
      const ana = id('ana');
      const others = [`${ana}:x`, `${ana}}`, `{${ana}`, `${ana}*`];
      const t = Date.UTC(2026, 0, 1, 12, 0, 0);
      await rl.hit(ana, t);
      for (const o of others) await rl.hit(o, t);
      expect((await rl.hit(ana, t)).allowed).toBe(false);
      expect(await rl.eraseClient(ana)).toBe(2); // its minute and day counters
      expect(await rl.eraseClient(ana)).toBe(0);
      expect((await rl.hit(ana, t)).allowed).toBe(true);
      for (const o of others) expect((await rl.hit(o, t)).allowed).toBe(false);
    });
  });
}
