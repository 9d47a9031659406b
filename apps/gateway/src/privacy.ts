import { Controller, Delete, HttpCode, Inject, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiKeyAuthenticator, AskFence, fenceAndDrain, PostgresApiKeyRepository, QuotaPolicy, RateLimiter } from '@cota/access';
import { AccessBroadcasts, ErasureReceipt, KeysRevoked, PrivacySubjects, RequestOf } from '@cota/contracts';
import { BusEventHandler, RpcHandler } from '@cota/messaging';
import { ClientErasure } from '@cota/orchestration';
import { INFRA, Infra, createLogger, requireDatabase } from '@cota/service-kit';
import { authenticateClient } from './auth';
import { DEADLINE_GRACE_MS } from './gateway.controller';
import { ApiErrors } from './openapi/decorators';
import { CLIENT_KEY } from './openapi/document';
import { ASK_ERRORS, ErasureReceipt as ReceiptSchema, RECEIPT_EXAMPLE } from './openapi/schemas';
import { ASK_FENCE, QUOTA_POLICY, RATE_LIMITER } from './tokens';

const log = createLogger('gateway');

/**
 * The gateway's parts of a client erasure. First (`cota.gateway.fence-client.v1`) the client's keys are
 * fenced on every replica (shared fence: no new request gets in) and the requests already running end.
 * Last (`cota.gateway.erase-client.v1`) the client's API keys (api_keys, owned by the gateway through
 * @cota/access) are deleted and their revocation broadcast, so every replica's key cache drops them at
 * once, then the rate-limit counters go.
 */
@Controller()
export class GatewayErasureHandler {
  private readonly keys: PostgresApiKeyRepository;

  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly auth: ApiKeyAuthenticator,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(ASK_FENCE) private readonly fence: AskFence,
    @Inject(QUOTA_POLICY) private readonly quotas: QuotaPolicy,
  ) {
    this.keys = new PostgresApiKeyRepository(requireDatabase(infra));
  }

  @RpcHandler(PrivacySubjects.fenceGateway)
  async fenceClient(req: RequestOf<typeof PrivacySubjects.fenceGateway>) {
    const hashes = await this.keys.hashesOfClient(req.client_id);
    // A question admitted just before the fence ends within its deadline (and the grace of its commit).
    const drained = await fenceAndDrain(this.fence, hashes, this.quotas.http.ask_deadline_ms + DEADLINE_GRACE_MS);
    if (!drained) log.warn({ erasure_id: req.erasure_id, keys: hashes.length }, 'erasure fence: requests still counted running at the end of the wait');
    return { keys: hashes.length, drained };
  }

  @RpcHandler(PrivacySubjects.eraseGateway)
  async erase(req: RequestOf<typeof PrivacySubjects.eraseGateway>) {
    // Fenced again, so the fence outlasts the broadcast below by its whole lifetime.
    await this.fence.fence(await this.keys.hashesOfClient(req.client_id));
    const deleted = await this.keys.deleteClient(req.client_id);
    revokeEverywhere(this.infra, this.auth, deleted);
    const counters = await this.limiter.eraseClient(req.client_id);
    return {
      erased: [
        { service: 'gateway' as const, store: 'api_keys', backend: 'postgres' as const, count: deleted.length },
        { service: 'gateway' as const, store: 'rate_limit_counters', backend: this.infra.redis ? ('redis' as const) : ('memory' as const), count: counters },
      ],
    };
  }
}

/** Revoked keys: this replica refuses them now, every other gateway when the broadcast reaches it. */
export function revokeEverywhere(infra: Infra, auth: ApiKeyAuthenticator, keyHashes: string[]): void {
  if (!keyHashes.length) return;
  auth.forgetKeys(keyHashes);
  infra.bus.emit(AccessBroadcasts.keysRevoked, { key_hashes: keyHashes });
}

/** Every gateway replica hears key revocations (no queue group) and drops the keys from its cache. */
@Controller()
export class KeyRevocationListener {
  constructor(private readonly auth: ApiKeyAuthenticator) {}

  @BusEventHandler(AccessBroadcasts.keysRevoked)
  revoked(msg: KeysRevoked): void {
    this.auth.forgetKeys(msg.key_hashes);
  }
}

/** Logs a receipt without the client id (receipt id and counts are enough to find it again). */
export function logReceipt(receipt: ErasureReceipt): void {
  log.info({ receipt_id: receipt.receipt_id, requested_by: receipt.requested_by, total: receipt.total }, 'client data erased');
}

/**
 * `DELETE /me/data`: erases everything Cota holds about the key's client (CONTRACT) and answers
 * the receipt. The key itself is erased too, so it stops working: a repeated call is a 401.
 * Not rate limited: a client past its quota can still have its data erased.
 */
@ApiTags('privacidade')
@Controller()
export class PrivacyController {
  constructor(
    private readonly auth: ApiKeyAuthenticator,
    private readonly erasure: ClientErasure,
  ) {}

  @Delete('me/data')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Apaga tudo o que o Cota guarda sobre o cliente da chave',
    description: 'Responde um recibo; a própria chave é apagada (repetir a chamada com ela dá 401).',
  })
  @ApiBearerAuth(CLIENT_KEY)
  @ApiResponse({ status: 200, description: 'O recibo do apagamento.', content: { 'application/json': { schema: ReceiptSchema, example: RECEIPT_EXAMPLE } } })
  @ApiErrors(ASK_ERRORS, [401, 503])
  async eraseMyData(@Req() req: Request): Promise<ErasureReceipt> {
    const clientId = await authenticateClient(req, this.auth);
    const receipt = await this.erasure.erase(clientId, 'client');
    // The erase step may have run on another replica: this one forgets the key now too.
    this.auth.forgetClient(clientId);
    logReceipt(receipt);
    return receipt;
  }
}
