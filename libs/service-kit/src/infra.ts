import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { ServiceName } from '@cota/contracts';
import { CotaEnv } from '@cota/config';
import { Bus, BusMetrics, natsServerAndCredentials } from '@cota/messaging';

/**
 * What a service is given to talk to the world. Repositories wrap these; handlers never
 * open connections themselves. `redis` is null in embedded mode (in-memory stores instead).
 */
export interface Infra {
  readonly service: ServiceName;
  readonly env: CotaEnv;
  readonly bus: Bus;
  readonly database: DataSource | null;
  readonly redis: Redis | null;
  readonly embedded: boolean;
  /** The service's Prometheus metrics (its registry: the metrics port, or the gateway's /metrics when embedded). */
  readonly metrics?: BusMetrics;
}

/** The database, or a clear start-up error when the service needs one and none is configured. */
export function requireDatabase(infra: Infra): DataSource {
  if (!infra.database) throw new Error(`${infra.service} needs a database: set DATABASE_URL (or run embedded with none of NATS_URL/DATABASE_URL/REDIS_URL)`);
  return infra.database;
}

/**
 * True when the service talks to NATS without credentials (no NATS_USER, none in NATS_URL) outside
 * embedded mode: the server then lets any client on the network call, serve and read every subject.
 * Started anyway (local servers, tests), with a loud warning and a note on /health/ready.
 */
export function onOpenBus(infra: Infra): boolean {
  if (infra.embedded || infra.bus.transport.name !== 'nats') return false;
  const urlUser = infra.env.natsUrl ? natsServerAndCredentials(infra.env.natsUrl).user : null;
  return !(infra.env.natsUser ?? urlUser);
}

export const INFRA = Symbol('INFRA');
