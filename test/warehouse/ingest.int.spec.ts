import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { mkdtempSync, cpSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir } from '@cota/config';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { IngestError, IngestSummary, runIngest, warehouseMigrations } from '@cota/warehouse';

jest.setTimeout(600000);

/** Ingest of the real data folder into a fresh database: loads everything, is idempotent and transactional. */
describe('warehouse ingest (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let first: IngestSummary;

  beforeAll(async () => {
    db = await createTestDatabase('ingest');
    ds = await openDatabase({ url: db.url, statementTimeoutMs: 120000 });
    await runMigrations(ds, warehouseMigrations);
    first = await runIngest(ds, { dataDir: dataDir() });
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('loads every folder and fills every table', () => {
    const folders = new Set(first.files.map((f) => f.file.split('/')[0]));
    expect([...folders].sort()).toEqual(['araquem', 'cvm', 'dashbord', 'market16', 'opbrreit', 'paulo037']);
    for (const t of first.tables) expect({ table: t.table, empty: t.rows === 0 }).toEqual({ table: t.table, empty: false });
    expect(first.changes).toBeGreaterThan(100000);
  });

  it('reads the CVM zips as published (latin-1) and derives tickers from the ISIN', async () => {
    const [row] = await ds.query(`SELECT fund_name, ticker FROM wh_cvm_monthly WHERE fii_cnpj = '00.332.266/0001-31' AND ref_date = '2023-01-01'`);
    expect(row).toEqual({ fund_name: 'FUNDO DE INVESTIMENTO IMOBILIÁRIO VIA PARQUE SHOPPING', ticker: 'FVPQ11' });
    const [{ n }] = await ds.query(`SELECT count(DISTINCT fii_cnpj)::int AS n FROM wh_cvm_monthly`);
    expect(n).toBe(1081);
  });

  it('reports the IFIX disagreement between araquem and opbrreit (one-session shift in 2025)', () => {
    const d = first.disagreements.find((x) => x.series === 'IFIX' && x.sources[0] === 'araquem');
    expect(d).toBeDefined();
    expect(d!.overlap).toBeGreaterThan(500);
    expect(d!.differing).toBeGreaterThan(0);
    expect(d!.shifted_one_session).toBeGreaterThan(0);
  });

  it('keeps the opbrreit IFIX where sources overlap and records the source', async () => {
    const [row] = await ds.query(`SELECT points::float AS points, source FROM wh_index_history WHERE index_name = 'IFIX' AND index_date = '2025-03-13'`);
    expect(row).toEqual({ points: 3188.41, source: 'opbrreit' });
  });

  it('takes the winning IFIX source whole: no araquem row between two B3 sessions', async () => {
    // araquem has rows on days without a session (2023-12-29) inside opbrreit's range.
    const rows = await ds.query(
      `SELECT index_date::text AS d, source FROM wh_index_history WHERE index_name = 'IFIX' AND index_date BETWEEN '2010-12-30' AND '2025-12-19' AND source <> 'opbrreit'`,
    );
    expect(rows).toEqual([]);
  });

  it('detects the ALZR11 split of May 2025 with its evidence, and computes its yield on one scale', async () => {
    const [event] = await ds.query(`SELECT event_date::text AS event_date, factor::float AS factor, kind, evidence FROM wh_corporate_actions WHERE ticker = 'ALZR11'`);
    expect(event).toMatchObject({ event_date: '2025-05-16', factor: 10, kind: 'split' });
    expect(event.evidence).toMatch(/dividendo R\$ 0,8200 .* → R\$ 0,0800 .*; preço/);
    expect(first.notes.some((n) => n.startsWith('corporate action: ALZR11 split'))).toBe(true);
    // Before: 79,5% (old dividends over the new price). After: within the fund's plausible range.
    const [dy] = await ds.query(`SELECT dy_12m_pct::float AS dy FROM wh_dividends_yields WHERE ticker = 'ALZR11' ORDER BY ref_month DESC LIMIT 1`);
    expect(dy.dy).toBeGreaterThan(6);
    expect(dy.dy).toBeLessThan(13);
  });

  it("reads araquem's DY file by month: its repeated current 12-month figures are no month's value", async () => {
    // araquem repeats AFHI11's current 12,65% / R$ 11,98 on every month's row, back to 2021.
    const rows: Array<{ m: string; dy: number; sum: number; price: number }> = await ds.query(
      `SELECT ref_month::text AS m, dy_12m_pct::float AS dy, dividends_12m_amt::float AS sum, month_price_ref::float AS price
         FROM wh_dividends_yields WHERE ticker = 'AFHI11' ORDER BY ref_month`,
    );
    expect(rows.length).toBeGreaterThan(24);
    expect(rows.filter((r) => r.dy === 12.65).length).toBeLessThan(3);
    // One definition: the 12 months' dividends over the month's close (two decimals), every month; the
    // fund's DY (the snapshot's, shown everywhere) is the same 12 months as the series' newest row over the
    // fund's one current price: araquem's reference price of 22/11/2025, P/VP 1,0080 × VP por cota 94,125 = R$ 94,88.
    for (const r of rows) expect(Math.abs(r.dy - (r.sum / r.price) * 100)).toBeLessThanOrEqual(0.005 + 1e-9);
    const [snap] = await ds.query(
      `SELECT dy_pct::float AS dy, sum_anual_dy_amt::float AS sum, dy_price::float AS price, dy_price_date::text AS d, dy_price_kind AS kind, dy_source FROM wh_snapshots WHERE ticker = 'AFHI11'`,
    );
    expect(snap).toMatchObject({ dy_source: 'derived,araquem', price: 94.88, d: '2025-11-22', kind: 'reference', sum: rows[rows.length - 1].sum });
    expect(snap.dy).toBe(Math.round((snap.sum / 94.88) * 10000) / 100);
  });

  it("keeps a fund's CVM months whose report has a broken or empty ISIN (XPLG11, 2023-11 and 2023-12)", async () => {
    const rows: Array<{ d: string; n: number }> = await ds.query(
      `SELECT ref_date::text AS d, shareholders_count::int AS n FROM wh_cvm_monthly WHERE ticker = 'XPLG11' AND ref_date >= '2023-10-01' ORDER BY 1`,
    );
    expect(rows).toEqual([
      { d: '2023-10-01', n: 312206 },
      { d: '2023-11-01', n: 314755 },
      { d: '2023-12-01', n: 320579 },
    ]);
  });

  it("loads market16's quarterly fundamentals (cash revenue, cash profit, delinquency in percent)", async () => {
    const [r] = await ds.query(
      `SELECT cash_revenue_amt::float AS rev, cash_profit_amt::float AS profit, delinquency_pct::float AS del FROM wh_quarterly_fundamentals WHERE ticker = 'XPML11' AND ref_date = '2024-06-30'`,
    );
    expect(r).toEqual({ rev: 147576720.29, profit: 120694100.01, del: 1.385 });
  });

  it('dates each source by its newest dated fact, for the answers that have no date of their own', async () => {
    const rows: Array<{ source: string; d: string }> = await ds.query(`SELECT source, as_of_date::text AS d FROM wh_source_dates ORDER BY source`);
    expect(Object.fromEntries(rows.map((r) => [r.source, r.d]))).toMatchObject({ araquem: '2025-11-22', cvm: '2023-12-01', dashbord: '2025-06-25' });
  });

  it('reports what the plausibility checks flagged, per rule, and drops series glitches', async () => {
    const rules = first.notes.filter((n) => n.startsWith('plausibility ')).map((n) => n.split(':')[0].replace('plausibility ', ''));
    expect(rules).toEqual(['dy_above_ceiling', 'pvp_out_of_range', 'series_spike']);
    const [flag] = await ds.query(`SELECT rule, value::float AS value FROM wh_quality_flags WHERE row_key = 'USD|2024-12-31'`);
    expect(flag).toEqual({ rule: 'series_spike', value: 0.16 });
    const [usd] = await ds.query(`SELECT count(*)::int AS n FROM wh_currency_rates WHERE currency = 'USD' AND rate_date = '2024-12-31'`);
    expect(usd.n).toBe(0);
  });

  it('maps segments to the most specific label (BTLG11 is Logística, not Híbrido)', async () => {
    const [row] = await ds.query(`SELECT sector FROM wh_funds WHERE ticker = 'BTLG11'`);
    expect(row.sector).toBe('Logística');
  });

  it('a second run over the same files changes nothing', async () => {
    const second = await runIngest(ds, { dataDir: dataDir() });
    expect(second.changes).toBe(0);
    expect(second.tables.map((t) => t.rows)).toEqual(first.tables.map((t) => t.rows));
  });

  it('a bad file rolls everything back and names the file and line', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'cota-bad-data-'));
    try {
      cpSync(dataDir(), copy, { recursive: true });
      const file = join(copy, 'dashbord', 'dividendos.csv');
      rmSync(file, { force: true });
      writeFileSync(file, 'ticker,data_com,valor_por_cota\nHGLG11,2025-01-31,1.10\nKNRI11,2025-01-31,um real\n');
      const before = await ds.query(`SELECT count(*)::int AS n FROM wh_dividends`);
      const err = await runIngest(ds, { dataDir: copy }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(IngestError);
      expect(err!.message).toMatch(/^dashbord\/dividendos\.csv:3: column 'valor_por_cota': 'um real' is not a number/);
      const after = await ds.query(`SELECT count(*)::int AS n FROM wh_dividends`);
      expect(after).toEqual(before);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
