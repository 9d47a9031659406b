import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { DynamicModule, INestApplication, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as NestPinoLogger, LoggerModule } from 'nestjs-pino';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { ServiceName } from '@cota/contracts';
import { CotaEnv, loadPolicy } from '@cota/config';
import { Bus, BusMetrics, BusServer, EventSalt, FabricPolicy, NatsTransport, tracingEnabled, Transport, TransportSubscription } from '@cota/messaging';
import { Migration, openDatabase, runMigrations } from './database';
import { HealthProblem, ownHealthChecks, readinessChecks, ReadinessModule, ReadinessProbe, serveHealth } from './health';
import { Infra, onOpenBus } from './infra';
import { createLogger, Logger } from './logger';
import { registerReadinessMetrics, startOpsServer } from './ops-server';
import { registerProcessMetrics } from './process-metrics';
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
  /** Routes an HTTP service adds to its app before it listens (the gateway's /docs). */
  configureHttp?(app: INestApplication): void;
  /** The id of an HTTP request (the gateway's X-Request-Id): `request_id` of the request's child logger. */
  httpRequestId?(req: IncomingMessage): string;
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

/** Closes a connection this service opened itself (shared ones belong to the process). */
type Closer = () => Promise<void>;

/** Traces (OTLP over HTTP) only when OTEL_EXPORTER_OTLP_ENDPOINT is set; the first service of a process installs them. */
async function startTracingOnce(def: ServiceDefinition, env: CotaEnv, shared?: SharedInfra): Promise<TracingHandle | null> {
  if (!env.otlpEndpoint || tracingEnabled()) return null;
  return startTracing({ serviceName: shared ? 'cota' : `cota-${def.name}`, endpoint: env.otlpEndpoint });
}

/** The process's bus transport, or a NATS connection of its own when run as a separate process. */
async function openTransport(def: ServiceDefinition, env: CotaEnv, log: Logger, owned: Closer[], shared?: SharedInfra): Promise<Transport> {
  if (shared?.transport) return shared.transport;
  if (!env.natsUrl) throw new Error(`${def.name}: NATS_URL is required to run as a separate process`);
  const nats = await NatsTransport.connect({
    url: env.natsUrl,
    user: env.natsUser,
    pass: env.natsPassword,
    name: `cota-${def.name}`,
    onStatus: (status, level) => log[level]({ status }, 'nats status'),
  });
  owned.push(() => nats.drain());
  return nats;
}

/** The shared database, or one of its own when the service needs it; then its migrations. */
async function openDatabaseFor(def: ServiceDefinition, env: CotaEnv, owned: Closer[], shared?: SharedInfra): Promise<DataSource | null> {
  let database = shared ? shared.database : null;
  if (def.needsDatabase && !database) {
    if (!env.databaseUrl) throw new Error(`${def.name}: DATABASE_URL is required`);
    const ds = await openDatabase({ url: env.databaseUrl, applicationName: `cota-${def.name}` });
    database = ds;
    owned.push(() => ds.destroy());
  }
  if (database && def.migrations.length) await runMigrations(database, def.migrations);
  return database;
}

/** The shared Redis, or one of its own; only an embedded process may run without it. */
function openRedisFor(def: ServiceDefinition, env: CotaEnv, owned: Closer[], shared?: SharedInfra): Redis | null {
  let redis = shared ? shared.redis : null;
  if (def.needsRedis && !redis && env.redisUrl) {
    const r = openRedis(env.redisUrl, `cota-${def.name}`);
    redis = r;
    owned.push(async () => void (await r.quit().catch(() => r.disconnect())));
  }
  if (def.needsRedis && !redis && !env.embedded) throw new Error(`${def.name}: REDIS_URL is required`);
  return redis;
}

/** The process's metrics registry, or a new one with the process metrics of this service. */
function metricsFor(def: ServiceDefinition, shared?: SharedInfra): BusMetrics {
  const metrics = shared?.metrics ?? new BusMetrics();
  // Process metrics (CPU, memory, event loop) under their standard names, once per registry.
  registerProcessMetrics(metrics.registry);
  return metrics;
}

/** What the service's module is given: its bus and only the connections it declared it needs. */
function assembleInfra(
  def: ServiceDefinition,
  env: CotaEnv,
  log: Logger,
  connections: { transport: Transport; database: DataSource | null; redis: Redis | null },
  fabric: FabricPolicy,
  metrics: BusMetrics,
): Infra {
  const calls = fabric.client.callers.includes(def.name) ? fabric.client : undefined;
  return {
    service: def.name,
    env,
    bus: new Bus(connections.transport, def.name, { fabric, calls, log, metrics, eventSalt: eventSaltOf(env, log) }),
    database: def.needsDatabase ? connections.database : null,
    redis: def.needsRedis ? connections.redis : null,
    embedded: env.embedded,
    metrics,
  };
}

/** The root of a service's Nest app: its module, with nestjs-pino as Nest's logger. */
@Module({})
class ServiceApp {}

/**
 * The service's module under nestjs-pino: Nest's own lines (warn and above, as before) go through the
 * service's pino logger, and each HTTP request gets a child logger (`req.log`) carrying its request id.
 */
function withPinoLogging(def: ServiceDefinition, module: DynamicModule): DynamicModule {
  const pinoHttp = {
    logger: createLogger(def.name).child({}, { level: 'warn' }),
    autoLogging: false,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id' },
    ...(def.httpRequestId ? { genReqId: def.httpRequestId } : {}),
  };
  return { module: ServiceApp, imports: [LoggerModule.forRoot({ pinoHttp }), ReadinessModule, module] };
}

