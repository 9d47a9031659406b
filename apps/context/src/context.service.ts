import { conversationMigrations } from '@cota/conversation';
import { ServiceDefinition } from '@cota/service-kit';
import { ContextModule, ContextServiceOptions } from './context.module';

/**
 * The context service with explicit options (tests pass a private Redis key prefix).
 * Without options the Redis namespace is `$COTA_REDIS_PREFIX` (default `cota:`) + `ctx:`.
 */
export function createContextService(options: ContextServiceOptions = {}): ServiceDefinition {
  return {
    name: 'context',
    needsDatabase: true,
    needsRedis: true,
    migrations: conversationMigrations,
    module: (infra) => ContextModule.register(infra, options),
  };
}

export const contextService: ServiceDefinition = createContextService();
