import { ServiceDefinition } from '@cota/service-kit';
import { ToolGateModule, ToolGateServiceOptions } from './tool-gate.module';

/** The tool gate with explicit options (tests may point it at another policies folder). */
export function createToolGateService(options: ToolGateServiceOptions = {}): ServiceDefinition {
  return {
    name: 'tool-gate',
    // Stateless: session values live in the context service, tools run in the executor.
    needsDatabase: false,
    needsRedis: false,
    migrations: [],
    module: (infra) => ToolGateModule.register(infra, options),
  };
}

export const toolGateService: ServiceDefinition = createToolGateService();
