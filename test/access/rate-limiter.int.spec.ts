import Redis from 'ioredis';
import { RedisRateLimiter } from '@cota/access';
import { describeRateLimiterContract } from '../../libs/access/src/testing/rate-limiter-contract';
import { REDIS_TEST_URL, testRedisPrefix } from '@cota/test-support';

const prefix = testRedisPrefix('ratelimit');
const redis = new Redis(REDIS_TEST_URL, { enableAutoPipelining: true });

describeRateLimiterContract(
  'redis',
  (policy, windows) => new RedisRateLimiter(redis, policy, prefix, windows),
  async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  },
);

describe('RedisRateLimiter keys', () => {
  it("keeps a client's two counters in one cluster slot and lets them expire", async () => {
    const r = new Redis(REDIS_TEST_URL);
    const own = `${prefix}keys:`;
    try {
      await new RedisRateLimiter(r, { requests_per_minute: 5, requests_per_day: 5 }, own).hit('ana:1');
      const keys = (await r.keys(`${own}*`)).sort();
      expect(keys.map((k) => k.slice(own.length))).toEqual(['d:{ana%3A1}', 'm:{ana%3A1}']);
      for (const k of keys) expect(await r.ttl(k)).toBeGreaterThan(0);
      await r.del(...keys);
    } finally {
      await r.quit();
    }
  });
});
