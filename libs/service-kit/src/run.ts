import { loadEnv } from '@cota/config';
import { Logger } from './logger';
import { RunningService, ServiceDefinition, startService } from './boot';

/**
 * Entry point of one service as its own process (`npm run start:<service>`): reads the
 * environment, starts, and drains gracefully on SIGTERM/SIGINT (Kubernetes stops pods with SIGTERM).
 */
export async function runFromEnv(def: ServiceDefinition): Promise<RunningService> {
  const log = new Logger(def.name);
  try {
    const env = loadEnv();
    if (env.embedded) {
      throw new Error(`${def.name} runs alone only with NATS_URL (and DATABASE_URL/REDIS_URL as it needs); for one process with embedded defaults use 'npm start'`);
    }
    const running = await startService(def, env);
    stopOnSignals(running.stop, log);
    return running;
  } catch (e) {
    log.error('failed to start', { error: (e as Error).message });
    process.exit(1);
  }
}

/** Drains and exits on SIGTERM (how Kubernetes stops a pod) or SIGINT (Ctrl+C). */
export function stopOnSignals(stop: () => Promise<void>, log: Logger): void {
  const shutdown = async (signal: string) => {
    log.info('shutting down', { signal });
    await stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
