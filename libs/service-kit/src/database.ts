import { DataSource, MigrationInterface, QueryRunner, Logger as TypeOrmLogger } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
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

/**
 * A schema change owned by one library. `id` (YYYYMMDDHHmm-what-it-does) names it and orders it;
 * TypeORM's migration runner applies it (see `runMigrations`).
 */
export interface Migration extends Omit<MigrationInterface, 'name'> {
  readonly id: string;
}

/** TypeORM's record of the migrations it ran, shared by every service on the database. */
export const MIGRATIONS_TABLE = 'cota_schema_migrations';
/** Where the runner this project had before TypeORM's recorded ids: read to carry them over, never written. */
const LEGACY_MIGRATIONS_TABLE = 'cota_migrations';
const LOCK_KEY = 0x636f7461; // "cota": one advisory lock serialises replicas migrating at once (TypeORM takes none)

const MIGRATION_ID = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/**
 * The name TypeORM records for a migration, in its own convention (a class name ending in a
 * JavaScript timestamp): the id's words in PascalCase and the id's minute (UTC) in milliseconds,
 * e.g. `202611220100-warehouse-tables` is `WarehouseTables1795309200000`.
 */
export function typeormMigrationName(id: string): string {
  const m = MIGRATION_ID.exec(id);
  if (!m) throw new Error(`migration id "${id}" must be YYYYMMDDHHmm-words-in-kebab-case`);
  const [, y, mo, d, h, mi, words] = m;
  const at = Date.UTC(+y, +mo - 1, +d, +h, +mi);
  const pascal = words
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
  return `${pascal}${at}`;
}

/**
 * One of our migrations as the class TypeORM's runner instantiates. A migration the earlier runner
 * already applied (`carried`) is recorded by TypeORM without running again.
 */
function typeormMigration(m: Migration, carried: boolean): new () => MigrationInterface {
  const name = typeormMigrationName(m.id);
  return class implements MigrationInterface {
    readonly name = name;
    readonly transaction = m.transaction;
    async up(q: QueryRunner): Promise<void> {
      if (carried) return;
      try {
        await m.up(q);
      } catch (e) {
        throw new Error(`migration ${m.id} failed: ${(e as Error).message}`);
      }
    }
    async down(q: QueryRunner): Promise<void> {
      await m.down(q);
    }
  };
}

/** TypeORM writes its migration lines to the console whatever `logging` says: here they go through pino (our own lines say what was applied). */
const typeormMigrationLog: TypeOrmLogger = {
  logQuery: () => undefined,
  logQueryError: () => undefined,
  logQuerySlow: () => undefined,
  logSchemaBuild: () => undefined,
  logMigration: (message) => log.debug({ source: 'typeorm' }, message),
  log: () => undefined,
};

/** Migration runs of one process, per database: serialised here too, because on one shared connection (embedded) the advisory lock is re-entrant. */
const running = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Applies the given migrations with TypeORM's runner, each in its own transaction, in id order,
 * under an advisory lock so that replicas starting together do not race. Services pass only the
 * migrations they own; TypeORM's table records what ran, whoever ran it. Returns the ids applied now.
 */
export async function runMigrations(ds: DataSource, migrations: Migration[]): Promise<string[]> {
  const before = running.get(ds) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => applyMigrations(ds, migrations));
  running.set(ds, run);
  return run;
}

async function applyMigrations(ds: DataSource, migrations: Migration[]): Promise<string[]> {
  // TypeORM orders by the name's timestamp; a stable sort keeps id order within one minute.
  const ordered = [...migrations].sort((a, b) => a.id.localeCompare(b.id));
  const idOf = new Map(ordered.map((m) => [typeormMigrationName(m.id), m.id]));
  const lock: QueryRunner = ds.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    const carried = await legacyApplied(lock);
    // TypeORM reads its migrations from a DataSource's options: a short-lived one over the same database.
    const migrator = new DataSource({
      ...(ds.options as PostgresConnectionOptions),
      extra: { ...(ds.options as PostgresConnectionOptions).extra, max: 1 },
      migrations: ordered.map((m) => typeormMigration(m, carried.has(m.id))),
      migrationsTableName: MIGRATIONS_TABLE,
      migrationsRun: false,
      logger: typeormMigrationLog,
    });
    await migrator.initialize();
    try {
      const ran = await migrator.runMigrations({ transaction: 'each' });
      const ids = ran.map((r) => idOf.get(r.name)!);
      const moved = ids.filter((id) => carried.has(id));
      if (moved.length) log.info({ ids: moved }, `migrations carried over from ${LEGACY_MIGRATIONS_TABLE}`);
      const applied = ids.filter((id) => !carried.has(id));
      for (const id of applied) log.info({ id }, 'migration applied');
      return applied;
    } finally {
      await migrator.destroy();
    }
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}

/** The ids the earlier runner recorded, when this database had it. */
async function legacyApplied(q: QueryRunner): Promise<Set<string>> {
  const [{ present }] = (await q.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [LEGACY_MIGRATIONS_TABLE])) as Array<{ present: boolean }>;
  if (!present) return new Set();
  const rows = (await q.query(`SELECT id FROM ${LEGACY_MIGRATIONS_TABLE}`)) as Array<{ id: string }>;
  return new Set(rows.map((r) => r.id));
}

/** Round-trip check for readiness. */
export async function pingDatabase(ds: DataSource): Promise<number> {
  const t = performance.now();
  await ds.query('SELECT 1');
  return performance.now() - t;
}
