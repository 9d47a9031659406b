import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { createFeedsWorker, feedsMigrations, FeedsPolicy, FeedsWorker, loadFeedsPolicy, storedChangeEvents, withUrlOverrides } from '@cota/feeds';
import { NatsTransport, WarehouseStream, type StoredEvent } from '@cota/messaging';
import { DistributionAnnounced, IndicatorPublished, WarehouseEvents } from '@cota/contracts';
import { createTestDatabase, RecordedSources, startTestNats, TestDatabase, TestNats } from '@cota/test-support';

jest.setTimeout(180000);

const quiet = { info: () => undefined, warn: () => undefined };

/** The change events leave the outbox for the JetStream stream: once, typed, replayable, live to core subscribers. */
describe('change events on JetStream', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let nats: TestNats;
  let transport: NatsTransport;
  let stream: WarehouseStream;
  let sources: RecordedSources;
  let policy: FeedsPolicy;
  let worker: FeedsWorker;
  let today = '2025-11-14';
  const published: string[] = [];

  const stored = async () => (await stream.info())!.state.messages;
  const replay = async (filter: string, since: Date) => {
    const out: StoredEvent[] = [];
    await stream.replay(filter, since, (e) => out.push(e));
    return out;
  };

  beforeAll(async () => {
    db = await createTestDatabase('feed_events');
    ds = await openDatabase({ url: db.url, applicationName: 'feed-events-test' });
    await runMigrations(ds, [...warehouseMigrations, ...feedsMigrations]);
    nats = await startTestNats({ jetstream: true });
    transport = await NatsTransport.connect({ url: nats.url, name: 'feed-events-test' });
    stream = WarehouseStream.of(transport)!;
    sources = new RecordedSources();
    const base = await sources.start();
    const loaded = withUrlOverrides(loadFeedsPolicy(), { COTA_FEED_URL_BCB_SGS: `${base}/sgs`, COTA_FEED_URL_FNET: `${base}/fnet` });
    policy = { ...loaded, sources: { ...loaded.sources, 'bcb-sgs': { ...loaded.sources['bcb-sgs'], start: '2025-11-01' } } };
    const e = policy.events;
    await stream.ensure({ maxAgeMs: e.max_age_days * 86_400_000, duplicateWindowMs: e.duplicate_window_s * 1000, maxBytes: e.max_bytes });
    worker = createFeedsWorker(ds, policy, {
      log: quiet,
      today: () => today,
      events: {
        publish: (subject, data, id) => {
          published.push(id);
          return stream.publish(subject, data, id);
        },
      },
    });
  });

  afterAll(async () => {
    await sources?.stop();
    await transport?.drain();
    await nats?.remove();
    await ds?.destroy();
    await db?.drop();
  });

  it('creates the stream with the policy retention, and keeps it when asked again', async () => {
    const info = (await stream.info())!;
    expect(info.config.subjects).toEqual(['cota.events.warehouse.>']);
    expect(info.config.max_age).toBe(policy.events.max_age_days * 86_400 * 1e9);
    expect(info.config.duplicate_window).toBe(policy.events.duplicate_window_s * 1e9);
    expect(info.config.storage).toBe('file');
    const e = policy.events;
    await stream.ensure({ maxAgeMs: e.max_age_days * 86_400_000, duplicateWindowMs: e.duplicate_window_s * 1000, maxBytes: e.max_bytes });
    await stream.ensure({ maxAgeMs: 7 * 86_400_000, duplicateWindowMs: e.duplicate_window_s * 1000, maxBytes: e.max_bytes });
    expect((await stream.info())!.config.max_age).toBe(7 * 86_400 * 1e9);
  });

  it('publishes exactly the events a run recorded, live to core subscribers too, and marks them published', async () => {
    const heard: string[] = [];
    const sub = transport.subscribe('cota.events.warehouse.>', (subject) => heard.push(subject));
    const r = await worker.runNow('bcb-sgs');
    expect(r).toMatchObject({ outcome: 'ok', error: null });
    expect(r.rowsAdded).toBeGreaterThan(10);
    const outbox = await ds.query('SELECT event_id, published_at FROM feed_events ORDER BY seq');
    expect(outbox).toHaveLength(r.rowsAdded);
    expect(outbox.every((o: { published_at: Date | null }) => o.published_at !== null)).toBe(true);
    expect(await stored()).toBe(r.rowsAdded);
    await transport.connection.flush();
    expect(heard.length).toBe(r.rowsAdded);
    sub.unsubscribe();

    const events = await replay(WarehouseEvents.indicatorPublished.subject, new Date(Date.now() - 3_600_000));
    expect(events).toHaveLength(r.rowsAdded);
    const selic = events.map((e) => IndicatorPublished.parse(JSON.parse(e.data))).filter((p) => p.indicator === 'SELIC');
    expect(selic[0]).toMatchObject({ date: '2025-11-03', value: 14.9, source: 'bcb-sgs', change: 'new' });
    expect(events.map((e) => JSON.parse(e.data).event_id)).toEqual(outbox.map((o: { event_id: string }) => o.event_id));
  });

  it('a re-run publishes nothing; an outbox sent again (a publisher that died before marking it) is stored once', async () => {
    const before = await stored();
    published.length = 0;
    expect(await worker.runNow('bcb-sgs')).toMatchObject({ outcome: 'ok', rowsAdded: 0, rowsUpdated: 0 });
    expect(published).toEqual([]);

    await ds.query('UPDATE feed_events SET published_at = NULL');
    expect(await worker.publisher!.drain()).toBe(before);
    expect(published).toHaveLength(before);
    expect(await stored()).toBe(before);
  });

  it('a new distribution becomes one event on its subject; replays filter by subject and time', async () => {
    today = '2025-11-30';
    sources.announce({ ticker: 'XPML11', record: '2025-11-28', payment: '2025-12-12', amount: 0.92 });
    const r = await worker.runNow('fnet');
    expect(r).toMatchObject({ outcome: 'ok', error: null });
    const distributions = await replay(WarehouseEvents.distributionAnnounced.subject, new Date(Date.now() - 3_600_000));
    expect(distributions).toHaveLength(r.rowsAdded);
    const xpml = distributions.map((e) => DistributionAnnounced.parse(JSON.parse(e.data))).filter((p) => p.ticker === 'XPML11' && p.record_date === '2025-11-28');
    expect(xpml).toEqual([expect.objectContaining({ payment_date: '2025-12-12', amount_per_share: 0.92, change: 'new' })]);
    // Nothing stored after a time in the future; the whole stream from the start.
    expect(await replay('cota.events.warehouse.>', new Date(Date.now() + 60_000))).toEqual([]);
    expect((await replay('cota.events.warehouse.>', new Date(0))).length).toBe(await stored());
    // Embedded mode has no stream: its replays read the same events from the outbox, in the same order.
    const log = await storedChangeEvents(ds, new Date(Date.now() - 3_600_000));
    expect(log.map((e) => e.payload.event_id)).toEqual((await replay('cota.events.warehouse.>', new Date(0))).map((e) => JSON.parse(e.data).event_id));
  });

  it('forgets published events once the stream no longer keeps them', async () => {
    await ds.query(`UPDATE feed_events SET created_at = now() - interval '40 days' WHERE subject = $1`, [WarehouseEvents.distributionAnnounced.subject]);
    const n = Number((await ds.query('SELECT count(*) AS n FROM feed_events WHERE subject = $1', [WarehouseEvents.distributionAnnounced.subject]))[0].n);
    expect(await worker.publisher!.prune(policy.events.max_age_days * 86_400_000)).toBe(n);
    expect(await storedChangeEvents(ds, new Date(0)).then((l) => l.filter((e) => e.subject === WarehouseEvents.distributionAnnounced.subject))).toEqual([]);
  });

  it('when NATS is down the events wait in the outbox and leave with the next pass', async () => {
    await nats.stop();
    today = '2025-11-19';
    const r = await worker.runNow('bcb-sgs');
    expect(r.rowsAdded).toBeGreaterThan(0);
    expect(Number((await ds.query('SELECT count(*) AS n FROM feed_events WHERE published_at IS NULL'))[0].n)).toBe(r.rowsAdded);
    await nats.start();
    await new Promise((res) => setTimeout(res, 1500)); // the client reconnects every 500 ms
    await worker.publisher!.drain();
    expect(Number((await ds.query('SELECT count(*) AS n FROM feed_events WHERE published_at IS NULL'))[0].n)).toBe(0);
    const since = await replay(WarehouseEvents.indicatorPublished.subject, new Date(Date.now() - 3_600_000));
    expect(since.filter((e) => JSON.parse(e.data).date > '2025-11-14').length).toBe(r.rowsAdded);
  });

  it('a started worker sweeps the outbox on its schedule: an event whose publish failed leaves with a later sweep', async () => {
    await ds.query('UPDATE feed_events SET published_at = NULL WHERE seq = (SELECT max(seq) FROM feed_events)');
    let refusals = 0;
    const sweeping = createFeedsWorker(
      ds,
      { ...policy, events: { ...policy.events, sweep_every_s: 1 } },
      {
        log: quiet,
        today: () => today,
        events: {
          // The sweep at start fails; only the schedule can send the event afterwards.
          publish: (subject, data, id) => (refusals++ === 0 ? Promise.reject(new Error('stream unavailable')) : stream.publish(subject, data, id)),
        },
      },
    );
    sweeping.start();
    try {
      const unpublished = async () => Number((await ds.query('SELECT count(*) AS n FROM feed_events WHERE published_at IS NULL'))[0].n);
      for (let i = 0; i < 300 && (await unpublished()) > 0; i++) await new Promise((res) => setTimeout(res, 50));
      expect(await unpublished()).toBe(0);
      expect(refusals).toBeGreaterThan(1);
    } finally {
      await sweeping.stop();
    }
  });
});
