import { randomBytes } from 'node:crypto';

export const REDIS_TEST_URL = process.env.COTA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key namespace private to one suite on the shared real Redis. */
export function testRedisPrefix(label: string): string {
  return `cota-test:${label}:${randomBytes(4).toString('hex')}:`;
}
