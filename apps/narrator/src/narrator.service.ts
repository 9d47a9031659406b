import { ServiceDefinition } from '@cota/service-kit';
import { NarratorModule, NarratorServiceOptions } from './narrator.module';

/** The narrator with explicit options (tests point it at a policies folder of their own). */
export function createNarratorService(options: NarratorServiceOptions = {}): ServiceDefinition {
  return {
    name: 'narrator',
    needsDatabase: false,
    needsRedis: false,
    migrations: [],
    module: (infra) => NarratorModule.register(infra, options),
  };
}

export const narratorService: ServiceDefinition = createNarratorService();
