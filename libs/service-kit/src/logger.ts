import { traceLogFields } from '@cota/messaging';

/**
 * Minimal structured logger: one JSON line per entry on stderr, quiet in tests unless asked.
 * Every line carries the running trace's `trace_id` and `span_id` (traceLogFields, @cota/messaging).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export class Logger {
  private static threshold: number = order[(process.env.COTA_LOG_LEVEL as LogLevel) ?? (process.env.JEST_WORKER_ID ? 'warn' : 'info')] ?? 20;

  constructor(readonly scope: string) {}

  static setLevel(level: LogLevel): void {
    Logger.threshold = order[level];
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.write('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.write('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.write('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.write('error', msg, fields);
  }

  private write(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (order[level] < Logger.threshold) return;
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level, scope: this.scope, msg, ...traceLogFields(), ...fields }) + '\n');
  }
}
