import Redis from 'ioredis';

/** ioredis client that keeps reconnecting; commands fail fast while it is down (no silent queueing). */
export function openRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    lazyConnect: false,
    // Commands issued in the same event-loop turn (concurrent questions) share one socket write.
    enableAutoPipelining: true,
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
