import { ServiceDefinition } from '@cota/service-kit';
import { PlannerModule, PlannerServiceOptions } from './planner.module';

/** The planner with explicit options (tests shorten the fund-list retry). */
export function plannerServiceWith(options: PlannerServiceOptions): ServiceDefinition {
  return {
    name: 'planner',
    needsDatabase: false,
    needsRedis: false,
    migrations: [],
    module: (infra) => PlannerModule.register(infra, options),
  };
}

export const plannerService: ServiceDefinition = plannerServiceWith({});
