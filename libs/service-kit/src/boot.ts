import 'reflect-metadata';
import { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { ServiceName } from '@cota/contracts';
import { CotaEnv, loadPolicy } from '@cota/config';
import { collectDefaultMetrics } from 'prom-client';
import { Bus, BusMetrics, BusServer, EventSalt, FabricPolicy, NatsTransport, tracingEnabled, Transport, TransportSubscription } from '@cota/messaging';
import { Migration, openDatabase, runMigrations } from './database';
import { HealthProblem, ownHealthChecks, readinessChecks, serveHealth } from './health';
import { Infra, onOpenBus } from './infra';
import { Logger } from './logger';
import { registerReadinessMetrics, startOpsServer } from './ops-server';
import { openRedis } from './redis';
import { startTracing, TracingHandle } from './tracing';

/** How a service is assembled: what it needs and its Nest module. */
export interface ServiceDefinition {
  name: ServiceName;
  needsDatabase: boolean;
  needsRedis: boolean;
  /** Migrations this service owns, applied at start (idempotent, lock-protected). */
  migrations: Migration[];
  module(infra: Infra): DynamicModule;
  /** HTTP services listen on env.port (the gateway). */
  http?: boolean;
}

export interface RunningService {
  name: ServiceName;
  infra: Infra;
  app: INestApplicationContext;
  /** Port of its /metrics and /health probes (ops-server.ts), or null when it has none (embedded, tests). */
  opsPort: number | null;
  /** Drain in-flight messages, close Nest, release connections it owns. */
  stop(): Promise<void>;
}

/**
 * The salt of the service's telemetry hashes: derived from COTA_EVENT_SALT, or the process's own
 * (fine embedded: one process); run apart without it, events of different processes do not correlate.
 */
function eventSaltOf(env: CotaEnv, log: Logger): EventSalt | undefined {
  if (env.eventSalt) return new EventSalt(env.eventSalt);
  if (!env.embedded) log.warn('COTA_EVENT_SALT is not set: conversation hashes in telemetry events are salted per process and do not correlate across services');
  return undefined;
}

/** Connections shared by the services of one process (embedded mode, tests). */
export interface SharedInfra {
  transport: Transport;
  database: DataSource | null;
  redis: Redis | null;
  /** One registry for all the services of the process (embedded: served by the gateway's /metrics). */
  metrics?: BusMetrics;
}

export async function startService(def: ServiceDefinition, env: CotaEnv, shared?: SharedInfra): Promise<RunningService> {
  const log = new Logger(def.name);
  const owned: Array<() => Promise<void>> = [];
  // Traces (OTLP over HTTP) only when OTEL_EXPORTER_OTLP_ENDPOINT is set; the first service of a process installs them.
  let tracing: TracingHandle | null = null;
  if (env.otlpEndpoint && !tracingEnabled()) {
    tracing = await startTracing({ serviceName: shared ? 'cota' : `cota-${def.name}`, endpoint: env.otlpEndpoint });
  }
  // Bulkheads, breakers and retries (policies/fabric.yaml): a bad value stops the start naming file and field.
  const fabric = loadPolicy('fabric', FabricPolicy);

  let transport = shared?.transport;
  if (!transport) {
    if (!env.natsUrl) throw new Error(`${def.name}: NATS_URL is required to run as a separate process`);
    const nats = await NatsTransport.connect({
      url: env.natsUrl,
      user: env.natsUser,
      pass: env.natsPassword,
      name: `cota-${def.name}`,
      onStatus: (status, level) => log[level]('nats status', { status }),
    });
    transport = nats;
    owned.push(() => nats.drain());
  }

  let database = shared ? shared.database : null;
  if (def.needsDatabase && !database) {
    if (!env.databaseUrl) throw new Error(`${def.name}: DATABASE_URL is required`);
    const ds = await openDatabase({ url: env.databaseUrl, applicationName: `cota-${def.name}` });
    database = ds;
    owned.push(() => ds.destroy());
  }
  if (database && def.migrations.length) await runMigrations(database, def.migrations);

  let redis = shared ? shared.redis : null;
  if (def.needsRedis && !redis && env.redisUrl) {
    const r = openRedis(env.redisUrl, `cota-${def.name}`);
    redis = r;
    owned.push(async () => void (await r.quit().catch(() => r.disconnect())));
  }
  if (def.needsRedis && !redis && !env.embedded) throw new Error(`${def.name}: REDIS_URL is required`);

  const metrics = shared?.metrics ?? new BusMetrics();
  // Process metrics (CPU, memory, event loop) once per registry; the gateway registers its own (cota_gateway_*).
  if (!shared?.metrics && !def.http) collectDefaultMetrics({ register: metrics.registry, prefix: `cota_${def.name.replace(/-/g, '_')}_` });
  const infra: Infra = {
    service: def.name,
    env,
    bus: new Bus(transport, def.name, { fabric, calls: fabric.client.callers.includes(def.name) ? fabric.client : undefined, log, metrics, eventSalt: eventSaltOf(env, log) }),
    database: def.needsDatabase ? database : null,
    redis: def.needsRedis ? redis : null,
    embedded: env.embedded,
    metrics,
  };

  if (onOpenBus(infra)) {
    log.warn('NATS WITHOUT CREDENTIALS: any client on the network can call, serve and read every subject; set NATS_USER/NATS_PASSWORD (deploy/README.md, "A closed bus")');
  }
  const module = def.module(infra);
  // Handlers are @MessagePattern methods served by the bus's Nest transport strategy (same on NATS and in-process).
  const strategy = new BusServer(infra.bus);
  let app: INestApplicationContext;
  if (def.http) {
    const http = await NestFactory.create(module, { logger: ['error', 'warn'], bodyParser: false, abortOnError: false });
    http.connectMicroservice({ strategy }, { inheritAppConfig: true });
    await http.startAllMicroservices();
    await http.listen(env.port, env.host);
    app = http;
  } else {
    const micro = await NestFactory.createMicroservice(module, { strategy, logger: ['error', 'warn'], abortOnError: false });
    await micro.listen();
    app = micro;
  }
  const health: TransportSubscription = serveHealth(infra, ownHealthChecks(infra));
  // The metrics/probe port: never in a shared (embedded) process, where the gateway's /metrics serves all.
  // Once stop() begins the service reports not ready (a rolling restart takes it out of rotation) while it drains.
  let draining = false;
  const checks = () =>
    draining ? { ...readinessChecks(infra), draining: async () => Promise.reject(new HealthProblem('encerrando: terminando as mensagens em andamento')) } : readinessChecks(infra);
  if (!shared?.metrics) registerReadinessMetrics(metrics.registry, def.name, checks);
  const ops =
    !shared && env.metricsPort !== undefined && env.metricsPort !== null
      ? await startOpsServer({ port: env.metricsPort, host: env.metricsHost, opsToken: env.opsToken, registry: metrics.registry, checks })
      : null;
  log.info('started', {
    transport: transport.name,
    embedded: env.embedded,
    ...(def.http ? { host: env.host, port: env.port } : {}),
    ...(ops ? { metrics_host: ops.address, metrics_port: ops.port } : {}),
  });

  let stopped = false;
  return {
    name: def.name,
    infra,
    app,
    opsPort: ops?.port ?? null,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // Readiness false first; the probe port stays open (answering 503) until the drain is over.
      draining = true;
      health.unsubscribe();
      await app.close();
      // In-flight handlers finish (bus drain) before the database and Redis close.
      for (const close of owned) await close().catch(() => undefined);
      await ops?.close().catch(() => undefined);
      await tracing?.stop();
      log.info('stopped');
    },
  };
}
