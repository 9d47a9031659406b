import type { DataSource, QueryRunner } from 'typeorm';
import { Migration, MIGRATIONS_TABLE, openDatabase, runMigrations, typeormMigrationName } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { startPgliteProcess } from '../warehouse/pglite-process';

/**
 * TypeORM's migration runner as the services use it, on the real Postgres: replicas (two pools here)
 * migrating at once, a failing migration, and a database the earlier runner (table cota_migrations)
 * had already migrated.
 */

/** A migration that cannot run twice: CREATE TABLE without IF NOT EXISTS, and a row counted by the tests. */
function createTable(id: string, table: string, opts: { holdMs?: number } = {}): Migration {
  return {
    id,
    async up(q: QueryRunner) {
      await q.query(`CREATE TABLE ${table} (n integer NOT NULL)`);
      await q.query(`INSERT INTO ${table} VALUES (1)`);
      // Keeps the migration open long enough for the other replica to arrive while it runs.
      if (opts.holdMs) await q.query('SELECT pg_sleep($1)', [opts.holdMs / 1000]);
    },
    async down(q: QueryRunner) {
      await q.query(`DROP TABLE ${table}`);
    },
  };
}

async function recordedNames(ds: DataSource): Promise<string[]> {
  return ((await ds.query(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`)) as Array<{ name: string }>).map((r) => r.name);
}

async function tableExists(ds: DataSource, table: string): Promise<boolean> {
  const [{ present }] = await ds.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [table]);
  return present;
}

/** What the earlier runner did for each migration: its `up` and its id in cota_migrations, in one transaction. */
async function migrateTheEarlierWay(ds: DataSource, migrations: Migration[]): Promise<void> {
  await ds.query('CREATE TABLE IF NOT EXISTS cota_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
    await ds.transaction(async (em) => {
      await m.up(em.queryRunner!);
      await em.query('INSERT INTO cota_migrations (id) VALUES ($1)', [m.id]);
    });
  }
}

describe('schema migrations on the real Postgres (TypeORM runner)', () => {
  let db: TestDatabase;
  let replicaA: DataSource;
  let replicaB: DataSource;

  beforeEach(async () => {
    db = await createTestDatabase('migrations');
    replicaA = await openDatabase({ url: db.url });
    replicaB = await openDatabase({ url: db.url });
  }, 60_000);

  afterEach(async () => {
    await replicaA?.destroy();
    await replicaB?.destroy();
    await db?.drop();
  });

  it('names each migration the TypeORM way, from its id', () => {
    expect(typeormMigrationName('202611220100-warehouse-tables')).toBe('WarehouseTables1795309200000');
    expect(() => typeormMigrationName('2026-warehouse')).toThrow(/YYYYMMDDHHmm/);
  });

  it('applies each migration once when two replicas start at once', async () => {
    const migrations = [createTable('202701010100-first-table', 'first_t', { holdMs: 300 }), createTable('202701010101-second-table', 'second_t')];
    const [a, b] = await Promise.all([runMigrations(replicaA, migrations), runMigrations(replicaB, migrations)]);
    // One replica applied both; the other waited on the lock and found nothing left.
    expect([a, b].sort((x, y) => y.length - x.length)).toEqual([['202701010100-first-table', '202701010101-second-table'], []]);
    expect(await replicaA.query('SELECT count(*)::int AS n FROM first_t')).toEqual([{ n: 1 }]);
    expect(await recordedNames(replicaA)).toEqual(migrations.map((m) => typeormMigrationName(m.id)));
  });

  it('rolls a failing migration back, keeps the ones before it, and applies it once fixed', async () => {
    const failing: Migration = {
      id: '202701010101-half-done',
      async up(q: QueryRunner) {
        await q.query('CREATE TABLE half_done (n integer)');
        await q.query('SELECT 1 / 0');
      },
      async down() {},
    };
    const good = createTable('202701010100-good-table', 'good_t');
    await expect(runMigrations(replicaA, [good, failing])).rejects.toThrow('migration 202701010101-half-done failed: division by zero');
    expect(await tableExists(replicaA, 'good_t')).toBe(true);
    expect(await tableExists(replicaA, 'half_done')).toBe(false);
    expect(await recordedNames(replicaA)).toEqual([typeormMigrationName(good.id)]);
    // The lock was released: another replica runs the fixed migration.
    expect(await runMigrations(replicaB, [good, createTable('202701010101-half-done', 'half_done')])).toEqual(['202701010101-half-done']);
  });

  it('carries over what the earlier runner applied, so nothing runs twice, then applies only what is new', async () => {
    const old = createTable('202701010100-old-table', 'old_t');
    await migrateTheEarlierWay(replicaA, [old]);
    const added = createTable('202701020100-new-table', 'new_t');
    expect(await runMigrations(replicaA, [old, added])).toEqual([added.id]);
    expect(await replicaA.query('SELECT count(*)::int AS n FROM old_t')).toEqual([{ n: 1 }]);
    expect(await recordedNames(replicaA)).toEqual([typeormMigrationName(old.id), typeormMigrationName(added.id)]);
    expect(await runMigrations(replicaB, [old, added])).toEqual([]);
  });

  it('upgrades a warehouse the earlier runner migrated without running any of its migrations again', async () => {
    await migrateTheEarlierWay(replicaA, warehouseMigrations);
    await replicaA.query(`INSERT INTO wh_client_ledger (client_id, entry_id, seq, kind, event_date, ticker, quantity, price, amount, fees, is_demo, source)
      VALUES ('cliente-x', 'e1', 1, 'buy', '2024-01-02', 'HGLG11', 10, 160, 1600, 0, false, 'chat')`);
    expect(await runMigrations(replicaB, warehouseMigrations)).toEqual([]);
    // Recorded in id order, which is TypeORM's order (the id's minute, then the id).
    const byId = [...warehouseMigrations].sort((a, b) => a.id.localeCompare(b.id));
    expect(await recordedNames(replicaA)).toEqual(byId.map((m) => typeormMigrationName(m.id)));
    expect(await replicaA.query(`SELECT count(*)::int AS n FROM wh_client_ledger`)).toEqual([{ n: 1 }]);
  });
});

describe('schema migrations on the embedded Postgres (PGlite)', () => {
  let pg: { url: string; stop(): Promise<void> };
  let ds: DataSource;

  beforeAll(async () => {
    pg = await startPgliteProcess();
    ds = await openDatabase({ url: pg.url, poolSize: 2 });
  }, 120_000);

  afterAll(async () => {
    await ds?.destroy();
    await pg?.stop();
  });

  it('applies the migrations of services sharing the one database, each once', async () => {
    const a = [createTable('202701010100-service-a', 'svc_a', { holdMs: 100 })];
    const b = [createTable('202701010100-service-b', 'svc_b')];
    const [ranA, ranB, again] = await Promise.all([runMigrations(ds, a), runMigrations(ds, b), runMigrations(ds, [...a, ...b])]);
    expect([ranA, ranB, again]).toEqual([['202701010100-service-a'], ['202701010100-service-b'], []]);
    expect(await recordedNames(ds)).toEqual([typeormMigrationName(a[0].id), typeormMigrationName(b[0].id)]);
  });
});
