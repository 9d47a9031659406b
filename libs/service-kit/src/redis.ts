import Redis from 'ioredis';

/** ioredis client that keeps reconnecting; commands fail fast while it is down (no silent queueing). */
export function openRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
}

export async function pingRedis(redis: Redis): Promise<number> {
  const t = performance.now();
  await redis.ping();
  return performance.now() - t;
}
