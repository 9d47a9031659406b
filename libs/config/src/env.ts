import { resolve } from 'node:path';
import { dataDir } from './paths';

export interface CotaEnv {
  natsUrl: string | null;
  databaseUrl: string | null;
  redisUrl: string | null;
  openai: { apiKey: string | null; baseUrl: string | null; model: string | null };
  port: number;
  /** `client_id:key,...` from COTA_DEMO_KEYS, or null. */
  demoKeys: Array<{ clientId: string; key: string }> | null;
  opsToken: string | null;
  dataDir: string;
  /** Namespace of every Redis key (COTA_REDIS_PREFIX, default `cota:`): lets environments share one Redis. */
  redisPrefix: string;
  /** True when none of NATS_URL, DATABASE_URL, REDIS_URL is set: one process, embedded stores. */
  embedded: boolean;
}

export class EnvError extends Error {
  constructor(variable: string, detail: string) {
    super(`environment variable ${variable} ${detail}`);
    this.name = 'EnvError';
  }
}

const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

/** Reads and validates the environment once, at start-up. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): CotaEnv {
  const natsUrl = blank(source.NATS_URL);
  const databaseUrl = blank(source.DATABASE_URL);
  const redisUrl = blank(source.REDIS_URL);

  const portRaw = blank(source.PORT) ?? '3000';
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new EnvError('PORT', `must be a port number, got '${portRaw}'`);

  let demoKeys: CotaEnv['demoKeys'] = null;
  const demoRaw = blank(source.COTA_DEMO_KEYS);
  if (demoRaw) {
    demoKeys = demoRaw.split(',').map((pair, i) => {
      const idx = pair.indexOf(':');
      const clientId = pair.slice(0, idx).trim();
      const key = pair.slice(idx + 1).trim();
      if (idx <= 0 || !clientId || key.length < 8) {
        throw new EnvError('COTA_DEMO_KEYS', `entry ${i + 1} must be client_id:key with a key of at least 8 characters`);
      }
      return { clientId, key };
    });
  }

  for (const [name, value] of [
    ['NATS_URL', natsUrl],
    ['DATABASE_URL', databaseUrl],
    ['REDIS_URL', redisUrl],
    ['OPENAI_BASE_URL', blank(source.OPENAI_BASE_URL)],
  ] as const) {
    if (value && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new EnvError(name, `must be a URL, got '${value}'`);
  }

  return {
    natsUrl,
    databaseUrl,
    redisUrl,
    openai: { apiKey: blank(source.OPENAI_API_KEY), baseUrl: blank(source.OPENAI_BASE_URL), model: blank(source.OPENAI_MODEL) },
    port,
    demoKeys,
    opsToken: blank(source.COTA_OPS_TOKEN),
    dataDir: blank(source.COTA_DATA_DIR) ? resolve(blank(source.COTA_DATA_DIR)!) : dataDir(),
    redisPrefix: blank(source.COTA_REDIS_PREFIX) ?? 'cota:',
    embedded: !natsUrl && !databaseUrl && !redisUrl,
  };
}
