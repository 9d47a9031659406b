import { Controller, Delete, HttpCode, Inject, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyAuthenticator, PostgresApiKeyRepository, RateLimiter } from '@cota/access';
import { ErasureReceipt, PrivacySubjects, RequestOf } from '@cota/contracts';
import { RpcHandler } from '@cota/messaging';
import { ClientErasure } from '@cota/orchestration';
import { INFRA, Infra, Logger, requireDatabase } from '@cota/service-kit';
import { authenticateClient } from './auth';
import { RATE_LIMITER } from './tokens';

const log = new Logger('gateway');

/**
 * The gateway's part of a client erasure, served on `cota.gateway.erase-client.v1`: the client's API
 * keys (api_keys, owned by the gateway through @cota/access) and its rate-limit counters. This
 * replica's key cache forgets the client at once; other replicas' caches within 30 s.
 */
@Controller()
export class GatewayErasureHandler {
  private readonly keys: PostgresApiKeyRepository;

  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly auth: ApiKeyAuthenticator,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
  ) {
    this.keys = new PostgresApiKeyRepository(requireDatabase(infra));
  }

  @RpcHandler(PrivacySubjects.eraseGateway)
  async erase(req: RequestOf<typeof PrivacySubjects.eraseGateway>) {
    const counters = await this.limiter.eraseClient(req.client_id);
    const deleted = await this.keys.deleteClient(req.client_id);
    this.auth.forgetClient(req.client_id);
    return {
      erased: [
        { service: 'gateway' as const, store: 'api_keys', backend: 'postgres' as const, count: deleted },
        { service: 'gateway' as const, store: 'rate_limit_counters', backend: this.infra.redis ? ('redis' as const) : ('memory' as const), count: counters },
      ],
    };
  }
}

/** Logs a receipt without the client id (receipt id and counts are enough to find it again). */
export function logReceipt(receipt: ErasureReceipt): void {
  log.info('client data erased', { receipt_id: receipt.receipt_id, requested_by: receipt.requested_by, total: receipt.total });
}

/**
 * `DELETE /me/data`: erases everything Cota holds about the key's client (CONTRACT) and answers
 * the receipt. The key itself is erased too, so it stops working: a repeated call is a 401.
 * Not rate limited: a client past its quota can still have its data erased.
 */
@Controller()
export class PrivacyController {
  constructor(
    private readonly auth: ApiKeyAuthenticator,
    private readonly erasure: ClientErasure,
  ) {}

  @Delete('me/data')
  @HttpCode(200)
  async eraseMyData(@Req() req: Request): Promise<ErasureReceipt> {
    const clientId = await authenticateClient(req, this.auth);
    const receipt = await this.erasure.erase(clientId, 'client');
    // The erase step may have run on another replica: this one forgets the key now too.
    this.auth.forgetClient(clientId);
    logReceipt(receipt);
    return receipt;
  }
}
