import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { dataDir } from './paths';

export interface CotaEnv {
  natsUrl: string | null;
  /**
   * NATS credentials of this service (NATS_USER/NATS_PASSWORD; `nats://user:pass@host` in NATS_URL also
   * works). Each service has its own user whose subject permissions are generated from libs/contracts.
   * Optional so hand-built test environments need not set them; loadEnv always does.
   */
  natsUser?: string | null;
  /** Secret: never log it. */
  natsPassword?: string | null;
  databaseUrl: string | null;
  redisUrl: string | null;
  openai: { apiKey: string | null; baseUrl: string | null; model: string | null };
  port: number;
  /**
   * HOST: the interface the gateway's HTTP server binds. Loopback unless told otherwise, in every mode:
   * a container sets 0.0.0.0 explicitly (deploy/, docker-compose.yml).
   */
  host: string;
  /** `client_id:key,...` from COTA_DEMO_KEYS, or null. */
  demoKeys: Array<{ clientId: string; key: string }> | null;
  /**
   * COTA_DEMO=1: demo API keys are generated and printed on first start in distributed mode too.
   * Without it (and without COTA_DEMO_KEYS) the distributed gateway seeds no key; embedded mode always does.
   */
  demo: boolean;
  opsToken: string | null;
  dataDir: string;
  /** Namespace of every Redis key (COTA_REDIS_PREFIX, default `cota:`): lets environments share one Redis. */
  redisPrefix: string;
  /** True when none of NATS_URL, DATABASE_URL, REDIS_URL is set: one process, embedded stores. */
  embedded: boolean;
  /** Outbound e-mail (SMTP_URL); null when unset: confirmed e-mails stay `queued` in the outbox, nothing is delivered. */
  mail: MailEnv | null;
  /**
   * COTA_METRICS_PORT: the HTTP port of a service's /metrics and /health probes; null (unset) means the
   * per-service default when run alone, none in tests that do not ask. `0` picks a free port.
   */
  metricsPort?: number | null;
  /** COTA_METRICS_HOST: the interface of that metrics/probe port; loopback unless told otherwise (containers: 0.0.0.0). */
  metricsHost: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: OTLP/HTTP collector base URL; null (default) leaves tracing off. */
  otlpEndpoint?: string | null;
  /**
   * COTA_EVENT_SALT: the secret the salt of `conversation_hash` in telemetry events is derived from,
   * daily (libs/messaging telemetry.ts). Every service and replica must share it for their events to
   * correlate; unset, each process draws its own. Secret: never log it.
   */
  eventSalt?: string | null;
}

/** SMTP delivery of the e-mail outbox (the executor's worker). */
export interface MailEnv {
  /** `smtp://user:pass@host:port` or `smtps://...`; holds credentials: never log it. */
  smtpUrl: string;
  /** From header (SMTP_FROM). */
  from: string;
  /** Deliveries tried per message before it ends `failed` (COTA_MAIL_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** First retry delay; doubles per attempt up to retryMaxMs (COTA_MAIL_RETRY_BASE_MS, COTA_MAIL_RETRY_MAX_MS). */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Slow poll of the outbox besides the wake-up after each insert (COTA_MAIL_POLL_MS). */
  pollMs: number;
}

