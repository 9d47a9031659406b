import { CotaError } from '@cota/contracts';
import { isConnectionLost } from '@cota/messaging';

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
