import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { QueryParams } from '@cota/contracts';
import { dataDir } from '@cota/config';
import { openDatabase } from '@cota/service-kit';
import { startPgliteProcess } from './pglite-process';
import { ensureWarehouse, EntityQueryService, IngestSummary, loadEntityCatalog, PgSqlRunner, runIngest } from '@cota/warehouse';

jest.setTimeout(900000);

const P = (over: Partial<QueryParams> = {}): QueryParams => ({
  ticker: null,
  tickers: [],
  agg: 'list',
  window: null,
  limit: null,
  order: null,
  order_by: null,
  filters: {},
  ...over,
});

/** The same migrations, ingest and SQL on the embedded Postgres (PGlite 0.5 served over a socket). */
describe('warehouse on embedded PGlite', () => {
  let pg: { url: string; stop(): Promise<void> };
  let ds: DataSource;
  let first: IngestSummary | null;
  const log = { info: () => undefined, warn: () => undefined };

  beforeAll(async () => {
    pg = await startPgliteProcess();
    ds = await openDatabase({ url: pg.url, poolSize: 2, statementTimeoutMs: 600000 });
    first = await ensureWarehouse(ds, { dataDir: dataDir(), log });
  });

  afterAll(async () => {
    await ds?.destroy();
    await pg?.stop();
  });

  it('ensureWarehouse ingests an empty warehouse once', async () => {
    expect(first).not.toBeNull();
    expect(first!.changes).toBeGreaterThan(100000);
    expect(await ensureWarehouse(ds, { dataDir: dataDir(), log })).toBeNull();
  });

  it('answers entity queries with the same SQL as production', async () => {
    const svc = new EntityQueryService(loadEntityCatalog(), new PgSqlRunner(ds), { statementTimeoutMs: 10000 });
    const cad = await svc.query({ client_id: 'x', entity: 'fiis_cadastro', params: P({ ticker: 'HGLG11' }) });
    expect(cad.rows[0].fii_cnpj).toBe('11.728.688/0001-47');
    const top = await svc.query({ client_id: 'x', entity: 'fiis_rankings', params: P({ order_by: 'rank_dy_12m', order: 'asc', limit: 5 }) });
    expect(top.rows.map((r) => r.rank_dy_12m)).toEqual([1, 2, 3, 4, 5]);
    const sel = await svc.query({ client_id: 'x', entity: 'history_market_indicators', params: P({ filters: { indicator: 'SELIC', date: '2025-11-14' } }) });
    expect(sel.rows[0]).toMatchObject({ indicator_amt: 14.9 });
    const pos = await svc.query({ client_id: 'cliente-demo-2', entity: 'client_fiis_positions', params: P() });
    expect(pos.rows.map((r) => r.ticker).sort()).toEqual(['HGCR11', 'KNHY11', 'KNIP11']);
    const sum = await svc.query({ client_id: 'cliente-demo-1', entity: 'client_fiis_dividends_evolution', params: P({ agg: 'sum', window: 'year:2023' }) });
    expect(sum.rows[0].dividends_amt).toBeGreaterThan(0);
  });

  it('a second ingest changes nothing', async () => {
    const again = await runIngest(ds, { dataDir: dataDir() });
    expect(again.changes).toBe(0);
  });
});