/** Starts the Nest app: an HTTP server (the gateway) or a plain microservice, both serving the bus. */
async function startNestApp(def: ServiceDefinition, env: CotaEnv, infra: Infra): Promise<INestApplicationContext> {
  const module = withPinoLogging(def, def.module(infra));
  // Handlers are @MessagePattern methods served by the bus's Nest transport strategy (same on NATS and in-process).
  const strategy = new BusServer(infra.bus);
  if (def.http) {
    const http = await NestFactory.create(module, { bufferLogs: true, bodyParser: false, abortOnError: false });
    http.useLogger(http.get(NestPinoLogger));
    def.configureHttp?.(http);
    http.connectMicroservice({ strategy }, { inheritAppConfig: true });
    await http.startAllMicroservices();
    await http.listen(env.port, env.host);
    return http;
  }
  const micro = await NestFactory.createMicroservice(module, { strategy, bufferLogs: true, abortOnError: false });
  micro.useLogger(micro.get(NestPinoLogger));
  await micro.listen();
  return micro;
}

type OpsServer = Awaited<ReturnType<typeof startOpsServer>>;

/**
 * Readiness and the metrics/probe port: never in a shared (embedded) process, where the gateway's
 * /metrics serves all. Once `startDraining()` is called the service reports not ready (a rolling
 * restart takes it out of rotation) while it drains.
 */
async function startProbes(
  def: ServiceDefinition,
  env: CotaEnv,
  infra: Infra,
  metrics: BusMetrics,
  probe: ReadinessProbe,
  shared?: SharedInfra,
): Promise<{ ops: OpsServer | null; startDraining: () => void }> {
  let draining = false;
  const checks = () =>
    draining ? { ...readinessChecks(infra), draining: async () => Promise.reject(new HealthProblem('encerrando: terminando as mensagens em andamento')) } : readinessChecks(infra);
  const ready = () => probe.run(checks());
  if (!shared?.metrics) registerReadinessMetrics(metrics.registry, def.name, ready);
  const ops =
    !shared && env.metricsPort !== undefined && env.metricsPort !== null
      ? await startOpsServer({ port: env.metricsPort, host: env.metricsHost, opsToken: env.opsToken, registry: metrics.registry, ready })
      : null;
  return { ops, startDraining: () => void (draining = true) };
}

/** Everything stop() releases, in the order it releases them. */
interface Running {
  app: INestApplicationContext;
  health: TransportSubscription;
  owned: Closer[];
  ops: OpsServer | null;
  tracing: TracingHandle | null;
  startDraining: () => void;
  log: Logger;
}

/** Stops once: not ready first, then Nest, then the connections the service owns. */
function stopperOf(r: Running): () => Promise<void> {
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    // Readiness false first; the probe port stays open (answering 503) until the drain is over.
    r.startDraining();
    r.health.unsubscribe();
    await r.app.close();
    // In-flight handlers finish (bus drain) before the database and Redis close.
    for (const close of r.owned) await close().catch(() => undefined);
    await r.ops?.close().catch(() => undefined);
    await r.tracing?.stop();
    r.log.info('stopped');
  };
}

export async function startService(def: ServiceDefinition, env: CotaEnv, shared?: SharedInfra): Promise<RunningService> {
  const log = createLogger(def.name);
  // Connections this service opened itself, closed by stop() in opening order.
  const owned: Closer[] = [];
  const tracing = await startTracingOnce(def, env, shared);
  // Bulkheads, breakers and retries (policies/fabric.yaml): a bad value stops the start naming file and field,
  // before any connection is opened.
  const fabric = loadPolicy('fabric', FabricPolicy);
  const transport = await openTransport(def, env, log, owned, shared);
  const database = await openDatabaseFor(def, env, owned, shared);
  const redis = openRedisFor(def, env, owned, shared);
  const metrics = metricsFor(def, shared);
  const infra = assembleInfra(def, env, log, { transport, database, redis }, fabric, metrics);

  if (onOpenBus(infra)) {
    log.warn('NATS WITHOUT CREDENTIALS: any client on the network can call, serve and read every subject; set NATS_USER/NATS_PASSWORD (deploy/README.md, "A closed bus")');
  }
  const app = await startNestApp(def, env, infra);
  const probe = app.get(ReadinessProbe);
  const health: TransportSubscription = serveHealth(infra, probe, ownHealthChecks(infra));
  const { ops, startDraining } = await startProbes(def, env, infra, metrics, probe, shared);
  log.info(
    {
      // The release (the image's COTA_VERSION and COTA_GIT_SHA, Dockerfile); absent when run from a checkout.
      ...(process.env.COTA_VERSION ? { version: process.env.COTA_VERSION, git_sha: process.env.COTA_GIT_SHA } : {}),
      transport: transport.name,
      embedded: env.embedded,
      ...(def.http ? { host: env.host, port: env.port } : {}),
      ...(ops ? { metrics_host: ops.address, metrics_port: ops.port } : {}),
    },
    'started',
  );

  return {
    name: def.name,
    infra,
    app,
    opsPort: ops?.port ?? null,
    stop: stopperOf({ app, health, owned, ops, tracing, startDraining, log }),
  };
}
