import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WarehouseEvents, type MeasureResult, type QueryParams, type QueryResult, type StructuredQuestion } from '@cota/contracts';
import { loadPolicy, policiesDir, PolicyError } from '@cota/config';
import { loadEntityCatalog, loadMeasureCatalog } from '@cota/catalog';
import { PublicReadCache, ReadCachePolicy, warehouseChange } from './read-cache';

const entities = loadEntityCatalog();
const measures = loadMeasureCatalog();
const policy: ReadCachePolicy = { version: 1, enabled: true, max_entries: 100, ttl_s: 60 };
const params: QueryParams = { ticker: 'HGLG11', tickers: ['HGLG11'], agg: 'list', window: null, limit: 12, order: 'desc', order_by: null, filters: {} };
const result = (entity: string, n: number) => ({ entity, rows: [{ n }] }) as unknown as QueryResult;
const question = (over: Partial<StructuredQuestion>): StructuredQuestion => ({
  subjects: [{ kind: 'fund', id: 'HGLG11' }],
  measure: 'dividend',
  agg: 'total',
  also: [],
  period: null,
  group_by: null,
  compare: null,
  condition: null,
  ...over,
});

/** A loader that counts its calls and answers after a tick (so concurrent reads overlap). */
function counting<T>(make: (n: number) => T) {
  let calls = 0;
  const load = async () => {
    calls++;
    await new Promise((r) => setImmediate(r));
    return make(calls);
  };
  return { load, calls: () => calls };
}

