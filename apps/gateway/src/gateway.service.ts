import { accessMigrations } from '@cota/access';
import { ServiceDefinition } from '@cota/service-kit';
import { GatewayModule } from './gateway.module';

export const gatewayService: ServiceDefinition = {
  name: 'gateway',
  needsDatabase: true,
  needsRedis: true,
  migrations: accessMigrations,
  http: true,
  module: (infra) => GatewayModule.register(infra),
};
