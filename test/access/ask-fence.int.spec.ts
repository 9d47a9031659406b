import Redis from 'ioredis';
import { RedisAskFence } from '@cota/access';
import { describeAskFenceContract } from '../../libs/access/src/testing/ask-fence-contract';
import { REDIS_TEST_URL, testRedisPrefix } from '@cota/test-support';

const prefix = testRedisPrefix('askfence');
const redis = new Redis(REDIS_TEST_URL, { enableAutoPipelining: true });

describeAskFenceContract(
  'redis',
  (ttl) => new RedisAskFence(redis, ttl, prefix),
  async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  },
);
