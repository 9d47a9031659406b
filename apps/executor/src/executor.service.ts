import { ServiceDefinition } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { ExecutorModule } from './executor.module';

/** The executor: entity queries over the warehouse, the fund list, and approved tools. */
export const executorService: ServiceDefinition = {
  name: 'executor',
  needsDatabase: true,
  needsRedis: false,
  migrations: warehouseMigrations,
  module: (infra) => ExecutorModule.register(infra),
};
