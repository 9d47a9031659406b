import 'reflect-metadata';
import { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { ServiceName } from '@cota/contracts';
import { CotaEnv, loadPolicy } from '@cota/config';
import { Bus, FabricPolicy, NatsTransport, Transport } from '@cota/messaging';
import { Migration, openDatabase, runMigrations } from './database';
import { Infra } from './infra';
import { Logger } from './logger';
import { openRedis } from './redis';

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
  /** Drain in-flight messages, close Nest, release connections it owns. */
  stop(): Promise<void>;
}

/** Connections shared by the services of one process (embedded mode, tests). */
export interface SharedInfra {
  transport: Transport;
  database: DataSource | null;
  redis: Redis | null;
}

export async function startService(def: ServiceDefinition, env: CotaEnv, shared?: SharedInfra): Promise<RunningService> {
  const log = new Logger(def.name);
  const owned: Array<() => Promise<void>> = [];
  // Bulkheads, breakers and retries (policies/fabric.yaml): a bad value stops the start naming file and field.
  const fabric = loadPolicy('fabric', FabricPolicy);

  let transport = shared?.transport;
  if (!transport) {
    if (!env.natsUrl) throw new Error(`${def.name}: NATS_URL is required to run as a separate process`);
    const nats = await NatsTransport.connect({
      url: env.natsUrl,
      name: `cota-${def.name}`,
      onStatus: (s) => log.info('nats status', { status: s }),
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

  const infra: Infra = {
    service: def.name,
    env,
    bus: new Bus(transport, def.name, { fabric, calls: fabric.client.callers.includes(def.name) ? fabric.client : undefined, log }),
    database: def.needsDatabase ? database : null,
    redis: def.needsRedis ? redis : null,
    embedded: env.embedded,
  };

  const module = def.module(infra);
  const app = def.http
    ? await NestFactory.create(module, { logger: ['error', 'warn'], bodyParser: false })
    : await NestFactory.createApplicationContext(module, { logger: ['error', 'warn'] });
  if (def.http) await (app as Awaited<ReturnType<typeof NestFactory.create>>).listen(env.port, '0.0.0.0');
  else await app.init();
  log.info('started', { transport: transport.name, embedded: env.embedded });

  let stopped = false;
  return {
    name: def.name,
    infra,
    app,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await app.close();
      // In-flight handlers finish (bus drain) before the database and Redis close.
      for (const close of owned) await close().catch(() => undefined);
      log.info('stopped');
    },
  };
}
