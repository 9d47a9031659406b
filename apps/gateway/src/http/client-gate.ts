import type { Request } from 'express';
import { ApiKeyAuthenticator, AskFence, RateCharge, RateLimiter } from '@cota/access';
import { authenticateKey } from '../auth';
import { HttpError, toHttpError } from './http-error';

/**
 * What a client's request other than a question goes through, the way /ask does: the key
 * authenticates (its client scopes everything), the request is counted in under the key (refused
 * while the client is being erased, so nothing is written after an erasure) and charged to the
 * client's rate limit. A request shed with 503 gets its hit back.
 */
export class ClientGate {
  constructor(
    private readonly auth: ApiKeyAuthenticator,
    private readonly fence: AskFence,
    private readonly limiter: RateLimiter,
  ) {}

  async run<T>(req: Request, work: (clientId: string) => Promise<T>): Promise<T> {
    const { clientId, keyHash } = await authenticateKey(req, this.auth);
    let entered: boolean;
    try {
      entered = await this.fence.enter(keyHash);
    } catch {
      throw new HttpError(503, 'service_unavailable', 'O controle de acesso (Redis) está indisponível no momento. Tente novamente em instantes.', { 'Retry-After': '5' });
    }
    if (!entered) throw new HttpError(401, 'unauthorized', 'Chave de API revogada: os dados deste cliente estão sendo apagados.');
    // The hit's receipt, once charged (a refund finds the windows it was counted in).
    let charge: RateCharge | undefined;
    try {
      charge = await this.charge(clientId);
      return await work(clientId);
    } catch (e) {
      const err = toHttpError(e);
      if (err.status === 503 && charge) await this.limiter.refund(clientId, charge).catch(() => undefined);
      throw err;
    } finally {
      this.fence.leave(keyHash).catch(() => undefined);
    }
  }

  private async charge(clientId: string): Promise<RateCharge> {
    let decision;
    try {
      decision = await this.limiter.hit(clientId);
    } catch {
      throw new HttpError(503, 'service_unavailable', 'O controle de cotas (Redis) está indisponível no momento. Tente novamente em instantes.', { 'Retry-After': '5' });
    }
    if (!decision.allowed) {
      throw new HttpError(
        429,
        'rate_limited',
        decision.limit === 'minute' ? 'Muitas requisições em pouco tempo. Aguarde um instante e tente de novo.' : 'A cota diária foi atingida. Tente novamente amanhã.',
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    return decision.charge;
  }
}