describe('PublicReadCache (policies/read_cache.yaml)', () => {
  it('keeps a public entity read: the same query again, or at the same time, reads the warehouse once', async () => {
    const lookups: boolean[] = [];
    const cache = new PublicReadCache(policy, entities, measures, (hit) => lookups.push(hit));
    const l = counting((n) => result('fiis_dividendos', n));
    const req = { entity: 'fiis_dividendos', params };
    const [a, b] = await Promise.all([cache.query(req, l.load), cache.query(req, l.load)]);
    expect(await cache.query(req, l.load)).toBe(a);
    expect(b).toBe(a);
    expect(l.calls()).toBe(1);
    // Other parameters are another read.
    await cache.query({ entity: 'fiis_dividendos', params: { ...params, limit: 3 } }, l.load);
    expect(l.calls()).toBe(2);
    // Reported as cota_cache_requests_total: the joined read and the kept one are hits.
    expect(lookups.sort()).toEqual([false, false, true, true]);
  });

  it('never keeps a client entity, a portfolio measure or a fund measure asked of "meus fundos"', async () => {
    const cache = new PublicReadCache(policy, entities, measures);
    const rows = counting((n) => result('client_fiis_positions', n));
    const req = { entity: 'client_fiis_positions', params: { ...params, ticker: null, tickers: [] } };
    await cache.query(req, rows.load);
    await cache.query(req, rows.load);
    expect(rows.calls()).toBe(2);

    const m = counting((n) => ({ measure: 'x', values: [], n }) as unknown as MeasureResult);
    const received = question({ subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'received' });
    const ofFund = question({ measure: 'received' }); // "quanto recebi do HGLG11": still the client's
    const dyOfMine = question({ subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'dy', agg: 'value' });
    for (const q of [received, ofFund, dyOfMine]) {
      await cache.measure(q, m.load);
      await cache.measure(q, m.load);
    }
    expect(m.calls()).toBe(6);
  });

  it('keeps fund and market measures', async () => {
    const cache = new PublicReadCache(policy, entities, measures);
    const m = counting((n) => ({ measure: 'dividend', values: [], n }) as unknown as MeasureResult);
    const q = question({});
    await cache.measure(q, m.load);
    await cache.measure({ ...q }, m.load);
    const selic = question({ subjects: [{ kind: 'indicator', id: 'SELIC' }], measure: 'annual_rate', agg: 'value' });
    await cache.measure(selic, m.load);
    await cache.measure(selic, m.load);
    expect(m.calls()).toBe(2);
  });

  it('does not keep a failed read (a miss), and reads through when disabled', async () => {
    const lookups: boolean[] = [];
    const cache = new PublicReadCache(policy, entities, measures, (hit) => lookups.push(hit));
    const req = { entity: 'fiis_dividendos', params };
    await expect(cache.query(req, () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    const l = counting((n) => result('fiis_dividendos', n));
    expect(await cache.query(req, l.load)).toMatchObject({ rows: [{ n: 1 }] });
    expect(lookups).toEqual([false, false]);

    const off = new PublicReadCache({ ...policy, enabled: false }, entities, measures);
    const o = counting((n) => result('fiis_dividendos', n));
    await off.query(req, o.load);
    await off.query(req, o.load);
    expect(o.calls()).toBe(2);
  });

  it('serves a kept read only for ttl_s', async () => {
    const cache = new PublicReadCache({ ...policy, ttl_s: 1 }, entities, measures);
    const l = counting((n) => result('fiis_dividendos', n));
    const req = { entity: 'fiis_dividendos', params };
    await cache.query(req, l.load);
    await cache.query(req, l.load);
    expect(l.calls()).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cache.query(req, l.load)).toMatchObject({ rows: [{ n: 2 }] });
  });

  it('is valid as shipped; a bad value stops the start naming the file and the field', () => {
    expect(loadPolicy('read_cache', ReadCachePolicy)).toMatchObject({ version: 1, enabled: true });
    const dir = mkdtempSync(join(tmpdir(), 'cota-read-cache-'));
    cpSync(policiesDir(), dir, { recursive: true });
    writeFileSync(join(dir, 'read_cache.yaml'), readFileSync(join(dir, 'read_cache.yaml'), 'utf8').replace('ttl_s: 60', 'ttl_s: 0'));
    expect(() => loadPolicy('read_cache', ReadCachePolicy, dir)).toThrow(PolicyError);
    expect(() => loadPolicy('read_cache', ReadCachePolicy, dir)).toThrow("read_cache.yaml: field 'ttl_s'");
  });
});

describe('PublicReadCache invalidation by warehouse change events', () => {
  const measureOf = (n: number) => ({ measure: 'x', values: [], n }) as unknown as MeasureResult;

  it('maps each change event to the funds and series it changed', () => {
    expect(warehouseChange(WarehouseEvents.distributionAnnounced.subject, { ticker: 'XPML11' })).toEqual({ funds: ['XPML11'], series: [] });
    expect(warehouseChange(WarehouseEvents.priceClosed.subject, { ticker: 'HGLG11' })).toEqual({ funds: ['HGLG11'], series: [] });
    expect(warehouseChange(WarehouseEvents.monthlyReportLoaded.subject, { ticker: null })).toEqual({ funds: [], series: [] });
    expect(warehouseChange(WarehouseEvents.indicatorPublished.subject, { indicator: 'CDI-DAILY' })).toEqual({ funds: [], series: ['CDI-DAILY', 'CDI'] });
    expect(warehouseChange('cota.events.gateway.asked.v1', {})).toBeNull();
  });

  it("drops a fund's reads on its change, and the reads across funds, but keeps other funds' and the series'", async () => {
    const cache = new PublicReadCache(policy, entities, measures);
    const rows = counting((n) => result('fiis_dividendos', n));
    const m = counting(measureOf);
    const hglg = { entity: 'fiis_dividendos', params };
    const knri = { entity: 'fiis_dividendos', params: { ...params, ticker: 'KNRI11', tickers: ['KNRI11'] } };
    const ranking = question({ subjects: [], measure: 'dy', agg: 'value' });
    const selic = question({ subjects: [{ kind: 'indicator', id: 'SELIC' }], measure: 'annual_rate', agg: 'value' });
    const readAll = async () => {
      await cache.query(hglg, rows.load);
      await cache.query(knri, rows.load);
      await cache.measure(ranking, m.load);
      await cache.measure(selic, m.load);
    };
    await readAll();
    expect([rows.calls(), m.calls()]).toEqual([2, 2]);

    expect(cache.invalidate({ funds: ['HGLG11'], series: [] })).toBe(2); // HGLG11's read and the ranking
    await readAll();
    expect([rows.calls(), m.calls()]).toEqual([3, 3]);

    expect(cache.invalidate({ funds: [], series: ['SELIC'] })).toBe(2); // the Selic and the ranking
    await readAll();
    expect([rows.calls(), m.calls()]).toEqual([3, 5]);
    expect(cache.invalidate({ funds: ['XPML11'], series: [] })).toBe(1); // only what names no fund
  });

  it('a read dropped while it loads is read again, not served stale', async () => {
    const cache = new PublicReadCache(policy, entities, measures);
    let n = 0;
    let release: () => void = () => undefined;
    const slow = () =>
      new Promise<QueryResult>((res) => {
        n++;
        const mine = n;
        if (mine === 1) release = () => res(result('fiis_dividendos', mine));
        else res(result('fiis_dividendos', mine));
      });
    const pending = cache.query({ entity: 'fiis_dividendos', params }, slow);
    await new Promise((r) => setImmediate(r));
    cache.invalidate({ funds: ['HGLG11'], series: [] });
    release();
    const got = await pending;
    expect(got.rows).toEqual([{ n: n }]);
  });
});
