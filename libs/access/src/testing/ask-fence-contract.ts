import { AskFence, fenceAndDrain } from '../ask-fence';
import { hashApiKey } from '../api-keys';

/**
 * The behaviour every AskFence must have, run on the in-memory fence (unit) and the Redis one
 * (integration). `make` builds a fence whose running counts expire after `runningTtlMs`.
 */
export function describeAskFenceContract(name: string, make: (runningTtlMs: number) => AskFence, cleanup?: () => Promise<void>): void {
  describe(`AskFence contract: ${name}`, () => {
    let n = 0;
    const key = () => hashApiKey(`chave-${name}-${++n}-${Math.random()}`);
    afterAll(async () => {
      await cleanup?.();
    });

    it('lets requests in until the key is fenced, then refuses them; other keys are not fenced', async () => {
      const f = make(10_000);
      const [ana, bia] = [key(), key()];
      expect(await f.enter(ana)).toBe(true);
      await f.leave(ana);
      await f.fence([ana]);
      expect(await f.enter(ana)).toBe(false);
      expect(await f.enter(bia)).toBe(true);
      await f.leave(bia);
    });

    it('is drained only once every request counted in has left', async () => {
      const f = make(10_000);
      const ana = key();
      expect(await f.drained([ana])).toBe(true);
      expect(await f.enter(ana)).toBe(true);
      expect(await f.enter(ana)).toBe(true);
      await f.fence([ana]);
      expect(await f.drained([ana])).toBe(false);
      await f.leave(ana);
      expect(await f.drained([ana])).toBe(false);
      await f.leave(ana);
      expect(await f.drained([ana])).toBe(true);
      // A refused request counts nothing; an extra leave never goes below zero.
      expect(await f.enter(ana)).toBe(false);
      await f.leave(ana);
      expect(await f.drained([ana])).toBe(true);
    });

    it('fenceAndDrain answers when the running requests have left, not before', async () => {
      const f = make(10_000);
      const ana = key();
      expect(await f.enter(ana)).toBe(true);
      let leftAt = 0;
      setTimeout(() => {
        leftAt = Date.now();
        void f.leave(ana);
      }, 150);
      expect(await fenceAndDrain(f, [ana], 5000, 10)).toBe(true);
      expect(leftAt).toBeGreaterThan(0);
      expect(await f.enter(ana)).toBe(false);
    });

    it("gives up the wait after maxWaitMs while a request still runs; a stopped replica's count expires", async () => {
      const f = make(300);
      const ana = key();
      expect(await f.enter(ana)).toBe(true);
      expect(await fenceAndDrain(f, [ana], 50, 10)).toBe(false);
      await new Promise((r) => setTimeout(r, 350));
      expect(await f.drained([ana])).toBe(true);
      // The fence lasts as long: after it, the key (if it still exists) gets in again.
      expect(await f.enter(ana)).toBe(true);
      await f.leave(ana);
    });
  });
}
