import { DynamicModule, Inject, Injectable, MiddlewareConsumer, Module, NestModule, OnModuleInit } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import {
  ApiKeyAuthenticator,
  InMemoryRateLimiter,
  loadQuotaPolicy,
  PostgresApiKeyRepository,
  QuotaPolicy,
  RedisRateLimiter,
  seedDemoKeys,
} from '@cota/access';
import { AskPipeline } from '@cota/orchestration';
import { INFRA, Infra, Logger, requireDatabase, serveHealth } from '@cota/service-kit';
import { ErrorFilter, routeLabel } from './error.filter';
import { AskController } from './gateway.controller';
import { HealthController } from './health.controller';
import { jsonBody } from './http/body';
import { GatewayMetrics } from './metrics';
import { OpsController } from './ops.controller';
import { QUOTA_POLICY, RATE_LIMITER } from './tokens';

const log = new Logger('gateway');

/** Demo keys (COTA_DEMO_KEYS, or generated and printed once) and the gateway's own health subject. */
@Injectable()
class GatewayStartup implements OnModuleInit {
  constructor(@Inject(INFRA) private readonly infra: Infra) {}

  async onModuleInit(): Promise<void> {
    const repo = new PostgresApiKeyRepository(requireDatabase(this.infra));
    const { created, seeded } = await seedDemoKeys(repo, this.infra.env.demoKeys);
    if (seeded && !created.length) log.info('demo API keys seeded from COTA_DEMO_KEYS', { count: seeded });
    if (created.length) {
      process.stdout.write(
        `\nChaves de API de demonstração criadas (guarde-as; só são mostradas agora):\n` +
          created.map((k) => `  client_id=${k.clientId}  chave=${k.key}`).join('\n') +
          '\n\n',
      );
    }
    serveHealth(this.infra);
  }
}

@Module({})
export class GatewayModule implements NestModule {
  constructor(@Inject(QUOTA_POLICY) private readonly quotas: QuotaPolicy, private readonly metrics: GatewayMetrics) {}

  static register(infra: Infra): DynamicModule {
    const quotas = loadQuotaPolicy();
    const db = requireDatabase(infra);
    return {
      module: GatewayModule,
      controllers: [AskController, HealthController, OpsController],
      providers: [
        { provide: INFRA, useValue: infra },
        { provide: QUOTA_POLICY, useValue: quotas },
        { provide: AskPipeline, useValue: new AskPipeline(infra.bus) },
        { provide: ApiKeyAuthenticator, useValue: new ApiKeyAuthenticator(new PostgresApiKeyRepository(db)) },
        {
          provide: RATE_LIMITER,
          useValue: infra.redis ? new RedisRateLimiter(infra.redis, quotas.per_client, `${infra.env.redisPrefix}rl:`) : new InMemoryRateLimiter(quotas.per_client),
        },
        GatewayMetrics,
        { provide: APP_FILTER, useClass: ErrorFilter },
        GatewayStartup,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    const metrics = this.metrics;
    consumer
      .apply(
        (req: Request, res: Response, next: NextFunction) => {
          res.on('finish', () => {
            if (res.statusCode < 400) metrics.http.inc({ route: routeLabel(req), status: String(res.statusCode) });
          });
          next();
        },
        jsonBody(this.quotas.http.max_body_bytes),
      )
      .forRoutes('*');
  }
}
