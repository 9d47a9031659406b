import { ServiceName } from '@cota/contracts';
import { CotaEnv, loadEnv } from '@cota/config';
import { createLogger, Logger } from './logger';
import { RunningService, ServiceDefinition, startService } from './boot';

/**
 * Entry point of one service as its own process (`npm run start:<service>`): reads the
 * environment, starts, and drains gracefully on SIGTERM/SIGINT (Kubernetes stops pods with SIGTERM).
 */
export async function runFromEnv(def: ServiceDefinition): Promise<RunningService> {
  const log = createLogger(def.name);
  try {
    const env = loadEnv();
    if (env.embedded) {
      throw new Error(`${def.name} runs alone only with NATS_URL (and DATABASE_URL/REDIS_URL as it needs); for one process with embedded defaults use 'npm start'`);
    }
    const running = await startService(def, withDefaultMetricsPort(env, def.name));
    stopOnSignals(running.stop, log);
    return running;
  } catch (e) {
    log.error({ error: (e as Error).message }, 'failed to start');
    process.exit(1);
  }
}

/** Default metrics/probe port of each service run as its own process (COTA_METRICS_PORT overrides; deploy/ uses these). */
export const DEFAULT_METRICS_PORTS: Readonly<Record<ServiceName, number>> = {
  gateway: 9460,
  planner: 9461,
  context: 9462,
  'tool-gate': 9463,
  executor: 9464,
  rag: 9465,
  narrator: 9466,
};

/** The environment with the service's default metrics port when COTA_METRICS_PORT is unset. */
export function withDefaultMetricsPort(env: CotaEnv, service: ServiceName): CotaEnv {
  return env.metricsPort === undefined || env.metricsPort === null ? { ...env, metricsPort: DEFAULT_METRICS_PORTS[service] } : env;
}

/** Drains and exits on SIGTERM (how Kubernetes stops a pod) or SIGINT (Ctrl+C). */
export function stopOnSignals(stop: () => Promise<void>, log: Logger): void {
  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
