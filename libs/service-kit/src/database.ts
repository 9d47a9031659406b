import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createLogger } from './logger';

const log = createLogger('database');

export interface DatabaseOptions {
  url: string;
  /** Pool size per process. */
  poolSize?: number;
  /** Server-side statement timeout (ms) for every query of this pool. */
  statementTimeoutMs?: number;
  applicationName?: string;
}

/** A TypeORM DataSource over `pg`; the same code path serves real Postgres and embedded PGlite. */
export async function openDatabase(opts: DatabaseOptions): Promise<DataSource> {
  const ds = new DataSource({
    type: 'postgres',
    url: opts.url,
    synchronize: false,
    logging: false,
    entities: [],
    applicationName: opts.applicationName ?? 'cota',
    extra: {
      max: opts.poolSize ?? 5,
      connectionTimeoutMillis: 5000,
      statement_timeout: opts.statementTimeoutMs ?? 15000,
    },
  });
  await ds.initialize();
  return ds;
}

/** A schema change owned by one library; `id` orders them (YYYYMMDDHHmm-name). */
export interface Migration extends MigrationInterface {
  readonly id: string;
}

const LOCK_KEY = 0x636f7461; // "cota": one advisory lock serialises replicas migrating at once

/**
 * Applies the given migrations once each, in id order, each in its own transaction, under an
 * advisory lock so that replicas starting together do not race. Services pass only the
 * migrations they own; the shared `cota_migrations` table records what ran.
 */
/** Migration runs of one process, per database: serialised here too, because on one shared connection (embedded) the advisory lock is re-entrant. */
const running = new WeakMap<DataSource, Promise<unknown>>();

export async function runMigrations(ds: DataSource, migrations: Migration[]): Promise<string[]> {
  const before = running.get(ds) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => applyMigrations(ds, migrations));
  running.set(ds, run);
  return run;
}

async function applyMigrations(ds: DataSource, migrations: Migration[]): Promise<string[]> {
  const runner: QueryRunner = ds.createQueryRunner();
  const applied: string[] = [];
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await runner.query('CREATE TABLE IF NOT EXISTS cota_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set<string>((await runner.query('SELECT id FROM cota_migrations')).map((r: { id: string }) => r.id));
    for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      if (done.has(m.id)) continue;
      await runner.startTransaction();
      try {
        await m.up(runner);
        await runner.query('INSERT INTO cota_migrations (id) VALUES ($1)', [m.id]);
        await runner.commitTransaction();
        applied.push(m.id);
        log.info({ id: m.id }, 'migration applied');
      } catch (e) {
        await runner.rollbackTransaction();
        throw new Error(`migration ${m.id} failed: ${(e as Error).message}`);
      }
    }
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
  return applied;
}

/** Round-trip check for readiness. */
export async function pingDatabase(ds: DataSource): Promise<number> {
  const t = performance.now();
  await ds.query('SELECT 1');
  return performance.now() - t;
}
