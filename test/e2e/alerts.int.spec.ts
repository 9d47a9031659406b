import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { DistributionAnnounced, WarehouseEvents } from '@cota/contracts';
import { createFeedsWorker, feedsMigrations, FeedsPolicy, FeedsWorker, loadFeedsPolicy, withUrlOverrides } from '@cota/feeds';
import { NatsTransport, WarehouseStream } from '@cota/messaging';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { RecordedSources } from '@cota/test-support';
import { Cluster, DEMO, startCluster } from './cluster';

jest.setTimeout(600000);

const quiet = { info: () => undefined, warn: () => undefined };

async function until<T>(check: () => Promise<T | null | undefined | false>, ms = 60000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Live data to a client's alert, end to end on real NATS (JetStream), Postgres and Redis: an alert set in
 * the chat with its confirmation; a fund announces a distribution at its (recorded) source; the next
 * scheduled run ingests it; the event is on the stream; the alert fires once; the notification is listed
 * and pushed on the live stream.
 */
describe('alerts end to end', () => {
  let cluster: Cluster;
  let ds: DataSource;
  let sources: RecordedSources;
  let publisher: NatsTransport;
  let stream: WarehouseStream;
  let worker: FeedsWorker;
  const conversation = 'alertas-1';
  const auth = { authorization: `Bearer ${DEMO.ana.key}` };

  beforeAll(async () => {
    cluster = await startCluster();
    ds = await openDatabase({ url: cluster.db.url, applicationName: 'alerts-e2e' });
    await runMigrations(ds, feedsMigrations);
    sources = new RecordedSources();
    const base = await sources.start();
    const loaded = withUrlOverrides(loadFeedsPolicy(), { COTA_FEED_URL_FNET: `${base}/fnet` });
    // Only FundosNet, every second: "the next scheduled run" comes at once.
    const s = loaded.sources;
    const policy: FeedsPolicy = {
      ...loaded,
      sources: {
        'bcb-sgs': { ...s['bcb-sgs'], enabled: false },
        'b3-cotahist': { ...s['b3-cotahist'], enabled: false },
        'cvm-dados': { ...s['cvm-dados'], enabled: false },
        fnet: { ...s.fnet, schedule: '* * * * * *' },
      },
    };
    publisher = await NatsTransport.connect({ url: cluster.nats.url, name: 'ingest-worker-e2e' });
    stream = WarehouseStream.of(publisher)!;
    const e = policy.events;
    await stream.ensure({ maxAgeMs: e.max_age_days * 86_400_000, duplicateWindowMs: e.duplicate_window_s * 1000, maxBytes: e.max_bytes });
    worker = createFeedsWorker(ds, policy, { log: quiet, today: () => '2026-11-27', events: { publish: (subject, data, id) => stream.publish(subject, data, id) } });
    // What the source has published so far is the warehouse's before any alert exists.
    expect(await worker.runNow('fnet')).toMatchObject({ outcome: 'ok' });
  });

  afterAll(async () => {
    await worker?.stop();
    await sources?.stop();
    await publisher?.drain();
    await ds?.destroy();
    await cluster?.stop();
  });

  it('a malformed alert gets a clear question back', async () => {
    const r = await cluster.ask('avise se o DY passar de 9%', { conversation: 'alertas-ruim' });
    expect(r.status).toBe(200);
    expect(r.body.answer).toMatch(/de qual fundo é o DY \(12 meses\)\?/i);
  });

  it('sets an alert with confirmation; a new distribution at the source fires it once, listed and pushed live; then it is removed', async () => {
    const preview = await cluster.ask('me avise quando o XPML11 anunciar dividendo', { conversation });
    expect(preview.body.status).toBe('confirmation_required');
    expect(preview.body.answer).toMatch(/posso criar um alerta quando o XPML11 anunciar um provento\? Responda sim ou não\.$/i);
    const yes = await cluster.ask('sim', { conversation });
    expect(yes.body.meta.tool).toMatchObject({ name: 'criar_alerta', status: 'executed' });
    expect(yes.body.answer).toMatch(/pronto: criei um alerta quando o XPML11 anunciar um provento/i);
    const listed = await cluster.ask('quais alertas eu tenho?', { conversation });
    expect(listed.body.answer).toContain('1. Avisar quando o XPML11 anunciar um provento (ativo)');

    // The page's live stream, open before anything happens.
    const abort = new AbortController();
    const pushed: string[] = [];
    const live = await fetch(`${cluster.baseUrl}/me/notifications/stream`, { headers: auth, signal: abort.signal });
    expect(live.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of live.body as unknown as AsyncIterable<Uint8Array>) pushed.push(decoder.decode(chunk));
    })().catch(() => undefined);

    const since = new Date(Date.now() - 1000);
    worker.start(); // the schedule: a run every second
    sources.announce({ ticker: 'XPML11', record: '2026-11-30', payment: '2026-12-12', amount: 0.97 });

    // The scheduled run ingests it and the event is on the stream.
    const event = await until(async () => {
      let found: ReturnType<typeof DistributionAnnounced.parse> | null = null;
      await stream.replay(WarehouseEvents.distributionAnnounced.subject, since, (e) => {
        const p = DistributionAnnounced.parse(JSON.parse(e.data));
        if (p.ticker === 'XPML11' && p.record_date === '2026-11-30') found = p;
      });
      return found;
    });
    expect(event).toMatchObject({ amount_per_share: 0.97, payment_date: '2026-12-12', source: 'fnet', change: 'new' });

    // The alert fires once: listed with the unread badge's count, and pushed to the open stream.
    const list = await until(async () => {
      const res = await fetch(`${cluster.baseUrl}/me/notifications`, { headers: auth });
      const body = (await res.json()) as { notifications: Array<{ title: string; body: string; read: boolean }>; unread: number };
      return body.notifications.length ? body : null;
    });
    expect(list.unread).toBe(1);
    expect(list.notifications).toEqual([
      expect.objectContaining({ title: 'XPML11 anunciou provento', body: 'O XPML11 anunciou R$ 0,97 por cota (data-com 30/11/2026, pagamento em 12/12/2026).', read: false }),
    ]);
    await until(async () => pushed.join('').includes('event: notification'), 10000);
    expect(pushed.join('')).toContain('XPML11 anunciou provento');
    abort.abort();
    await reading;

    // More scheduled runs, nothing new: still one notification. Another client has none.
    await new Promise((r) => setTimeout(r, 2500));
    const after = (await (await fetch(`${cluster.baseUrl}/me/notifications`, { headers: auth })).json()) as { notifications: unknown[] };
    expect(after.notifications).toHaveLength(1);
    const bia = await (await fetch(`${cluster.baseUrl}/me/notifications`, { headers: { authorization: `Bearer ${DEMO.bia.key}` } })).json();
    expect(bia).toEqual({ notifications: [], unread: 0 });
    const read = await (await fetch(`${cluster.baseUrl}/me/notifications/read`, { method: 'POST', headers: auth })).json();
    expect(read).toEqual({ marked: 1, unread: 0 });

    const removed = await cluster.ask('remover alerta 1', { conversation });
    expect(removed.body.answer).toMatch(/removi o alerta quando o XPML11 anunciar um provento\.$/i);
    expect((await cluster.ask('quais alertas eu tenho?', { conversation })).body.answer).toMatch(/você não tem alertas/i);
  });
});
