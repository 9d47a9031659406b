import { DataSource } from 'typeorm';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { createTestDatabase, TestDatabase } from '@cota/test-support';

/**
 * A warehouse migrated before the ledger existed: its trades table (wh_client_transactions) holds a
 * client's trades. The ledger migration moves them into wh_client_ledger, turns the table into a view
 * of the ledger, and derives the positions and sales, with the same figures.
 */
const LEDGER_FROM = '202611270101';

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('ledger-migration');
  ds = await openDatabase({ url: db.url });
  await runMigrations(
    ds,
    warehouseMigrations.filter((m) => m.id < LEDGER_FROM),
  );
  // The schema of that time: the trades table in place of the view over the ledger.
  await ds.query(`DROP VIEW wh_client_transactions CASCADE`);
  await ds.query(`CREATE TABLE wh_client_transactions (client_id text NOT NULL, seq integer NOT NULL, trade_date date NOT NULL, ticker text NOT NULL,
    side text NOT NULL CHECK (side IN ('buy','sell')), quantity integer NOT NULL CHECK (quantity > 0), price numeric NOT NULL, price_source text NOT NULL,
    is_demo boolean NOT NULL, source text NOT NULL, PRIMARY KEY (client_id, seq))`);
  await ds.query(`INSERT INTO wh_client_transactions VALUES
    ('cliente-antigo', 1, '2022-01-31', 'HGLG11', 'buy', 100, 160.10, 'paulo037', true, 'demo'),
    ('cliente-antigo', 2, '2022-06-30', 'HGLG11', 'buy', 20, 155.00, 'paulo037', true, 'demo'),
    ('cliente-antigo', 3, '2022-09-30', 'HGLG11', 'sell', 40, 170.00, 'paulo037', true, 'demo')`);
}, 120_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

it('moves the trades into the ledger and derives the same positions and sales', async () => {
  const applied = await runMigrations(ds, warehouseMigrations);
  expect(applied).toContain('202611270105-warehouse-ledger-replaces-transactions');
  const [{ kind }] = await ds.query(`SELECT relkind::text AS kind FROM pg_class WHERE oid = to_regclass('wh_client_transactions')`);
  expect(kind).toBe('v');
  const ledger = await ds.query(`SELECT entry_id, kind, event_date::text AS d, quantity::int AS q, amount::float AS a, is_demo FROM wh_client_ledger ORDER BY seq`);
  expect(ledger).toEqual([
    { entry_id: 'legacy_1', kind: 'buy', d: '2022-01-31', q: 100, a: 16010, is_demo: true },
    { entry_id: 'legacy_2', kind: 'buy', d: '2022-06-30', q: 20, a: 3100, is_demo: true },
    { entry_id: 'legacy_3', kind: 'sell', d: '2022-09-30', q: 40, a: 6800, is_demo: true },
  ]);
  // (100 × 160,10 + 20 × 155,00) / 120 = 159,25; the sale of 40 takes 6 370,00 (result 430,00): 80 at 12 740,00.
  const [pos] = await ds.query(`SELECT quantity, avg_price::float AS avg, invested_amt::float AS cost FROM client_fiis_positions WHERE client_id = 'cliente-antigo'`);
  expect(pos).toEqual({ quantity: 80, avg: 159.25, cost: 12740 });
  const sales = await ds.query(`SELECT result_amt::float AS r FROM client_realized_gains WHERE client_id = 'cliente-antigo'`);
  expect(sales).toEqual([{ r: 430 }]);
  // Running the migrations again changes nothing.
  expect(await runMigrations(ds, warehouseMigrations)).toEqual([]);
});