export const MAIL_DEFAULTS: Omit<MailEnv, 'smtpUrl'> = {
  from: 'Cota <nao-responda@cota.local>',
  maxAttempts: 8,
  retryBaseMs: 30_000,
  retryMaxMs: 30 * 60_000,
  pollMs: 30_000,
};

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

  const demoFlag = blank(source.COTA_DEMO)?.toLowerCase() ?? null;
  if (demoFlag !== null && !['1', 'true', 'yes', '0', 'false', 'no'].includes(demoFlag)) {
    throw new EnvError('COTA_DEMO', `must be 1/true/yes or 0/false/no, got '${source.COTA_DEMO}'`);
  }

  for (const [name, value] of [
    ['NATS_URL', natsUrl],
    ['DATABASE_URL', databaseUrl],
    ['REDIS_URL', redisUrl],
    ['OPENAI_BASE_URL', blank(source.OPENAI_BASE_URL)],
  ] as const) {
    if (value && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new EnvError(name, `must be a URL, got '${value}'`);
  }

  const natsUser = blank(source.NATS_USER);
  const natsPassword = blank(source.NATS_PASSWORD);
  if (natsPassword && !natsUser) throw new EnvError('NATS_PASSWORD', 'needs NATS_USER');

  return {
    natsUrl,
    natsUser,
    natsPassword,
    databaseUrl,
    redisUrl,
    openai: { apiKey: blank(source.OPENAI_API_KEY), baseUrl: blank(source.OPENAI_BASE_URL), model: blank(source.OPENAI_MODEL) },
    port,
    host: hostOf(source, 'HOST'),
    demoKeys,
    demo: demoFlag !== null && ['1', 'true', 'yes'].includes(demoFlag),
    opsToken: blank(source.COTA_OPS_TOKEN),
    dataDir: blank(source.COTA_DATA_DIR) ? resolve(blank(source.COTA_DATA_DIR)!) : dataDir(),
    redisPrefix: blank(source.COTA_REDIS_PREFIX) ?? 'cota:',
    embedded: !natsUrl && !databaseUrl && !redisUrl,
    mail: loadMailEnv(source),
    metricsPort: metricsPortOf(source),
    metricsHost: hostOf(source, 'COTA_METRICS_HOST'),
    otlpEndpoint: otlpEndpointOf(source),
    eventSalt: eventSaltOf(source),
  };
}

function eventSaltOf(source: NodeJS.ProcessEnv): string | null {
  const raw = blank(source.COTA_EVENT_SALT);
  // A secret: the error names the variable, never the value.
  if (raw !== null && raw.length < 16) throw new EnvError('COTA_EVENT_SALT', 'must be at least 16 characters (e.g. openssl rand -hex 24)');
  return raw;
}

/** Where a server listens when the environment does not say: this machine only. */
export const LOOPBACK = '127.0.0.1';

function hostOf(source: NodeJS.ProcessEnv, name: 'HOST' | 'COTA_METRICS_HOST'): string {
  const raw = blank(source[name]);
  if (raw === null) return LOOPBACK;
  if (!isIP(raw) && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(raw)) {
    throw new EnvError(name, `must be an IP address or a host name (0.0.0.0: every interface), got '${raw}'`);
  }
  return raw;
}

function metricsPortOf(source: NodeJS.ProcessEnv): number | null {
  const raw = blank(source.COTA_METRICS_PORT);
  if (raw === null) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new EnvError('COTA_METRICS_PORT', `must be a port number, got '${raw}'`);
  return n;
}

function otlpEndpointOf(source: NodeJS.ProcessEnv): string | null {
  const raw = blank(source.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (raw !== null && !/^https?:\/\/[^\s/]+/i.test(raw)) throw new EnvError('OTEL_EXPORTER_OTLP_ENDPOINT', `must be an http(s) URL, got '${raw}'`);
  return raw;
}

function positiveInt(source: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = blank(source[name]);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new EnvError(name, `must be a positive integer, got '${raw}'`);
  return n;
}

function loadMailEnv(source: NodeJS.ProcessEnv): MailEnv | null {
  const smtpUrl = blank(source.SMTP_URL);
  if (!smtpUrl) return null;
  // The value carries credentials: the error names the variable, never the value.
  if (!/^smtps?:\/\/[^/\s]+/i.test(smtpUrl)) throw new EnvError('SMTP_URL', 'must be smtp://[user:pass@]host[:port] or smtps://...');
  const retryBaseMs = positiveInt(source, 'COTA_MAIL_RETRY_BASE_MS', MAIL_DEFAULTS.retryBaseMs);
  const retryMaxMs = positiveInt(source, 'COTA_MAIL_RETRY_MAX_MS', Math.max(MAIL_DEFAULTS.retryMaxMs, retryBaseMs));
  if (retryMaxMs < retryBaseMs) throw new EnvError('COTA_MAIL_RETRY_MAX_MS', `must be at least COTA_MAIL_RETRY_BASE_MS (${retryBaseMs})`);
  return {
    smtpUrl,
    from: blank(source.SMTP_FROM) ?? MAIL_DEFAULTS.from,
    maxAttempts: positiveInt(source, 'COTA_MAIL_MAX_ATTEMPTS', MAIL_DEFAULTS.maxAttempts),
    retryBaseMs,
    retryMaxMs,
    pollMs: positiveInt(source, 'COTA_MAIL_POLL_MS', MAIL_DEFAULTS.pollMs),
  };
}
