import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { buildFeeds, feedsMigrations, FeedRunner, FeedsPolicy, loadFeedsPolicy, storeChangeEvents, withUrlOverrides, type FeedName } from '@cota/feeds';
import { DistributionAnnounced, WarehouseEvents } from '@cota/contracts';
import { createTestDatabase, RecordedSources, TestDatabase } from '@cota/test-support';

jest.setTimeout(180000);

/** The four connectors against recorded files in each source's real format, on the real Postgres. */
describe('live feeds', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let sources: RecordedSources;
  let policy: FeedsPolicy;
  let today = '2025-12-19';

  const runner = (over: Partial<FeedsPolicy['sources']> = {}, instance = 'test') => {
    const p: FeedsPolicy = { ...policy, sources: { ...policy.sources, ...over } };
    return new FeedRunner(ds, buildFeeds(p), {
      retry: { attempts: 3, initialDelayMs: 5, maxDelayMs: 20 },
      instance,
      leaseMs: 60000,
      today: () => today,
      onChanges: storeChangeEvents,
    });
  };
  const count = async (sql: string, params: unknown[] = []) => Number((await ds.query(sql, params))[0].n);
  const state = async (source: FeedName) => (await ds.query('SELECT watermark, data_until::text AS data_until, last_error FROM feed_state WHERE source = $1', [source]))[0];

  beforeAll(async () => {
    db = await createTestDatabase('feeds');
    ds = await openDatabase({ url: db.url, applicationName: 'feeds-test' });
    await runMigrations(ds, [...warehouseMigrations, ...feedsMigrations]);
    sources = new RecordedSources();
    const base = await sources.start();
    policy = withUrlOverrides(loadFeedsPolicy(), {
      COTA_FEED_URL_BCB_SGS: `${base}/sgs`,
      COTA_FEED_URL_B3_COTAHIST: `${base}/b3`,
      COTA_FEED_URL_CVM_DADOS: `${base}/cvm`,
      COTA_FEED_URL_FNET: `${base}/fnet`,
    });
  });

  afterAll(async () => {
    await sources?.stop();
    await ds?.destroy();
    await db?.drop();
  });

  describe('Banco Central SGS', () => {
    const sgs = (start: string) => ({ 'bcb-sgs': { ...policy.sources['bcb-sgs'], start } });

    it('reads each series from its watermark; a re-run adds nothing', async () => {
      today = '2025-11-14';
      const first = await runner(sgs('2025-11-01')).runNow('bcb-sgs');
      expect(first).toMatchObject({ outcome: 'ok', error: null });
      // SELIC 11 (opbrreit, % a.d. annualised like the batch ingest), dollar buy and sell joined by date.
      const selic = await ds.query(
        `SELECT indicator_date::text AS d, indicator_amt::float8 AS v FROM wh_market_indicators WHERE indicator_name = 'SELIC' AND source = 'bcb-sgs' ORDER BY 1`,
      );
      expect(selic[0]).toEqual({ d: '2025-11-03', v: 14.9 });
      expect(selic[selic.length - 1].d).toBe('2025-11-14');
      const usd = await ds.query(
        `SELECT buy_amt::float8 AS buy, sell_amt::float8 AS sell FROM wh_currency_rates WHERE currency = 'USD' AND rate_date = '2025-11-14' AND source = 'bcb-sgs'`,
      );
      expect(usd).toEqual([{ buy: 5.3, sell: 5.3 }]);
      expect((await state('bcb-sgs')).watermark['11']).toBe('2025-11-14');

      const events = await count(`SELECT count(*) AS n FROM feed_events WHERE subject = 'cota.events.warehouse.indicator-published.v1'`);
      expect(events).toBe(first.rowsAdded);
      const again = await runner(sgs('2025-11-01')).runNow('bcb-sgs');
      expect(again).toMatchObject({ outcome: 'ok', rowsAdded: 0, rowsUpdated: 0 });
      expect(await count(`SELECT count(*) AS n FROM feed_events`)).toBe(events);

      today = '2025-11-19';
      const next = await runner(sgs('2025-11-01')).runNow('bcb-sgs');
      expect(next.rowsAdded).toBeGreaterThan(0);
      expect((next.changes.wh_market_indicators?.inserted ?? []).every((r) => String(r.indicator_date) > '2025-11-14')).toBe(true);
    });

    it('a malformed answer fails the run with a message naming the address, writing nothing', async () => {
      today = '2025-11-21';
      const before = await count(`SELECT count(*) AS n FROM wh_market_indicators`);
      sources.override('/sgs/bcdata.sgs.11/dados', '[{"data":"20/11/2025","valor":"não sei"}]');
      const r = await runner(sgs('2025-11-01')).runNow('bcb-sgs');
      sources.override('/sgs/bcdata.sgs.11/dados', null);
      expect(r.outcome).toBe('failed');
      expect(r.error).toMatch(/bcdata\.sgs\.11.*valor 'não sei' is not a number/);
      expect(r.attempts).toBe(1); // a bad file is not retried
      expect(await count(`SELECT count(*) AS n FROM wh_market_indicators`)).toBe(before);
      expect((await state('bcb-sgs')).last_error).toMatch(/not a number/);
      expect((await runner(sgs('2025-11-01')).runNow('bcb-sgs')).outcome).toBe('ok');
      expect((await state('bcb-sgs')).last_error).toBeNull();
    });
  });

  describe('B3 COTAHIST', () => {
    const b3 = (over: object = {}) => ({ 'b3-cotahist': { ...policy.sources['b3-cotahist'], start: '2025-06-09', ...over } });

    it('loads the FII closes of each daily file up to today, then only new sessions', async () => {
      today = '2025-06-11';
      const r = await runner(b3()).runNow('b3-cotahist');
      expect(r).toMatchObject({ error: null, outcome: 'ok' });
      const days = await ds.query(`SELECT traded_at::text AS d, count(*)::int AS n FROM wh_prices WHERE source = 'b3-cotahist' GROUP BY 1 ORDER BY 1`);
      expect(days.map((d: { d: string }) => d.d)).toEqual(['2025-06-09', '2025-06-10', '2025-06-11']);
      // AAZQ11 on 2025-06-09 in the recorded session: open 7.21, max 7.23, min 7.10, close 7.11, 70738 shares.
      const q = await ds.query(
        `SELECT open_price::float8 AS o, max_price::float8 AS h, min_price::float8 AS l, close_price::float8 AS c, volume::float8 AS v FROM wh_prices WHERE ticker = 'AAZQ11' AND traded_at = '2025-06-09'`,
      );
      expect(q).toEqual([{ o: 7.21, h: 7.23, l: 7.1, c: 7.11, v: 70738 }]);
      expect((await state('b3-cotahist')).data_until).toBe('2025-06-11');

      const again = await runner(b3()).runNow('b3-cotahist');
      expect(again).toMatchObject({ outcome: 'ok', rowsAdded: 0, rowsUpdated: 0 });
      expect(sources.hits.filter((h) => h.includes('COTAHIST_D11062025')).length).toBe(1); // the watermark is past it
    });

    it('an empty day advances the watermark with nothing added; a day not published yet waits', async () => {
      const header = `00COTAHIST.2025BOVESPA 20250612`.padEnd(245, ' ');
      const trailer = `99COTAHIST.2025BOVESPA 20250612${'2'.padStart(11, '0')}`.padEnd(245, ' ');
      sources.override('/b3/COTAHIST_D12062025.ZIP', await zipped('COTAHIST_D12062025.TXT', `${header}\r\n${trailer}\r\n`));
      today = '2025-06-13';
      sources.override('/b3/COTAHIST_D13062025.ZIP', null);
      sources.fail('/b3/COTAHIST_D13062025', [404]);
      const r = await runner(b3()).runNow('b3-cotahist');
      sources.override('/b3/COTAHIST_D12062025.ZIP', null);
      expect(r).toMatchObject({ outcome: 'ok', rowsAdded: 0 });
      expect(r.notes).toEqual(expect.arrayContaining(['COTAHIST_D12062025: nenhuma cota de FII no pregão', 'COTAHIST_D13062025: não publicado']));
      expect((await state('b3-cotahist')).watermark).toEqual({ session: '2025-06-12' });
      const later = await runner(b3()).runNow('b3-cotahist');
      expect(later.rowsAdded).toBeGreaterThan(300);
      expect((await state('b3-cotahist')).watermark).toEqual({ session: '2025-06-13' });
    });

    it('a source answering 500 is retried with backoff and recovers; failing every attempt leaves the watermark', async () => {
      today = '2025-06-16';
      sources.fail('/b3/', [500, 503]);
      const r = await runner(b3()).runNow('b3-cotahist');
      expect(r).toMatchObject({ outcome: 'ok', attempts: 3 });
      expect((await state('b3-cotahist')).watermark).toEqual({ session: '2025-06-16' });

      today = '2025-06-17';
      sources.fail('/b3/', [500, 500, 500]);
      const down = await runner(b3()).runNow('b3-cotahist');
      expect(down).toMatchObject({ outcome: 'failed', attempts: 3, rowsAdded: 0 });
      expect(down.error).toMatch(/COTAHIST_D17062025\.ZIP: HTTP 500/);
      expect((await state('b3-cotahist')).watermark).toEqual({ session: '2025-06-16' });
      const up = await runner(b3()).runNow('b3-cotahist');
      expect(up).toMatchObject({ outcome: 'ok', attempts: 1 });
      expect(up.rowsAdded).toBeGreaterThan(300);
    });

    it('a malformed line fails the run naming the file and the line', async () => {
      today = '2025-06-18';
      const header = `00COTAHIST.2025BOVESPA 20250618`.padEnd(245, ' ');
      const trailer = `99COTAHIST.2025BOVESPA 20250618${'3'.padStart(11, '0')}`.padEnd(245, ' ');
      sources.override('/b3/COTAHIST_D18062025.ZIP', await zipped('COTAHIST_D18062025.TXT', `${header}\r\n012025061812HGLG11      010\r\n${trailer}\r\n`));
      const r = await runner(b3()).runNow('b3-cotahist');
      sources.override('/b3/COTAHIST_D18062025.ZIP', null);
      expect(r.outcome).toBe('failed');
      expect(r.error).toMatch(/COTAHIST_D18062025\.ZIP: line 2: 27 characters, the layout has 245/);
    });
  });

  describe('CVM monthly reports', () => {
    it('reads the yearly zips as published and re-fetches only when they change', async () => {
      today = '2023-06-30';
      const cvm = { 'cvm-dados': { ...policy.sources['cvm-dados'], years_back: 1 } };
      const r = await runner(cvm).runNow('cvm-dados');
      expect(r).toMatchObject({ error: null, outcome: 'ok' });
      expect(r.rowsAdded).toBeGreaterThan(10000);
      // HGLG11 (CNPJ 11.728.688/0001-47) reported December 2022.
      const hglg = await ds.query(`SELECT ticker, equity_per_share::float8 > 0 AS nav FROM wh_cvm_monthly WHERE ticker = 'HGLG11' AND ref_date = '2022-12-01'`);
      expect(hglg).toEqual([{ ticker: 'HGLG11', nav: true }]);
      expect((await state('cvm-dados')).data_until).toBe('2023-12-01');

      const hits = sources.hits.length;
      const again = await runner(cvm).runNow('cvm-dados');
      expect(again).toMatchObject({ outcome: 'ok', rowsAdded: 0, rowsUpdated: 0 });
      expect(sources.hits.length - hits).toBe(2); // two conditional GETs answered 304
    });

    it('a zip that is not a zip is a clear error', async () => {
      sources.override('/cvm/inf_mensal_fii_2023.zip', 'isto não é um zip');
      const r = await runner({ 'cvm-dados': { ...policy.sources['cvm-dados'], years_back: 0 } }).runNow('cvm-dados');
      sources.override('/cvm/inf_mensal_fii_2023.zip', null);
      expect(r.outcome).toBe('failed');
      expect(r.error).toMatch(/inf_mensal_fii_2023\.zip: cannot read zip/);
    });
  });

  describe('FundosNet income announcements', () => {
    it('reads every announcement (both XML layouts), then only the new one', async () => {
      today = '2025-11-30';
      const r = await runner().runNow('fnet');
      expect(r).toMatchObject({ error: null, outcome: 'ok' });
      expect(r.rowsAdded).toBeGreaterThan(900);
      const abcp = await ds.query(
        `SELECT payment_date::text AS pay, dividend_amt::float8 AS amt FROM wh_dividends WHERE ticker = 'ABCP11' AND traded_until_date = '2025-10-31' AND source = 'fnet'`,
      );
      expect(abcp).toEqual([{ pay: '2025-11-07', amt: 0.65 }]);

      const id = sources.announce({ ticker: 'HGLG11', record: '2025-11-28', payment: '2025-12-12', amount: 1.15 });
      const next = await runner().runNow('fnet');
      expect(next).toMatchObject({ error: null, outcome: 'ok', rowsAdded: 1 });
      expect(next.changes.wh_dividends.inserted).toEqual([
        expect.objectContaining({ ticker: 'HGLG11', traded_until_date: '2025-11-28', payment_date: '2025-12-12', dividend_amt: 1.15, source: 'fnet' }),
      ]);
      expect((await state('fnet')).watermark).toEqual({ last_id: id });
      expect(await runner().runNow('fnet')).toMatchObject({ rowsAdded: 0, rowsUpdated: 0 });

      // The run's change event was stored with its rows, typed as libs/contracts declares it, once.
      const events = await ds.query(`SELECT subject, payload FROM feed_events WHERE subject = $1 AND payload->>'ticker' = 'HGLG11' AND payload->>'record_date' = '2025-11-28'`, [
        WarehouseEvents.distributionAnnounced.subject,
      ]);
      expect(events).toHaveLength(1);
      expect(DistributionAnnounced.parse(events[0].payload)).toMatchObject({ ticker: 'HGLG11', payment_date: '2025-12-12', amount_per_share: 1.15, source: 'fnet', change: 'new' });
    });

    it('a malformed document is named and skipped; the others load', async () => {
      const bad = sources.announce({ ticker: 'KNRI11', record: '2025-11-28', payment: '2025-12-15', amount: 1 });
      sources.override(`/fnet/downloadDocumento?id=${bad}`, Buffer.from('<DadosEconomicoFinanceiros><Outro/></DadosEconomicoFinanceiros>').toString('base64'));
      const good = sources.announce({ ticker: 'XPML11', record: '2025-11-28', payment: '2025-12-12', amount: 0.92 });
      const r = await runner().runNow('fnet');
      expect(r).toMatchObject({ error: null, outcome: 'ok', rowsAdded: 1 });
      expect(r.notes.join('\n')).toMatch(new RegExp(`documento ${bad} recusado: .*not an income announcement`));
      expect((await state('fnet')).watermark).toEqual({ last_id: good });
    });
  });

  it('one schedule slot runs once across replicas', async () => {
    today = '2025-06-20';
    const slot = new Date('2026-11-27T12:00:00Z');
    const [a, b] = await Promise.all([runner({}, 'replica-a').runSlot('b3-cotahist', slot), runner({}, 'replica-b').runSlot('b3-cotahist', slot)]);
    expect([a, b].filter((r) => r !== null)).toHaveLength(1);
    expect(await count(`SELECT count(*) AS n FROM feed_runs WHERE source = 'b3-cotahist' AND slot = $1`, [slot.toISOString()])).toBe(1);
    expect(await runner({}, 'replica-c').runSlot('b3-cotahist', slot)).toBeNull();
  });
});

async function zipped(name: string, text: string): Promise<Buffer> {
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(text, 'latin1'), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
