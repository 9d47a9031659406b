import 'reflect-metadata';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { openDatabase, runMigrations, startOpsServer } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { createFeedsWorker, feedsMigrations, FeedsPolicy, loadFeedsPolicy, withUrlOverrides } from '@cota/feeds';
import { createTestDatabase, RecordedSources, TestDatabase } from '@cota/test-support';

jest.setTimeout(120000);

const quiet = { info: () => undefined, warn: () => undefined };

/** The ingest worker's schedule across replicas, its metrics and /ops/feeds. */
describe('ingest worker', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let sources: RecordedSources;
  let policy: FeedsPolicy;

  beforeAll(async () => {
    db = await createTestDatabase('feedworker');
    ds = await openDatabase({ url: db.url, applicationName: 'feeds-worker-test' });
    await runMigrations(ds, [...warehouseMigrations, ...feedsMigrations]);
    sources = new RecordedSources();
    const base = await sources.start();
    const p = withUrlOverrides(loadFeedsPolicy(), { COTA_FEED_URL_B3_COTAHIST: `${base}/b3` });
    // Only COTAHIST, every two seconds, from the first recorded session.
    const off = { enabled: false };
    policy = {
      ...p,
      sources: {
        'bcb-sgs': { ...p.sources['bcb-sgs'], ...off },
        'cvm-dados': { ...p.sources['cvm-dados'], ...off },
        fnet: { ...p.sources.fnet, ...off },
        'b3-cotahist': { ...p.sources['b3-cotahist'], schedule: '*/2 * * * * *', start: '2025-06-09', max_days_per_run: 2 },
      },
    };
  });

  afterAll(async () => {
    await sources?.stop();
    await ds?.destroy();
    await db?.drop();
  });

  it('two replicas on one schedule: each slot runs once, and the data is loaded once', async () => {
    const registries = [new Registry(), new Registry()];
    const replicas = registries.map((registry, i) => createFeedsWorker(ds, policy, { registry, log: quiet, instance: `replica-${i}`, today: () => '2025-06-13' }));
    replicas.forEach((r) => r.start());
    await new Promise((r) => setTimeout(r, 7000));
    await Promise.all(replicas.map((r) => r.stop()));

    const slots = await ds.query(`SELECT slot, count(*)::int AS n, min(outcome) AS outcome FROM feed_runs WHERE source = 'b3-cotahist' GROUP BY slot`);
    expect(slots.length).toBeGreaterThanOrEqual(3);
    expect(slots.every((s: { n: number; outcome: string }) => s.n === 1 && s.outcome === 'ok')).toBe(true);
    // Five sessions, two per run: loaded over three slots, each file fetched once.
    const days = await ds.query(`SELECT traded_at::text AS d FROM wh_prices WHERE source = 'b3-cotahist' GROUP BY 1 ORDER BY 1`);
    expect(days.map((d: { d: string }) => d.d)).toEqual(['2025-06-09', '2025-06-10', '2025-06-11', '2025-06-12', '2025-06-13']);
    for (const d of ['09', '10', '11', '12', '13']) expect(sources.hits.filter((h) => h === `/b3/COTAHIST_D${d}062025.ZIP`)).toHaveLength(1);

    // Runs are counted by the replica that ran them; freshness is the database's, the same on both.
    const counted = await Promise.all(registries.map(async (r) => (await r.getSingleMetric('cota_feed_runs_total')!.get()).values.reduce((a, v) => a + v.value, 0)));
    expect(counted[0] + counted[1]).toBe(slots.length);
    for (const r of registries) {
      const text = await r.metrics();
      expect(text).toMatch(/cota_feed_data_lag_days\{source="b3-cotahist"\} 0/);
      expect(text).toMatch(/cota_feed_max_lag_days\{source="b3-cotahist"\} 5/);
      expect(text).toMatch(/cota_feed_rows_added_total\{source="b3-cotahist"\}/);
    }
  });

  it('/ops/feeds shows each source behind the ops token', async () => {
    const worker = createFeedsWorker(ds, policy, { log: quiet, today: () => '2025-06-20' });
    const ops = await startOpsServer({
      port: 0,
      host: '127.0.0.1',
      opsToken: 'segredo',
      registry: new Registry(),
      ready: async () => ({ ok: true, checks: {} }),
      routes: { '/ops/feeds': async () => ({ feeds: await worker.status() }) },
    });
    try {
      const url = `http://127.0.0.1:${ops.port}/ops/feeds`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer errado' } })).status).toBe(403);
      const res = await fetch(url, { headers: { authorization: 'Bearer segredo' } });
      const body = (await res.json()) as { feeds: Array<Record<string, unknown>> };
      expect(body.feeds).toEqual([
        expect.objectContaining({
          source: 'b3-cotahist',
          data_until: '2025-06-13',
          lag_days: 7,
          max_lag_days: 5,
          fresh: false,
          last_error: null,
          watermark: { session: '2025-06-13' },
        }),
      ]);
      expect((body.feeds[0].recent_runs as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await ops.close();
    }
  });
});
