import { CotaError } from '@cota/contracts';
import { isConnectionLost } from '@cota/messaging';

/**
 * What a failed warehouse statement tells the person: too slow (TIMEOUT), the database dropped or
 * refused the connection (UNAVAILABLE: a passing outage, try again), anything else INTERNAL.
 */
export function sqlFailure(e: unknown): CotaError {
  const err = e as { code?: string; driverError?: { code?: string } };
  const code = err?.code ?? err?.driverError?.code;
  if (code === '57014') return new CotaError('TIMEOUT', 'A consulta demorou mais que o permitido. Tente um período menor.');
  if (isConnectionLost(e)) return new CotaError('UNAVAILABLE', 'A base de dados está indisponível no momento. Tente novamente em instantes.');
  return new CotaError('INTERNAL', 'Não foi possível consultar a base de dados agora.');
}
