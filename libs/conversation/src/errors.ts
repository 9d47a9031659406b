import { CotaError } from '@cota/contracts';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P03']);
const CONNECTION_MESSAGES =
  /Connection is closed|Stream isn't writeable|Connection terminated|connect ECONNREFUSED|Reached the max retries per request|timeout exceeded when trying to connect/i;

/** A lost or refused Redis/Postgres connection (the store is down or dropped us), not a bad request. */
export function isConnectionLost(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown; name?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : '';
  return CONNECTION_CODES.has(code) || err?.name === 'MaxRetriesPerRequestError' || CONNECTION_MESSAGES.test(message);
}

/**
 * Maps a store failure to the wire error the gateway can act on: a lost Redis/Postgres connection
 * is UNAVAILABLE (503 upstream), anything else stays as it is (INTERNAL when not a CotaError).
 */
export function asContextError(e: unknown): unknown {
  if (CotaError.is(e)) return e;
  const err = e as { code?: unknown; message?: unknown; name?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : '';
  if (isConnectionLost(e)) {
    return new CotaError('UNAVAILABLE', 'the conversation state store is not reachable', { cause: code || message.slice(0, 120) });
  }
  return e;
}
