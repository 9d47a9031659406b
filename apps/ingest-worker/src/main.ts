import '../../../libs/service-kit/src/register-paths';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { loadEnv } from '@cota/config';
import { createFeedsWorker, feedsMigrations, loadFeedsPolicy, withUrlOverrides } from '@cota/feeds';
import { createLogger, openDatabase, runMigrations, startOpsServer } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { IngestWorkerModule } from './ingest-worker.module';

const log = createLogger('ingest-worker');
/** Its metrics and probes port when COTA_METRICS_PORT is unset (the services use 9460-9466). */
const DEFAULT_METRICS_PORT = 9467;

/**
 * The ingest worker (apps/ingest-worker): reads the public sources on the schedules of
 * policies/feeds.yaml into the warehouse. Any number of replicas: each slot runs once (feeds' claim).
 * Serves /metrics, /health/* and /ops/feeds (behind COTA_OPS_TOKEN) on its metrics port.
 */
async function main(): Promise<void> {
  const env = loadEnv();
  if (!env.databaseUrl) throw new Error('DATABASE_URL não definido: o ingest-worker grava no Postgres do data warehouse (no modo embutido use COTA_FEEDS=on com npm start)');
  // A bad feeds.yaml stops here, naming the field.
  const policy = withUrlOverrides(loadFeedsPolicy(), process.env);
  const ds = await openDatabase({ url: env.databaseUrl, applicationName: 'cota-ingest-worker' });
  await runMigrations(ds, [...warehouseMigrations, ...feedsMigrations]);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'cota_ingest_worker_' });
  const worker = createFeedsWorker(ds, policy, { registry, log });
  const app = await NestFactory.createApplicationContext(IngestWorkerModule.register(worker), { logger: false });
  const ops = await startOpsServer({
    port: env.metricsPort ?? DEFAULT_METRICS_PORT,
    host: env.metricsHost,
    opsToken: env.opsToken,
    registry,
    checks: () => ({ postgres: async () => void (await ds.query('SELECT 1')) }),
    routes: { '/ops/feeds': async () => ({ feeds: await worker.status() }) },
  });
  log.info({ feeds: worker.runner.names(), metrics_port: ops.port }, 'ingest worker ready');
  const stop = async () => {
    await app.close();
    await ops.close();
    await ds.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((e) => {
  log.error({ error: (e as Error).message }, 'ingest worker failed to start');
  process.exit(1);
});
