import '../../../libs/service-kit/src/register-paths';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Registry } from 'prom-client';
import { loadEnv } from '@cota/config';
import { createFeedsWorker, feedsMigrations, loadFeedsPolicy, withUrlOverrides } from '@cota/feeds';
import { createLogger, openDatabase, ReadinessProbe, registerProcessMetrics, runMigrations, startOpsServer } from '@cota/service-kit';
import { NatsTransport, WarehouseStream } from '@cota/messaging';
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
  registerProcessMetrics(registry);
  const transport = await connectEvents(env, policy);
  const stream = transport ? WarehouseStream.of(transport)! : null;
  const worker = createFeedsWorker(ds, policy, { registry, log, events: stream ? { publish: (subject, data, id) => stream.publish(subject, data, id) } : undefined });
  const app = await NestFactory.createApplicationContext(IngestWorkerModule.register(worker), { logger: false });
  const probe = app.get(ReadinessProbe);
  const ops = await startOpsServer({
    port: env.metricsPort ?? DEFAULT_METRICS_PORT,
    host: env.metricsHost,
    opsToken: env.opsToken,
    registry,
    ready: () =>
      probe.run({
        postgres: async () => void (await ds.query('SELECT 1')),
        ...(transport ? { nats: async () => void (await transport.connection.flush()) } : {}),
      }),
    routes: { '/ops/feeds': async () => ({ feeds: await worker.status() }) },
  });
  log.info({ feeds: worker.runner.names(), metrics_port: ops.port }, 'ingest worker ready');
  const stop = async () => {
    await app.close();
    await transport?.drain();
    await ops.close();
    await ds.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

/**
 * The change events' stream: with NATS_URL the worker publishes each committed run's events to JetStream
 * (creating the stream with the policy's retention); without it they stay in the feed_events outbox.
 */
async function connectEvents(env: ReturnType<typeof loadEnv>, policy: ReturnType<typeof loadFeedsPolicy>): Promise<NatsTransport | null> {
  if (!env.natsUrl) {
    log.warn('NATS_URL not set: change events stay in the feed_events outbox, unpublished');
    return null;
  }
  const transport = await NatsTransport.connect({
    url: env.natsUrl,
    user: env.natsUser ?? null,
    pass: env.natsPassword ?? null,
    name: 'ingest-worker',
    onStatus: (status, level) => log[level]({ status }, 'nats status'),
  });
  const e = policy.events;
  await WarehouseStream.of(transport)!.ensure({ maxAgeMs: e.max_age_days * 86_400_000, duplicateWindowMs: e.duplicate_window_s * 1000, maxBytes: e.max_bytes });
  return transport;
}

main().catch((e) => {
  log.error({ error: (e as Error).message }, 'ingest worker failed to start');
  process.exit(1);
});
