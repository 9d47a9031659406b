import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { CotaError, ExecutorSubjects, QueryParams, QueryResult, queryParams, WAREHOUSE_EVENT_SAMPLES, WarehouseEvents } from '@cota/contracts';
import { dataDir, loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';
import { openDatabase, RunningService, runMigrations, startService } from '@cota/service-kit';
import { createTestDatabase, startTestNats, TestDatabase, TestNats } from '@cota/test-support';
import { CATALOG_ENTITIES, MAX_PLAUSIBLE_DY_12M_PCT, PgSqlRunner, runIngest, warehouseMigrations } from '@cota/warehouse';
import { executorService } from '../../apps/executor/src/executor.service';

jest.setTimeout(600000);

/** Rows of a source file, read in place from the data folder (never copied into the repo). */
function sourceRows(file: string, delimiter = ','): Array<Record<string, string>> {
  return parse(readFileSync(join(dataDir(), file), 'utf8'), { columns: true, bom: true, delimiter, relax_quotes: true });
}

const P = (over: Partial<QueryParams> = {}): QueryParams => queryParams(over);

describe('executor over NATS on the ingested warehouse (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let nats: TestNats;
  let executor: RunningService;
  let client: NatsTransport;
  let bus: Bus;
  let n = 0;

  const ask = (entity: string, params: Partial<QueryParams> = {}, client_id = 'cliente-demo-1'): Promise<QueryResult> =>
    bus.call(ExecutorSubjects.query, { request_id: `t-${++n}`, client_id, entity, params: P(params) });

  beforeAll(async () => {
    db = await createTestDatabase('executor');
    ds = await openDatabase({ url: db.url, statementTimeoutMs: 120000 });
    await runMigrations(ds, warehouseMigrations);
    await runIngest(ds, { dataDir: dataDir() }); // once per suite
    nats = await startTestNats();
    executor = await startService(executorService, loadEnv({ NATS_URL: nats.url, DATABASE_URL: db.url, COTA_DATA_DIR: dataDir() }));
    client = await NatsTransport.connect({ url: nats.url, name: 'executor-test' });
    bus = new Bus(client, 'gateway');
  });

  afterAll(async () => {
    await client?.drain();
    await executor?.stop();
    await ds?.destroy();
    await nats?.stop();
    await db?.drop();
  });

  it('answers every catalog entity', async () => {
    for (const entity of CATALOG_ENTITIES) {
      const params = entity.startsWith('client_') || entity.startsWith('history_') || entity === 'macro_consolidada' || entity === 'fiis_rankings' ? {} : { ticker: 'ABCP11' };
      const r = await ask(entity, params);
      expect({ entity, some: r.row_count > 0 }).toEqual({ entity, some: true });
      expect(r.columns.length).toBeGreaterThan(0);
    }
  });

  it("drops a fund's kept reads when its change event arrives, not after the cache's TTL", async () => {
    const newest = () => ask('fiis_dividendos', { ticker: 'KNRI11', limit: 1 });
    const before = await newest();
    await ds.query(`INSERT INTO wh_dividends (ticker, traded_until_date, payment_date, dividend_amt, source) VALUES ('KNRI11', '2026-11-27', '2026-12-12', 1.23, 'fnet')`);
    try {
      expect(await newest()).toEqual(before); // kept (read_cache.yaml ttl_s)
      // Another fund's change leaves it kept; KNRI11's drops it.
      client.publish(WarehouseEvents.distributionAnnounced.subject, JSON.stringify({ ...WAREHOUSE_EVENT_SAMPLES.distributionAnnounced, ticker: 'XPML11' }));
      await client.connection.flush();
      await new Promise((r) => setTimeout(r, 200));
      expect(await newest()).toEqual(before);
      client.publish(
        WarehouseEvents.distributionAnnounced.subject,
        JSON.stringify({ ...WAREHOUSE_EVENT_SAMPLES.distributionAnnounced, ticker: 'KNRI11', record_date: '2026-11-27' }),
      );
      await client.connection.flush();
      await new Promise((r) => setTimeout(r, 200));
      expect((await newest()).rows[0]).toMatchObject({ ticker: 'KNRI11', traded_until_date: '2026-11-27', dividend_amt: 1.23 });
    } finally {
      await ds.query(`DELETE FROM wh_dividends WHERE ticker = 'KNRI11' AND traded_until_date = '2026-11-27'`);
    }
  });

  it('fiis_cadastro: HGLG11 registry as in araquem', async () => {
    const src = sourceRows('araquem/samples/fiis_registrations.csv').find((r) => r.ticker === 'HGLG11')!;
    const r = await ask('fiis_cadastro', { ticker: 'HGLG11' });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({
      ticker: 'HGLG11',
      fii_cnpj: '11.728.688/0001-47',
      isin: src.isin,
      ipo_date: src.ipo_date.slice(0, 10),
      sector: 'Logística',
      source: 'araquem',
    });
    expect(r.rows[0].shares_count).toBe(Number(src.shares_count));
  });

  it('fiis_precos: newest ABCP11 session', async () => {
    const src = sourceRows('araquem/samples/fiis_quota_prices.csv')
      .filter((r) => r.ticker === 'ABCP11')
      .sort((a, b) => b.traded_at.localeCompare(a.traded_at))[0];
    const r = await ask('fiis_precos', { ticker: 'ABCP11', agg: 'latest' });
    expect(r.rows).toEqual([expect.objectContaining({ traded_at: src.traded_at.slice(0, 10), close_price: Number(src.close_price), source: 'araquem' })]);
    expect(r.as_of).toBe(src.traded_at.slice(0, 10));
  });

  it('fiis_dividendos: a known KNRI11 dividend, and several tickers come grouped without duplicates', async () => {
    const src = sourceRows('dashbord/dividendos.csv').find((r) => r.ticker === 'KNRI11' && r.data_com === '2025-05-30')!;
    const one = await ask('fiis_dividendos', { ticker: 'KNRI11', filters: { date: '2025-05-30' } });
    expect(one.rows).toEqual([expect.objectContaining({ ticker: 'KNRI11', traded_until_date: '2025-05-30', dividend_amt: Number(src.valor_por_cota), source: 'dashbord' })]);

    const many = await ask('fiis_dividendos', { tickers: ['KNRI11', 'HGLG11'], limit: 3 });
    expect(many.rows.map((x) => x.ticker)).toEqual(['HGLG11', 'HGLG11', 'HGLG11', 'KNRI11', 'KNRI11', 'KNRI11']);
    const keys = many.rows.map((x) => `${x.ticker}|${x.traded_until_date}`);
    expect(new Set(keys).size).toBe(keys.length);

    const sum = await ask('fiis_dividendos', { ticker: 'KNRI11', agg: 'sum', window: 'year:2024' });
    expect(sum.rows).toHaveLength(1);
    expect(sum.rows[0].row_count).toBeGreaterThanOrEqual(10);
  });

  it('fiis_yield_history and fiis_dividends_yields: araquem rows for ABCP11', async () => {
    const y = sourceRows('araquem/samples/fiis_yield_history.csv').find((r) => r.ticker === 'ABCP11' && r.ref_month === '2025-10-01')!;
    const r = await ask('fiis_yield_history', { ticker: 'ABCP11', filters: { date: '2025-10-01' } });
    expect(r.rows[0]).toMatchObject({ ref_month: '2025-10-01', dividends_sum: Number(y.dividends_sum), price_ref: Number(y.price_ref) });
    // araquem's DY file: its month closes are facts of their month; its 12-month columns repeat the
    // current figure on every row, so they are no month's value. The fund's one DY is the same 12 months of
    // distributions as the series' newest row, over the fund's one current price: the snapshot's reference
    // price of 22/11/2025 (P/VP × VP por cota), newer than the last close (14/11/2025).
    const dy = sourceRows('araquem/samples/fiis_dividends_yields.csv').find((x) => x.ticker === 'ABCP11')!;
    const s = sourceRows('araquem/samples/fiis_financials_snapshot.csv').find((x) => x.ticker === 'ABCP11')!;
    const r2 = await ask('fiis_dividends_yields', { ticker: 'ABCP11', agg: 'latest' });
    const snap = await ask('fiis_financials_snapshot', { ticker: 'ABCP11' });
    expect(r2.rows[0]).toMatchObject({ ref_month: dy.ref_month, month_price_ref: Number(dy.month_price_ref), dividends_12m_amt: Number(snap.rows[0].sum_anual_dy_amt) });
    const reference = Math.round(Number(s.price_book_ratio) * Number(s.equity_per_share) * 100) / 100;
    expect(snap.rows[0].dy_pct).toBe(Math.round((Number(snap.rows[0].sum_anual_dy_amt) / reference) * 10000) / 100);
  });

  it('fiis_dividends_yields: the project computes 12-month yields where araquem has none', async () => {
    const r = await ask('fiis_dividends_yields', { ticker: 'KNRI11', filters: { date: '2022-12-31' } });
    expect(r.rows).toHaveLength(1);
    const row = r.rows[0];
    expect(row.source).toBe('derived');
    // Two decimals, as every DY is kept (issue 26: one number wherever it is shown).
    expect(Math.abs((row.dy_12m_pct as number) - ((row.dividends_12m_amt as number) / (row.month_price_ref as number)) * 100)).toBeLessThanOrEqual(0.005 + 1e-9);
    const close = sourceRows('paulo037/dados_historicos.csv').find((x) => x.Ticker === 'KNRI11' && x.Datetime === '2022-12')!;
    expect(row.month_price_ref).toBe(Number(close.Close));
  });

  it('fiis_financials_snapshot, revenue schedule and risk: araquem values', async () => {
    const s = sourceRows('araquem/samples/fiis_financials_snapshot.csv').find((r) => r.ticker === 'HGLG11')!;
    const snap = await ask('fiis_financials_snapshot', { ticker: 'HGLG11' });
    // The published DY is kept apart; the fund's DY is the one from its distributions over its one current price:
    // 12 × R$ 1,10 (dashbord, data-com 28/06/2024..30/05/2025) / R$ 159,95 (0,9860 × 162,221, the snapshot of 22/11/2025) = 8,25%.
    expect(snap.rows[0]).toMatchObject({
      price_book_ratio: Number(s.price_book_ratio),
      equity_per_share: Number(s.equity_per_share),
      published_dy_pct: Number(s.dy_pct),
      dy_pct: 8.25,
    });
    const rs = sourceRows('araquem/samples/fiis_financials_revenue_schedule.csv').find((r) => r.ticker === 'ELDO11')!;
    const sched = await ask('fiis_financials_revenue_schedule', { ticker: 'ELDO11' });
    expect(sched.rows[0]).toMatchObject({ revenue_due_0_3m_pct: Number(rs.revenue_due_0_3m_pct), revenue_ipca_pct: Number(rs.revenue_ipca_pct) });
    const rk = sourceRows('araquem/samples/fiis_financials_risk.csv').find((r) => r.ticker === 'HGLG11')!;
    const risk = await ask('fiis_financials_risk', { ticker: 'HGLG11' });
    expect(risk.rows[0]).toMatchObject({
      sharpe_ratio: Number(rk.sharpe_ratio),
      max_drawdown: Number(rk.max_drawdown),
      beta_index: Number(rk.beta_index),
      source: 'araquem,derived',
    });
    // The project's own metrics, recomputed here from the market16 daily adjusted closes (last 252 returns).
    const px = sourceRows('market16/prices_daily.csv')
      .filter((r) => r.ticker === 'HGLG11')
      .map((r) => [r.data, Number(r.preco_ajustado)] as const);
    const tail = px.slice(-253);
    const rets = tail.slice(1).map(([, p], i) => p / tail[i][1] - 1);
    const mean = rets.reduce((a, b) => a + b, 0) / rets.length;
    const sd = Math.sqrt(rets.reduce((a, b) => a + (b - mean) ** 2, 0) / (rets.length - 1));
    let peak = 0;
    let dd = 0;
    for (const [, p] of tail) {
      peak = Math.max(peak, p);
      dd = Math.max(dd, 1 - p / peak);
    }
    expect(risk.rows[0]).toMatchObject({ calc_window_start: tail[0][0], calc_window_end: tail[252][0] });
    expect(risk.rows[0].calc_volatility_ratio).toBeCloseTo(sd * Math.sqrt(252), 5);
    expect(risk.rows[0].calc_max_drawdown).toBeCloseTo(dd, 5);
  });

  it('fiis_imoveis, fiis_noticias, fiis_processos: ABCP11', async () => {
    const im = await ask('fiis_imoveis', { ticker: 'ABCP11' });
    expect(im.rows[0]).toMatchObject({ asset_name: 'Grand Plaza Shopping', total_area: 69812, vacancy_ratio: 0.0131, source: 'araquem' });
    const newsSrc = sourceRows('araquem/samples/fiis_news.csv').filter((r) => r.ticker === 'ABCP11');
    const news = await ask('fiis_noticias', { ticker: 'ABCP11', limit: 500 });
    expect(news.row_count).toBe(newsSrc.length);
    expect(news.rows.every((x) => typeof x.url === 'string' && typeof x.source === 'string')).toBe(true);
    expect(news.sources).toEqual(['araquem']);
    const proc = await ask('fiis_processos', { ticker: 'ABCP11', limit: 50 });
    expect(proc.rows).toEqual(expect.arrayContaining([expect.objectContaining({ process_number: '16327-720.191/2020-39', cause_amt: 107968140.9, loss_risk_pct: 'Possível' })]));
  });

  it('fii_overview: one row joining registry, snapshot, risk and rankings', async () => {
    const r = await ask('fii_overview', { ticker: 'HGLG11' });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ ticker: 'HGLG11', fii_cnpj: '11.728.688/0001-47', dy_12m_pct: 8.25, price_book_ratio: 0.986, sharpe_ratio: -1.0501 });
    expect(r.rows[0].source).toBe('araquem,dashbord,derived');
    expect(r.sources).toEqual(['araquem', 'dashbord', 'derived']);
  });

  it('fiis_rankings: top 10 by DY with no ticker, consistent with the DY next to it', async () => {
    const r = await ask('fiis_rankings', { order_by: 'rank_dy_12m', order: 'asc', limit: 10 });
    expect(r.rows).toHaveLength(10);
    expect(r.truncated).toBe(true);
    expect(r.rows.map((x) => x.rank_dy_12m)).toEqual([...r.rows.map((x) => x.rank_dy_12m as number)].sort((a, b) => a - b));
    const dys = r.rows.map((x) => x.dy_12m_pct as number);
    expect(dys).toEqual([...dys].sort((a, b) => b - a));
    // The best plausible yield leads; implausible ones (amortisations, stale prices) are not ranked. ROOF11: dashbord
    // dividendos.csv, 6 data-com from 05/2024 to 01/04/2025 = R$ 153,559, over araquem's reference price of 22/11/2025
    // (P/VP × VP por cota = R$ 386,44): 39,74% (araquem itself publishes 0,00 for the 12 months to November 2025).
    expect(r.rows[0]).toMatchObject({ ticker: 'ROOF11', dy_12m_pct: 39.74 });
    expect(dys.every((v) => v <= MAX_PLAUSIBLE_DY_12M_PCT)).toBe(true);
    const vol = await ask('fiis_rankings', { order_by: 'rank_low_volatility', limit: 3 });
    expect(vol.rows[0].rank_low_volatility).toBe(1);
  });

  it('history_b3_indexes: IFIX on a known date comes from opbrreit', async () => {
    const src = sourceRows('opbrreit/ifix.csv').find((r) => r.Date === '2024-03-15')!;
    const r = await ask('history_b3_indexes', { filters: { index: 'IFIX', date: '2024-03-15' } });
    expect(r.rows).toEqual([expect.objectContaining({ index_date: '2024-03-15', ifix_points_count: Number(src.IFIX) })]);
    const old = await ask('history_b3_indexes', { filters: { index: 'IFIX', date: '2011-01-04' } });
    expect(old.rows[0]).toMatchObject({ index_date: '2011-01-04', ibov_points_count: null });
  });

  it('history_currency_rates: USD on a known date', async () => {
    const rows = sourceRows('araquem/samples/history_currency_rates.csv');
    // Before 2024-06-26 araquem has only 0.00 placeholders; row 150 is a quoted day.
    const src = rows.slice(150).find((r) => Number(r.usd_sell_amt) > 0)!;
    const day = src.rate_date.slice(0, 10);
    const r = await ask('history_currency_rates', { filters: { currency: 'USD', date: day } });
    expect(r.rows).toEqual([
      expect.objectContaining({ rate_date: day, usd_sell_amt: Number(src.usd_sell_amt), usd_buy_amt: Number(src.usd_buy_amt), eur_sell_amt: Number(src.eur_sell_amt) }),
    ]);
  });

  it('regression: HGLG11 paid 12 dividends in 2024 (market16 ex-dates moved to record dates)', async () => {
    const r = await ask('fiis_dividendos', { ticker: 'HGLG11', tickers: ['HGLG11'], agg: 'sum', window: 'year:2024' });
    expect(r.rows[0]).toMatchObject({ row_count: 12, period_start: '2024-01-31', period_end: '2024-12-30' });
    expect(Number(r.rows[0].dividend_amt)).toBeCloseTo(13.2, 6);
  });

  it('regression: a headline naming a fund is news of that fund too', async () => {
    const r = await ask('fiis_noticias', { ticker: 'HGLG11', tickers: ['HGLG11'], limit: 10 });
    expect(r.rows.map((x) => x.title)).toContain('BRIM11, HGLG11: IFIX fecha em queda de 0,18%, aos 2.803,51 pontos');
    expect(new Set(r.rows.map((x) => x.url)).size).toBe(r.rows.length);
  });

  it('regression: registry names get back the accents araquem dropped; head count from CVM', async () => {
    const r = await ask('fiis_cadastro', { ticker: 'KNRI11', tickers: ['KNRI11'] });
    expect(r.rows[0].display_name).toBe('Kinea Renda Imobiliária Fundo Investimento Imobiliario FII');
    const m = await ask('fiis_cadastro', { ticker: 'MXRF11', tickers: ['MXRF11'] });
    expect(Number.isInteger(Number(m.rows[0].shareholders_count))).toBe(true);
  });

  it('regression: araquem days quoted 0.00 are missing quotes, not a dollar at R$ 0,00', async () => {
    const zero = sourceRows('araquem/samples/history_currency_rates.csv').find((r) => r.rate_date.startsWith('2024-03-15'))!;
    expect(Number(zero.usd_sell_amt)).toBe(0);
    const r = await ask('history_currency_rates', { filters: { currency: 'USD', date: '2024-03-15' } });
    expect(r.rows).toEqual([]);
    const avg = await ask('history_currency_rates', { filters: { currency: 'USD' }, agg: 'avg', window: 'year:2024' });
    expect(Number(avg.rows[0].usd_sell_amt)).toBeGreaterThan(4.5);
  });

  it('history_market_indicators: SELIC on known dates (BCB daily rate annualised; araquem where it has it)', async () => {
    const d = sourceRows('opbrreit/selic_daily.csv').find((r) => r.Date === '2023-06-15')!;
    const expected = Math.round((Math.pow(1 + Number(d.SELIC) / 100, 252) - 1) * 10000) / 100;
    const r = await ask('history_market_indicators', { filters: { indicator: 'selic', date: '2023-06-15' } });
    expect(r.rows).toEqual([expect.objectContaining({ indicator_date: '2023-06-15', indicator_name: 'SELIC', indicator_amt: expected, unit: '% a.a.', source: 'opbrreit' })]);
    expect(expected).toBe(13.65); // effective SELIC (BCB SGS 1178) that day; the target was 13.75
    const a = await ask('history_market_indicators', { filters: { indicator: 'SELIC', date: '2025-11-14' } });
    expect(a.rows[0]).toMatchObject({ indicator_amt: 14.9, source: 'araquem' });
    const latest = await ask('history_market_indicators', { agg: 'latest' });
    const names = latest.rows.map((x) => x.indicator_name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['SELIC', 'CDI', 'IPCA', 'IGP-M']));
  });

  it('macro_consolidada: newest day', async () => {
    const src = sourceRows('araquem/samples/consolidated_macroeconomic.csv')[0];
    const r = await ask('macro_consolidada', { agg: 'latest' });
    expect(r.rows[0]).toMatchObject({ ref_date: src.ref_date, selic: Number(src.selic), ifix_points: Number(src.ifix_points) });
  });

  it('client entities answer for the demo client with real prices', async () => {
    const closes = sourceRows('paulo037/dados_historicos.csv');
    const close = (t: string, m: string) => Number(closes.find((r) => r.Ticker === t && r.Datetime === m)!.Close);
    const pos = await ask('client_fiis_positions', {}, 'cliente-demo-1');
    const hglg = pos.rows.find((r) => r.ticker === 'HGLG11')!;
    expect(hglg.quantity).toBe(120);
    expect(hglg.avg_price).toBeCloseTo((100 * close('HGLG11', '2022-01') + 20 * close('HGLG11', '2022-06')) / 120, 4);
    expect(hglg.is_demo).toBe(true);
    expect(pos.rows.map((r) => r.ticker).sort()).toEqual(['HGLG11', 'KNRI11', 'VISC11', 'XPML11']);

    const enriched = await ask('client_fiis_enriched_portfolio', {}, 'cliente-demo-1');
    const weights = enriched.rows.reduce((a, r) => a + (r.weight_pct as number), 0);
    expect(weights).toBeCloseTo(100, 0);

    const divs = await ask('client_fiis_dividends_evolution', { window: 'year:2023' }, 'cliente-demo-1');
    expect(divs.rows.length).toBeGreaterThanOrEqual(10);
    expect(divs.rows.every((r) => (r.dividends_amt as number) > 0)).toBe(true);

    const perf = await ask('client_fiis_performance_vs_benchmark', { filters: { benchmark: 'IFIX' }, window: 'rows:12' }, 'cliente-demo-1');
    expect(perf.rows).toHaveLength(12);
    expect(perf.rows.every((r) => r.benchmark === 'IFIX')).toBe(true);
    const summary = await ask('client_fiis_performance_vs_benchmark_summary', {}, 'cliente-demo-1');
    expect(summary.rows.map((r) => r.benchmark).sort()).toEqual(['CDI', 'IBOV', 'IFIL', 'IFIX']);
    const ifix = summary.rows.find((r) => r.benchmark === 'IFIX')!;
    expect(ifix.excess_return_pct).toBeCloseTo((ifix.portfolio_cum_return_pct as number) - (ifix.benchmark_cum_return_pct as number), 3);
  });

  it('the demo ledgers, written as B3 statements, keep the figures the trades table gave', async () => {
    // The positions and sales as the views computed them from the trades table before the ledger
    // (average of all buys; each sale against the buys before it), over the same trades.
    const before = await ds.query(`
      WITH tx AS (SELECT client_id, ticker, sum(CASE WHEN side = 'buy' THEN quantity ELSE -quantity END) AS quantity,
                         sum(CASE WHEN side = 'buy' THEN quantity * price END) AS buy_cost, sum(CASE WHEN side = 'buy' THEN quantity END) AS buy_qty
                    FROM wh_client_transactions GROUP BY client_id, ticker)
      SELECT client_id, ticker, quantity::int AS quantity, round(buy_cost / buy_qty, 4)::float AS avg_price, round(quantity * buy_cost / buy_qty, 2)::float AS invested_amt
        FROM tx WHERE quantity > 0 ORDER BY 1, 2`);
    const after = await ds.query(`SELECT client_id, ticker, quantity, avg_price::float AS avg_price, invested_amt::float AS invested_amt FROM client_fiis_positions ORDER BY 1, 2`);
    expect(after).toEqual(before);
    expect(after.length).toBe(10);
    const salesBefore = await ds.query(`
      SELECT s.client_id, s.ticker, s.trade_date::text AS sold_on, round(s.quantity * (s.price - b.avg_cost), 2)::float AS result_amt
        FROM wh_client_transactions s
        JOIN LATERAL (SELECT sum(t.quantity * t.price) / nullif(sum(t.quantity), 0) AS avg_cost FROM wh_client_transactions t
                       WHERE t.client_id = s.client_id AND t.ticker = s.ticker AND t.side = 'buy' AND t.trade_date <= s.trade_date) b ON true
       WHERE s.side = 'sell' ORDER BY 1, 2`);
    const salesAfter = await ds.query(`SELECT client_id, ticker, sold_on::text AS sold_on, result_amt::float AS result_amt FROM client_realized_gains ORDER BY 1, 2`);
    expect(salesAfter).toEqual(salesBefore);
    expect(salesAfter.map((r: { ticker: string }) => r.ticker)).toEqual(['HGCR11', 'XPIN11']);
    // Every demo ledger row is marked demo and says so where a statement names the broker.
    const [marks] = await ds.query(
      `SELECT bool_and(is_demo) AS demo, count(*)::int AS n, min(institution) AS inst, min(source) AS source FROM wh_client_ledger WHERE client_id LIKE 'cliente-demo-%'`,
    );
    expect(marks).toEqual({ demo: true, n: 15, inst: 'CORRETORA DEMO (dados de demonstração)', source: 'demo' });
  });

  it("a client never sees another client's rows, and an unknown client sees none", async () => {
    const two = await ask('client_fiis_positions', {}, 'cliente-demo-2');
    expect(two.rows.map((r) => r.ticker).sort()).toEqual(['HGCR11', 'KNHY11', 'KNIP11']);
    // A fund another client holds (HGLG11 is cliente-demo-1's) is not in this client's positions.
    const other = await ask('client_fiis_positions', { ticker: 'HGLG11', tickers: ['HGLG11'] }, 'cliente-demo-2');
    expect(other.rows).toEqual([]);
    const nobody = await ask('client_fiis_positions', {}, 'cliente-que-nao-existe');
    expect(nobody.rows).toEqual([]);
  });

  it('hostile parameters never reach SQL or another client (property, through NATS)', async () => {
    const mine = new Set((await ask('client_fiis_positions', {}, 'cliente-demo-3')).rows.map((r) => r.ticker));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom("' OR '1'='1", "cliente-demo-1' --", '; DELETE FROM wh_client_transactions; --', '/**/', '\u00e9\u0301', '1e309'), fc.string({ maxLength: 100 })),
        fc.constantFrom('client_fiis_positions', 'client_fiis_performance_vs_benchmark', 'fiis_rankings', 'history_market_indicators'),
        async (value, entity) => {
          const filters: Record<string, string> =
            entity === 'fiis_rankings'
              ? { sector: value }
              : entity === 'history_market_indicators'
                ? { indicator: value }
                : entity === 'client_fiis_positions'
                  ? {}
                  : { benchmark: value };
          try {
            const r = await ask(entity, { filters, order_by: null }, 'cliente-demo-3');
            if (entity === 'client_fiis_positions') return r.rows.every((x) => mine.has(x.ticker));
            return r.row_count === 0 || entity !== 'fiis_rankings' || r.rows.every((x) => typeof x.ticker === 'string');
          } catch (e) {
            return CotaError.is(e, 'BAD_REQUEST') || CotaError.is(e, 'INVALID_MESSAGE');
          }
        },
      ),
      { numRuns: 60 },
    );
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM wh_client_transactions');
    expect(n).toBeGreaterThan(10);
  });

  it('rejects bad orderings and unknown filters in Portuguese', async () => {
    await expect(ask('fiis_rankings', { order_by: 'fii_cnpj' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/Não é possível ordenar/) });
    await expect(ask('fiis_dividendos', { ticker: 'HGLG11', filters: { moeda: 'USD' } })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(ask('nao_existe', {})).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('entity SQL runs read-only under a statement timeout', async () => {
    const runner = new PgSqlRunner(ds);
    await expect(runner.run('SELECT pg_sleep(3)', [], 200)).rejects.toMatchObject({ code: '57014' });
    await expect(runner.run('DELETE FROM wh_clients', [], 1000)).rejects.toMatchObject({ code: '25006' });
    // The connection goes back to the pool usable: no transaction or timeout left behind.
    await expect(runner.run('SELECT count(*)::int AS n FROM wh_clients WHERE $1::int = 1', [1], 1000)).resolves.toEqual([{ n: 3 }]);
    const [{ n, t }] = await ds.query("SELECT count(*)::int AS n, current_setting('statement_timeout') AS t FROM wh_clients");
    expect(n).toBe(3);
    expect(t).not.toBe('200ms');
  });

  it('serves the fund list for the planner', async () => {
    const { funds } = await bus.call(ExecutorSubjects.funds, {});
    expect(funds.length).toBeGreaterThan(500);
    expect(funds.find((f) => f.ticker === 'HGLG11')).toEqual({ ticker: 'HGLG11', name: expect.stringContaining('Pátria Log'), cnpj: '11.728.688/0001-47' });
  });
});
