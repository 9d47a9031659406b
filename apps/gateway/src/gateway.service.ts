import { accessMigrations } from '@cota/access';
import { ServiceDefinition } from '@cota/service-kit';
import { GatewayModule } from './gateway.module';
import { serveOpenApi } from './openapi/document';

export const gatewayService: ServiceDefinition = {
  name: 'gateway',
  needsDatabase: true,
  needsRedis: true,
  migrations: accessMigrations,
  http: true,
  configureHttp: serveOpenApi,
  module: (infra) => GatewayModule.register(infra),
};
