import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { DistributionAnnounced, WarehouseEvents } from '@cota/contracts';
import { createFeedsWorker, feedsMigrations, FeedsPolicy, FeedsWorker, loadFeedsPolicy, withUrlOverrides } from '@cota/feeds';
import { NatsTransport, WarehouseStream } from '@cota/messaging';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { RecordedSources, startTestSmtp, TestSmtp } from '@cota/test-support';
import { launchChromium, TestBrowser } from './chromium';
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
 * scheduled run ingests it; the event is on the stream; the alert fires once; the notification is listed,
 * pushed on the live stream and shown by the page's badge in Chromium (cleared when read); its e-mail
 * reaches a local SMTP server; the chat answers the new distribution; the page pauses, resumes and
 * removes the alert.
 */
describe('alerts end to end', () => {
  let cluster: Cluster;
  let ds: DataSource;
  let sources: RecordedSources;
  let publisher: NatsTransport;
  let stream: WarehouseStream;
  let worker: FeedsWorker;
  let smtp: TestSmtp;
  let browser: TestBrowser;
  const conversation = 'alertas-1';
  const auth = { authorization: `Bearer ${DEMO.ana.key}` };

  beforeAll(async () => {
    // The executor delivers the outbox to a real SMTP server on this machine.
    smtp = await startTestSmtp();
    cluster = await startCluster({ serviceEnv: { executor: { SMTP_URL: smtp.url } } });
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
    await browser?.close();
    await worker?.stop();
    await smtp?.stop();
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

  /** The page as a client with an API key opens it (distributed mode: no demo button). */
  async function openPage(): Promise<TestBrowser> {
    const b = (browser = await launchChromium({ width: 1280, height: 800 }));
    await b.page.goto(`${cluster.baseUrl}/`);
    // Without a demo login the page opens the key form by itself.
    await b.page.waitForSelector('#key', { state: 'visible' });
    await b.page.fill('#key', DEMO.ana.key);
    await b.page.fill('#client', DEMO.ana.clientId);
    await b.page.fill('#nick', 'Ana');
    await b.page.click('#key-form button[type=submit]');
    await b.page.waitForSelector('#workspace:not([hidden])');
    return b;
  }

  /** The page's errors, but for the demo login's probe, which answers 404 outside embedded mode by design. */
  const pageProblems = () => browser.problems.filter((p) => !/status of 404/.test(p));

  it("sets an alert with confirmation; a new distribution at the source fires it once: listed, pushed live, on the page's badge, e-mailed, and answered", async () => {
    const preview = await cluster.ask('me avise quando o XPML11 anunciar dividendo', { conversation });
    expect(preview.body.status).toBe('confirmation_required');
    expect(preview.body.answer).toMatch(/posso criar um alerta quando o XPML11 anunciar um provento\? Responda sim ou não\.$/i);
    const yes = await cluster.ask('sim', { conversation });
    expect(yes.body.meta.tool).toMatchObject({ name: 'criar_alerta', status: 'executed' });
    expect(yes.body.answer).toMatch(/pronto: criei um alerta quando o XPML11 anunciar um provento/i);
    const listed = await cluster.ask('quais alertas eu tenho?', { conversation });
    expect(listed.body.answer).toContain('1. Avisar quando o XPML11 anunciar um provento (ativo)');
    // What the fund paid this month before the announcement (and what the executor's read cache now holds).
    const before = await cluster.ask('quanto o XPML11 pagou este mês?', { conversation });
    expect(before.status).toBe(200);
    expect(before.body.answer).toMatch(/não há dados deste mês/);
    expect(before.body.answer).not.toContain('0,97');

    // The page, logged in with the client's key: no badge yet.
    const { page } = await openPage();
    const badge = page.locator('#notif-badge');
    expect(await badge.isHidden()).toBe(true);

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
    // This month's distribution: data-com and payment both in November 2026 (the machine's month).
    sources.announce({ ticker: 'XPML11', record: '2026-11-16', payment: '2026-11-25', amount: 0.97 });

    // The scheduled run ingests it and the event is on the stream.
    const event = await until(async () => {
      let found: ReturnType<typeof DistributionAnnounced.parse> | null = null;
      await stream.replay(WarehouseEvents.distributionAnnounced.subject, since, (e) => {
        const p = DistributionAnnounced.parse(JSON.parse(e.data));
        if (p.ticker === 'XPML11' && p.record_date === '2026-11-16') found = p;
      });
      return found;
    });
    expect(event).toMatchObject({ amount_per_share: 0.97, payment_date: '2026-11-25', source: 'fnet', change: 'new' });

    // The alert fires once: listed with the unread badge's count, and pushed to the open stream.
    const text = 'O XPML11 anunciou R$ 0,97 por cota (data-com 16/11/2026, pagamento em 25/11/2026).';
    const list = await until(async () => {
      const res = await fetch(`${cluster.baseUrl}/me/notifications`, { headers: auth });
      const body = (await res.json()) as { notifications: Array<{ title: string; body: string; read: boolean }>; unread: number };
      return body.notifications.length ? body : null;
    });
    expect(list.unread).toBe(1);
    expect(list.notifications).toEqual([expect.objectContaining({ title: 'XPML11 anunciou provento', body: text, read: false })]);
    await until(async () => pushed.join('').includes('event: notification'), 10000);
    expect(pushed.join('')).toContain('XPML11 anunciou provento');
    abort.abort();
    await reading;

    // The page's badge shows it, pushed by the stream (the page was not reloaded).
    await badge.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await badge.textContent()).toBe('1');
    expect(await page.getAttribute('#notif-toggle', 'aria-label')).toBe('Alertas: 1 notificação não lida');

    // Its e-mail reaches the SMTP server: to the client's address on record, once.
    const [mail] = await smtp.waitFor(1, 30_000);
    expect(mail.to).toEqual(['cliente-demo-1@exemplo.com.br']);
    expect(mail.subject).toBe('Cota — Alerta: XPML11 anunciou provento');
    expect(mail.text).toContain(text);

    // "quanto o fundo pagou este mês?" answers the new distribution (the read cache dropped the old answer): what was paid
    // this month, by payment date (data-com 16/11, paid 25/11: the one payment says both).
    const after = await cluster.ask('quanto o fundo pagou este mês?', { conversation });
    expect(after.status).toBe(200);
    expect(after.body.answer).toMatch(
      /^Os dividendos por cota \(pela data de pagamento\) do XPML11 em novembro de 2026 \(dados até 25\/11\/2026\) somam R\$ 0,97 \(1 pagamento, em 25\/11\/2026, com data-com em 16\/11\/2026\)\./,
    );
    expect(after.body.meta.params.ticker).toBe('XPML11');

    // Opening the bell lists it and marks it read: the badge clears, and the server agrees.
    await page.click('#notif-toggle');
    await page.locator('#notifs .notif').first().waitFor();
    expect(await page.locator('#notifs .notif strong').allTextContents()).toEqual(['XPML11 anunciou provento']);
    expect(await page.locator('#notifs .notif p').first().textContent()).toBe(text);
    await badge.waitFor({ state: 'hidden', timeout: 10_000 });
    const read = await (await fetch(`${cluster.baseUrl}/me/notifications`, { headers: auth })).json();
    expect(read).toMatchObject({ unread: 0, notifications: [expect.objectContaining({ read: true })] });
    expect(pageProblems()).toEqual([]);

    // More scheduled runs, nothing new: still one notification and one e-mail. Another client has none.
    await new Promise((r) => setTimeout(r, 2500));
    const later = (await (await fetch(`${cluster.baseUrl}/me/notifications`, { headers: auth })).json()) as { notifications: unknown[] };
    expect(later.notifications).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);
    const bia = await (await fetch(`${cluster.baseUrl}/me/notifications`, { headers: { authorization: `Bearer ${DEMO.bia.key}` } })).json();
    expect(bia).toEqual({ notifications: [], unread: 0 });
  });

  it("pauses, resumes and removes an alert from the page's alerts panel", async () => {
    // A second alert, so the chat's numbers move when the page removes the first.
    await cluster.ask('se a selic cair abaixo de 10%', { conversation });
    expect((await cluster.ask('sim', { conversation })).body.answer).toMatch(/pronto: criei um alerta quando a Selic ficar abaixo de 10,00% ao ano/i);
    const { page } = browser;
    // The panel is open from the last test: close it and open it again to read the list as it is now.
    await page.click('#notif-toggle');
    await page.click('#notif-toggle');
    const items = page.locator('#notifs .alert-item');
    await items.nth(1).waitFor();
    expect(await page.locator('#notifs .alert-text').allTextContents()).toEqual([
      '1. Avisar quando o XPML11 anunciar um provento (ativo)',
      '2. Avisar quando a Selic ficar abaixo de 10,00% ao ano (ativo)',
    ]);
    const status = page.locator('#notifs .alerts-box [role=status]');
    const statusOf = async () =>
      ((await (await fetch(`${cluster.baseUrl}/me/alerts`, { headers: auth })).json()) as { alerts: Array<{ status: string }> }).alerts.map((a) => a.status);

    await page.click('#notifs button[aria-label="Pausar o alerta 1"]');
    await page.locator('#notifs .alert-item.paused').waitFor();
    expect(await status.textContent()).toMatch(/^Pausei o alerta quando o XPML11 anunciar um provento/);
    expect(await statusOf()).toEqual(['paused', 'active']);
    expect((await cluster.ask('quais alertas eu tenho?', { conversation })).body.answer).toContain('1. Avisar quando o XPML11 anunciar um provento (pausado)');

    await page.click('#notifs button[aria-label="Reativar o alerta 1"]');
    await page.locator('#notifs button[aria-label="Pausar o alerta 1"]').waitFor();
    expect(await status.textContent()).toBe('Reativei o alerta quando o XPML11 anunciar um provento.');
    expect(await statusOf()).toEqual(['active', 'active']);

    await page.click('#notifs button[aria-label="Remover o alerta 1"]');
    await page.waitForFunction(
      () => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#notifs .alert-item').length === 1,
    );
    expect(await status.textContent()).toBe('Removi o alerta quando o XPML11 anunciar um provento.');
    expect(await page.locator('#notifs .alert-text').allTextContents()).toEqual(['1. Avisar quando a Selic ficar abaixo de 10,00% ao ano (ativo)']);
    // Another client's alert cannot be changed by id: 404.
    const selicId = ((await (await fetch(`${cluster.baseUrl}/me/alerts`, { headers: auth })).json()) as { alerts: Array<{ alert_id: string }> }).alerts[0].alert_id;
    const foreign = await fetch(`${cluster.baseUrl}/me/alerts/${selicId}/pause`, { method: 'POST', headers: { authorization: `Bearer ${DEMO.bia.key}` } });
    expect(foreign.status).toBe(404);
    expect(pageProblems()).toEqual([]);

    // The chat sees the same list: removing "alerta 1" now removes the Selic one.
    const removed = await cluster.ask('remover alerta 1', { conversation });
    expect(removed.body.answer).toMatch(/removi o alerta quando a Selic ficar abaixo de 10,00% ao ano\.$/i);
    expect((await cluster.ask('quais alertas eu tenho?', { conversation })).body.answer).toMatch(/você não tem alertas/i);
  });

  it('sets the kinds policies/alerts.yaml declares in the chat, through the tool gate, and lists them', async () => {
    const c = 'alertas-tipos';
    const report = await cluster.ask('me avise quando sair o informe mensal dos fundos da minha carteira', { conversation: c });
    expect(report.body.answer).toMatch(/posso criar um alerta quando sair o informe mensal de um fundo da sua carteira\? Responda sim ou não\.$/i);
    expect((await cluster.ask('sim', { conversation: c })).body.meta.tool).toMatchObject({ name: 'criar_alerta', status: 'executed' });
    const move = await cluster.ask('me avise se o IFIX cair mais de 2% num dia', { conversation: c });
    expect(move.body.answer).toMatch(/posso criar um alerta quando o IFIX cair mais de 2,00% num dia\? Responda sim ou não\.$/i);
    await cluster.ask('sim', { conversation: c });
    const pvp = await cluster.ask('avise se o P/VP do HGBS11 cair abaixo de 0,9', { conversation: c });
    expect(pvp.body.answer).toMatch(/posso criar um alerta quando o P\/VP do HGBS11 ficar abaixo de 0,90\? Responda sim ou não\.$/i);
    await cluster.ask('sim', { conversation: c });
    const listed = (await cluster.ask('quais alertas eu tenho?', { conversation: c })).body.answer;
    expect(listed).toContain('1. Avisar quando sair o informe mensal de um fundo da sua carteira (ativo)');
    expect(listed).toContain('2. Avisar quando o IFIX cair mais de 2,00% num dia (ativo)');
    expect(listed).toContain('3. Avisar quando o P/VP do HGBS11 ficar abaixo de 0,90 (ativo)');
    // A daily move of a measure that has none gets a question back.
    const dy = await cluster.ask('me avise se o DY do HGLG11 variar mais de 3% num dia', { conversation: c });
    expect(dy.body.answer).toMatch(/sei avisar da variação num dia de: a cotação, o IFIX\. De qual\?/i);
  });
});
