const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P03']);
const CONNECTION_MESSAGES =
  /Connection is closed|Stream isn't writeable|Connection terminated|connect ECONNREFUSED|Reached the max retries per request|timeout exceeded when trying to connect|terminating connection due to administrator command/i;

/**
 * A lost or refused Redis/Postgres connection (the store is down or dropped us), not a bad request:
 * every service answers it as UNAVAILABLE (503 to the person), never as an internal error.
 */
export function isConnectionLost(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown; name?: unknown; driverError?: unknown } | null;
  if (err?.driverError && err.driverError !== e && isConnectionLost(err.driverError)) return true; // TypeORM's QueryFailedError wraps pg's
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : '';
  return CONNECTION_CODES.has(code) || err?.name === 'MaxRetriesPerRequestError' || CONNECTION_MESSAGES.test(message);
}
