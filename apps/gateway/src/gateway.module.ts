import { DynamicModule, Inject, Injectable, MiddlewareConsumer, Module, NestModule, OnModuleInit, Optional } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import {
  ApiKeyAuthenticator,
  AskFence,
  demoKeySeeding,
  InMemoryAskFence,
  InMemoryRateLimiter,
  loadQuotaPolicy,
  PostgresApiKeyRepository,
  QuotaPolicy,
  RateLimiter,
  RedisAskFence,
  RedisRateLimiter,
  seedDemoKeys,
} from '@cota/access';
import { BusClient } from '@cota/messaging';
import { AskPipeline, ClientErasure } from '@cota/orchestration';
import { INFRA, Infra, createLogger, requireDatabase } from '@cota/service-kit';
import { ErrorFilter, routeLabel } from './error.filter';
import { ConversationsController } from './conversations.controller';
import { AskController, DEADLINE_GRACE_MS } from './gateway.controller';
import { HealthController } from './health.controller';
import { jsonBody } from './http/body';
import { ImportsController, isStatementUpload } from './imports.controller';
import { ClientGate } from './http/client-gate';
import { NotificationHub, NotificationListener, NotificationsController } from './notifications.controller';
import { AlertsController } from './alerts.controller';
import { answerClientErrorsAsJson } from './http/client-error';
import { securityHeaders } from './http/security-headers';
import { GatewayMetrics } from './metrics';
import { OpsController } from './ops.controller';
import { GatewayErasureHandler, KeyRevocationListener, PrivacyController, revokeEverywhere } from './privacy';
import { ASK_FENCE, QUOTA_POLICY, RATE_LIMITER } from './tokens';
import { DemoSession } from './web/demo-session';
import { loadWebAssets } from './web/web-assets';
import { WEB_ASSETS, WebController } from './web/web.controller';

const log = createLogger('gateway');

/**
 * Demo keys (COTA_DEMO_KEYS; or generated and printed once, only embedded or with COTA_DEMO=1).
 */
@Injectable()
class GatewayStartup implements OnModuleInit {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly auth: ApiKeyAuthenticator,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  async onModuleInit(): Promise<void> {
    // No X-Powered-By on any response, even those that never reach the middleware below.
    const app = this.adapterHost?.httpAdapter?.getInstance?.() as { disable?: (setting: string) => void } | undefined;
    app?.disable?.('x-powered-by');
    const server = this.adapterHost?.httpAdapter?.getHttpServer?.();
    if (server) answerClientErrorsAsJson(server);
    const seeding = demoKeySeeding({ embedded: this.infra.embedded, demo: this.infra.env.demo, demoKeys: this.infra.env.demoKeys });
    if (seeding === 'none') log.info('no demo API keys seeded (distributed mode): set COTA_DEMO=1 or COTA_DEMO_KEYS for a demo');
    else await this.seedDemoKeys(seeding);
  }

  private async seedDemoKeys(seeding: 'listed' | 'generate'): Promise<void> {
    const repo = new PostgresApiKeyRepository(requireDatabase(this.infra));
    const { created, seeded, revoked } = await seedDemoKeys(repo, seeding === 'listed' ? this.infra.env.demoKeys : null);
    // Demo keys replaced: the replicas already running drop them too.
    revokeEverywhere(this.infra, this.auth, revoked);
    if (seeded && !created.length) log.info({ count: seeded }, 'demo API keys seeded from COTA_DEMO_KEYS');
    if (created.length) {
      process.stdout.write(
        `\nChaves de API de demonstração criadas (guarde-as; só são mostradas agora):\n` + created.map((k) => `  client_id=${k.clientId}  chave=${k.key}`).join('\n') + '\n\n',
      );
    }
  }
}

/** A middleware that lets some requests pass untouched (the multipart upload of B3 statements skips the JSON reader). */
function skipFor(skip: (req: Request) => boolean, mw: (req: Request, res: Response, next: NextFunction) => void) {
  return (req: Request, res: Response, next: NextFunction) => (skip(req) ? next() : mw(req, res, next));
}

@Module({})
export class GatewayModule implements NestModule {
  constructor(
    @Inject(QUOTA_POLICY) private readonly quotas: QuotaPolicy,
    private readonly metrics: GatewayMetrics,
  ) {}

  static register(infra: Infra): DynamicModule {
    const quotas = loadQuotaPolicy();
    const db = requireDatabase(infra);
    return {
      module: GatewayModule,
      controllers: [
        AskController,
        ConversationsController,
        HealthController,
        OpsController,
        PrivacyController,
        WebController,
        GatewayErasureHandler,
        KeyRevocationListener,
        ImportsController,
        NotificationsController,
        NotificationListener,
        AlertsController,
      ],
      providers: [
        { provide: INFRA, useValue: infra },
        { provide: QUOTA_POLICY, useValue: quotas },
        NotificationHub,
        // The Nest client of the bus (ClientProxy): every call of a question goes through it.
        { provide: BusClient, useValue: new BusClient(infra.bus) },
        { provide: AskPipeline, inject: [BusClient], useFactory: (client: BusClient) => new AskPipeline(client) },
        { provide: ClientErasure, inject: [BusClient], useFactory: (client: BusClient) => new ClientErasure(client) },
        { provide: ApiKeyAuthenticator, useValue: new ApiKeyAuthenticator(new PostgresApiKeyRepository(db), undefined, infra.metrics?.cacheLookup('gateway', 'api_keys') ?? null) },
        {
          // Counts each admitted request until it settles: a question's deadline and its commit's grace at most.
          provide: ASK_FENCE,
          useValue: infra.redis
            ? new RedisAskFence(infra.redis, quotas.http.ask_deadline_ms + DEADLINE_GRACE_MS, `${infra.env.redisPrefix}fence:`)
            : new InMemoryAskFence(quotas.http.ask_deadline_ms + DEADLINE_GRACE_MS),
        },
        {
          provide: RATE_LIMITER,
          useValue: infra.redis ? new RedisRateLimiter(infra.redis, quotas.per_client, `${infra.env.redisPrefix}rl:`) : new InMemoryRateLimiter(quotas.per_client),
        },
        // Conversations and feedback: the same key, fence and rate limit as /ask.
        {
          provide: ClientGate,
          inject: [ApiKeyAuthenticator, ASK_FENCE, RATE_LIMITER],
          useFactory: (auth: ApiKeyAuthenticator, fence: AskFence, limiter: RateLimiter) => new ClientGate(auth, fence, limiter),
        },
        // In the service's registry (with the bus metrics), so /metrics and the metrics port serve both.
        { provide: GatewayMetrics, useValue: new GatewayMetrics(infra.metrics?.registry) },
        // The chat page (apps/web, built into dist/apps/web) and its demo login, embedded mode only.
        { provide: WEB_ASSETS, useValue: loadWebAssets() },
        { provide: DemoSession, useValue: new DemoSession(new PostgresApiKeyRepository(db), infra.embedded) },
        { provide: APP_FILTER, useClass: ErrorFilter },
        GatewayStartup,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    const metrics = this.metrics;
    consumer
      .apply(
        securityHeaders(),
        (req: Request, res: Response, next: NextFunction) => {
          res.on('finish', () => {
            if (res.statusCode < 400) metrics.http.inc({ route: routeLabel(req), status: String(res.statusCode) });
          });
          next();
        },
        skipFor(isStatementUpload, jsonBody(this.quotas.http.max_body_bytes)),
      )
      .forRoutes('*');
  }
}
