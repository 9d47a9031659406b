import type { Request } from 'express';
import { accessMigrations } from '@cota/access';
import { ServiceDefinition } from '@cota/service-kit';
import { GatewayModule } from './gateway.module';
import { requestIdOf } from './http/request-id';
import { serveOpenApi } from './openapi/document';

export const gatewayService: ServiceDefinition = {
  name: 'gateway',
  needsDatabase: true,
  needsRedis: true,
  migrations: accessMigrations,
  http: true,
  configureHttp: serveOpenApi,
  httpRequestId: (req) => requestIdOf(req as Request),
  module: (infra) => GatewayModule.register(infra),
};
