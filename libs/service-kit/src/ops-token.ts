import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Compares two secrets in constant time (hashed first, so their lengths do not show either). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * Whether a request carries the ops token (COTA_OPS_TOKEN) as bearer: `open` when no token is configured
 * (local runs), else `ok`, `missing` (401) or `wrong` (403). Several Authorization headers count as
 * missing: which one a proxy would read is ambiguous (Node keeps the first).
 */
export function opsBearer(req: Pick<IncomingMessage, 'headers' | 'rawHeaders'>, opsToken: string | null): 'open' | 'ok' | 'missing' | 'wrong' {
  if (!opsToken) return 'open';
  const count = req.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'authorization').length;
  const m = count === 1 ? /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '') : null;
  if (!m) return 'missing';
  return safeEqual(m[1], opsToken) ? 'ok' : 'wrong';
}
