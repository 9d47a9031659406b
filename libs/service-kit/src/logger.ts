import pino, { DestinationStream, Logger as PinoLogger, LoggerOptions } from 'pino';
import { z } from 'zod';
import { loadPolicy } from '@cota/config';
import { currentCallScope, traceLogFields } from '@cota/messaging';

/** The project's logger: pino (one JSON line per entry). Call as `log.info({ fields }, 'message')`. */
export type Logger = PinoLogger;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** `policies/logging.yaml`: level and what a log line may never carry. */
export const LoggingPolicy = z
  .object({
    version: z.literal(1),
    level: z.enum(['debug', 'info', 'warn', 'error']),
    redact: z
      .object({
        keys: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a plain field name')).min(1),
        censor: z.string().min(1),
        emails: z.boolean(),
      })
      .strict(),
  })
  .strict();
export type LoggingPolicy = z.infer<typeof LoggingPolicy>;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const MASKED_EMAIL = '[e-mail]';

/** Strings of a log entry with e-mail addresses masked (objects walked a few levels down; errors kept as errors). */
function maskEmails(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.includes('@') ? value.replace(EMAIL, MASKED_EMAIL) : value;
  if (depth > 4 || value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((v) => maskEmails(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskEmails(v, depth + 1)]));
}

/** The request and trace of the running code (a bus handler's or a question's call scope), on every line. */
function scopeFields(): Record<string, string> {
  const scope = currentCallScope();
  const out: Record<string, string> = {};
  if (scope.requestId) out.request_id = scope.requestId;
  // W3C traceparent: 00-<trace id>-<span id>-<flags>.
  const [, traceId, spanId] = scope.traceparent?.split('-') ?? [];
  if (traceId && spanId) {
    out.trace_id = traceId;
    out.span_id = spanId;
  }
  return out;
}

/** The level: COTA_LOG_LEVEL, else quiet under jest, else the policy's. */
function levelOf(policy: LoggingPolicy, env: NodeJS.ProcessEnv): LogLevel {
  const asked = env.COTA_LOG_LEVEL;
  if (asked) {
    if (!['debug', 'info', 'warn', 'error'].includes(asked)) throw new Error(`COTA_LOG_LEVEL must be debug, info, warn or error (got '${asked}')`);
    return asked as LogLevel;
  }
  return env.JEST_WORKER_ID ? 'warn' : policy.level;
}

/** pino's options for a policy: level names (not numbers), ISO time, redaction of keys and e-mails, the call scope's ids. */
export function loggerOptions(policy: LoggingPolicy, env: NodeJS.ProcessEnv = process.env): LoggerOptions {
  const emails = policy.redact.emails;
  return {
    level: levelOf(policy, env),
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (entry) => (emails ? (maskEmails(entry) as Record<string, unknown>) : entry),
    },
    redact: { paths: policy.redact.keys.flatMap((k) => [k, `*.${k}`]), censor: policy.redact.censor },
    hooks: {
      logMethod(args, method) {
        // The message (and its interpolation values) are masked here; the fields by `formatters.log`.
        const masked = emails ? args.map((a) => (typeof a === 'string' ? (maskEmails(a) as string) : a)) : args;
        return method.apply(this, masked as Parameters<typeof method>);
      },
    },
    // The active OpenTelemetry span's ids when tracing is on, else the call scope's traceparent.
    mixin: () => ({ ...scopeFields(), ...traceLogFields() }),
  };
}

/** A logger of its own (tests capture its lines through `destination`); services use `createLogger`. */
export function buildLogger(policy: LoggingPolicy, destination: DestinationStream, env: NodeJS.ProcessEnv = process.env): Logger {
  return pino(loggerOptions(policy, env), destination);
}

let root: Logger | undefined;

/** The process's logger, built once from policies/logging.yaml (a bad file stops the start naming the field); lines go to stderr. */
export function rootLogger(): Logger {
  root ??= buildLogger(loadPolicy('logging', LoggingPolicy), pino.destination({ dest: 2, sync: true }));
  return root;
}

/** A child logger whose lines carry `scope` (the service or component). */
export function createLogger(scope: string): Logger {
  return rootLogger().child({ scope });
}

/** A logger that writes nothing (callers that must stay quiet: evaluations, benchmarks). */
export function silentLogger(): Logger {
  return rootLogger().child({}, { level: 'silent' });
}
