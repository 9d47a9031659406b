import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { ALERTS_CONSUMER, WAREHOUSE_EVENT_SAMPLES, WAREHOUSE_EVENTS_SUBJECTS, WAREHOUSE_STREAM, WarehouseEvents } from '@cota/contracts';
import { NatsTransport, WarehouseStream } from '@cota/messaging';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { toolsMigrations } from '@cota/tools';
import { AlertEvaluator, alertsMigrations, AlertStore, changeAlert, createAlert, listAlerts, startAlertsConsumer, type FiredAlert } from '@cota/alerts';
import { createTestDatabase, startTestNats, TestDatabase, TestNats } from '@cota/test-support';

jest.setTimeout(120000);

const quiet = { info: () => undefined, warn: () => undefined };
const ana = { client_id: 'cliente-alertas-ana' };
const bia = { client_id: 'cliente-alertas-bia' };

async function until(check: () => Promise<boolean> | boolean, ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The clients' alerts on the real Postgres and JetStream: rules from the chat's arguments, exactly-once firing. */
describe('alerts', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let nats: TestNats;
  let publisher: NatsTransport;
  let stream: WarehouseStream;
  let store: AlertStore;
  const open: NatsTransport[] = [];
  let n = 0;

  const count = async (sql: string, params: unknown[] = []) => Number((await ds.query(sql, params))[0].n);
  const publish = (name: keyof typeof WarehouseEvents, over: Record<string, unknown>) => {
    const payload = { ...WAREHOUSE_EVENT_SAMPLES[name], event_id: `evt-${++n}-${Date.now()}`, at: new Date().toISOString(), ...over };
    return stream.publish(WarehouseEvents[name].subject, JSON.stringify(payload), payload.event_id as string).then(() => payload.event_id as string);
  };
  const connect = async () => {
    const t = await NatsTransport.connect({ url: nats.url, name: `alerts-test-${open.length}` });
    open.push(t);
    return t;
  };

  beforeAll(async () => {
    db = await createTestDatabase('alerts');
    ds = await openDatabase({ url: db.url, applicationName: 'alerts-test' });
    await runMigrations(ds, [...warehouseMigrations, ...toolsMigrations, ...alertsMigrations]);
    // Ana has an e-mail on record (alerts also go by e-mail); Bia has none.
    await ds.query(`INSERT INTO wh_clients (client_id, display_name, email, is_demo, source) VALUES ($1, 'Ana', 'ana@exemplo.com.br', false, 'client')`, [ana.client_id]);
    nats = await startTestNats({ jetstream: true });
    publisher = await connect();
    stream = WarehouseStream.of(publisher)!;
    await stream.ensure({ maxAgeMs: 86_400_000, duplicateWindowMs: 60_000, maxBytes: 64 * 1024 * 1024 });
    store = new AlertStore(ds, 3);
  });

  afterAll(async () => {
    for (const t of open) await t.drain().catch(() => undefined);
    await nats?.remove();
    await ds?.destroy();
    await db?.drop();
  });

  it('creates a rule only after the preview, once per confirmation, lists, pauses and removes it', async () => {
    const preview = await createAlert(store, { tipo: 'distribuicao', ticker: 'XPML11', previa: true }, ana);
    expect(preview).toEqual({ resumo: 'um alerta quando o XPML11 anunciar um provento', regra: { kind: 'distribution', ticker: 'XPML11' } });
    expect(await store.list(ana.client_id)).toEqual([]);

    const made = await createAlert(store, { tipo: 'distribuicao', ticker: 'XPML11', confirmacao_id: 'req-1' }, ana);
    expect(made).toMatchObject({ criado: true, text: expect.stringMatching(/^Pronto: criei um alerta quando o XPML11 anunciar um provento/) });
    expect(await createAlert(store, { tipo: 'distribuicao', ticker: 'XPML11', confirmacao_id: 'req-1' }, ana)).toMatchObject({ criado: false });
    await createAlert(store, { tipo: 'nivel', medida: 'selic', direcao: 'abaixo', valor: '10' }, ana);

    const listed = await listAlerts(store, ana);
    expect(listed.text).toContain('1. Avisar quando o XPML11 anunciar um provento (ativo)');
    expect(listed.text).toContain('2. Avisar quando a Selic ficar abaixo de 10,00% ao ano (ativo)');
    expect(await listAlerts(store, bia)).toMatchObject({ alertas: [] }); // another client's rules are not seen

    expect((await changeAlert(store, 'pause', { numero: 2 }, ana)).text).toMatch(/^Pausei o alerta quando a Selic/);
    expect((await listAlerts(store, ana)).text).toContain('(pausado)');
    expect((await changeAlert(store, 'resume', { numero: 2 }, ana)).text).toMatch(/^Reativei/);
    await expect(changeAlert(store, 'remove', { numero: 5 }, ana)).rejects.toThrow(/Não há o alerta 5: você tem 2/);
  });

  it('asks a clear question for a malformed rule, and keeps the per-client limit', async () => {
    await expect(createAlert(store, { medida: 'dy', direcao: 'acima', valor: '9', previa: true }, bia)).rejects.toThrow(/De qual fundo é o DY \(12 meses\)\?/);
    await expect(createAlert(store, { medida: 'dy', ticker: 'HGLG11', previa: true }, bia)).rejects.toThrow(/passar de quanto, ou cair abaixo de quanto\?/);
    await expect(createAlert(store, { previa: true }, bia)).rejects.toThrow(/Não entendi sobre o que avisar/);
    for (const t of ['HGLG11', 'KNRI11', 'MXRF11']) await createAlert(store, { tipo: 'distribuicao', ticker: t }, bia);
    await expect(createAlert(store, { tipo: 'distribuicao', ticker: 'VISC11' }, bia)).rejects.toThrow(/Você já tem 3 alertas, o limite/);
  });

  it('fires each (rule, event) once, even when the evaluator dies after the effect and before the ack', async () => {
    const evaluator = new AlertEvaluator(ds);
    // The first evaluator commits the notification, then its process "dies": the connection closes unacknowledged.
    const doomed = await connect();
    let effects = 0;
    const first = await WarehouseStream.of(doomed)!.consumeDurable(
      ALERTS_CONSUMER,
      WAREHOUSE_EVENTS_SUBJECTS,
      async (d) => {
        await evaluator.handle(d.subject, d.data);
        effects++;
        await doomed.connection.close();
        throw new Error('killed before the ack');
      },
      { ackWaitMs: 1000, maxDeliver: 20 },
      () => undefined,
    );
    const id = await publish('distributionAnnounced', { ticker: 'XPML11', record_date: '2026-11-28', amount_per_share: 0.92 });
    await until(() => effects === 1);
    await first.stop();
    expect(await count('SELECT count(*) AS n FROM client_notifications WHERE event_id = $1', [id])).toBe(1);

    // Its replacement gets the same event again after ack_wait, and changes nothing.
    const fired: FiredAlert[] = [];
    let again = 0;
    const watching = {
      handle: (subject: string, data: string) => {
        if ((JSON.parse(data) as { event_id: string }).event_id === id) again++;
        return evaluator.handle(subject, data);
      },
    } as AlertEvaluator;
    const replacement = startAlertsConsumer(await connect(), watching, { log: quiet, ackWaitMs: 1000, onFired: (f) => fired.push(...f) });
    await replacement.ready;
    const next = await publish('distributionAnnounced', { ticker: 'HGLG11', record_date: '2026-11-28', amount_per_share: 1.1 });
    const jsm = await publisher.connection.jetstreamManager();
    await until(async () => {
      const info = await jsm.consumers.info(WAREHOUSE_STREAM, ALERTS_CONSUMER);
      return again >= 1 && info.num_ack_pending === 0 && info.num_pending === 0;
    });
    expect(again).toBe(1); // delivered again to the replacement, evaluated, acknowledged
    expect(await count('SELECT count(*) AS n FROM client_notifications WHERE event_id = $1', [id])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM alert_evaluations WHERE event_id = $1', [id])).toBe(1);
    // And one e-mail in the outbox, for the client with an address on record only.
    const mails = await ds.query(`SELECT client_id, recipient, subject, body, status FROM email_outbox ORDER BY created_at`);
    expect(mails).toEqual([
      {
        client_id: ana.client_id,
        recipient: 'ana@exemplo.com.br',
        subject: 'Cota — Alerta: XPML11 anunciou provento',
        body: 'O XPML11 anunciou R$ 0,92 por cota (data-com 28/11/2026, pagamento em 12/12/2026).',
        status: 'queued',
      },
    ]);
    expect(fired.map((f) => [f.client_id, f.title])).toEqual([[bia.client_id, 'HGLG11 anunciou provento']]);
    const notes = await store.notifications(ana.client_id);
    expect(notes.unread).toBe(1);
    expect(notes.notifications[0]).toMatchObject({
      title: 'XPML11 anunciou provento',
      body: 'O XPML11 anunciou R$ 0,92 por cota (data-com 28/11/2026, pagamento em 12/12/2026).',
      read: false,
    });
    expect(await count('SELECT count(*) AS n FROM client_notifications WHERE event_id = $1', [next])).toBe(1);
    await replacement.stop();
  });

  it('fires a level rule when the level becomes met, not on every event while it stays met; a paused rule never', async () => {
    const evaluator = new AlertEvaluator(ds);
    const fired: FiredAlert[] = [];
    const consumer = startAlertsConsumer(await connect(), evaluator, { log: quiet, ackWaitMs: 1000, onFired: (f) => fired.push(...f) });
    await consumer.ready;
    const selic = async (value: number, date: string) => {
      const id = await publish('indicatorPublished', { indicator: 'SELIC', value, date });
      await until(async () => (await count('SELECT count(*) AS n FROM alert_evaluations WHERE event_id = $1', [id])) === 1);
    };
    await selic(10.5, '2026-11-24');
    await selic(9.75, '2026-11-25');
    await selic(9.5, '2026-11-26');
    await selic(10.25, '2026-11-27');
    await selic(9.9, '2026-11-28');
    expect(fired.map((f) => f.title)).toEqual(['SELIC: ficou abaixo de 10,00% ao ano', 'SELIC: ficou abaixo de 10,00% ao ano']);
    expect((await store.notifications(ana.client_id)).notifications[0].body).toBe('A Selic ficou abaixo de 10,00% ao ano: 9,90% ao ano em 28/11/2026.');

    await changeAlert(store, 'pause', { numero: 2 }, ana);
    await publish('indicatorPublished', { indicator: 'SELIC', value: 11, date: '2026-11-29' });
    const id = await publish('indicatorPublished', { indicator: 'SELIC', value: 9, date: '2026-11-30' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await count('SELECT count(*) AS n FROM alert_evaluations WHERE event_id = $1', [id])).toBe(0);
    expect(fired).toHaveLength(2);
    await consumer.stop();
  });

  it("computes a fund's 12-month DY on its close and fires above the level", async () => {
    await ds.query(
      `INSERT INTO wh_dividends (ticker, traded_until_date, payment_date, dividend_amt, source) SELECT 'KNRI11', d::date, d::date + 10, 1.20, 'test' FROM generate_series('2025-12-31'::date, '2026-10-31'::date, interval '1 month') d`,
    );
    const made = await createAlert(store, { tipo: 'nivel', medida: 'dy', ticker: 'KNRI11', direcao: 'acima', valor: '9' }, ana);
    expect(made.resumo).toBe('um alerta quando o DY (12 meses) do KNRI11 passar de 9,00%');
    const evaluator = new AlertEvaluator(ds);
    const fired: FiredAlert[] = [];
    const consumer = startAlertsConsumer(await connect(), evaluator, { log: quiet, ackWaitMs: 1000, onFired: (f) => fired.push(...f) });
    await consumer.ready;
    // 11 payments of R$ 1,20 = R$ 13,20 in 12 months: 8,80% at R$ 150, 9,43% at R$ 140.
    await publish('priceClosed', { ticker: 'KNRI11', traded_at: '2026-11-26', close: 150 });
    await publish('priceClosed', { ticker: 'KNRI11', traded_at: '2026-11-27', close: 140 });
    await until(() => fired.length === 1);
    expect(fired[0]).toMatchObject({ client_id: ana.client_id, title: 'KNRI11: passou de 9,00%' });
    expect(fired[0].body).toBe('O DY (12 meses) do KNRI11 passou de 9,00%: 9,43% em 27/11/2026.');
    await consumer.stop();
  });

  it('a rule hears the changes found after it was created, not older ones still in the stream', async () => {
    const evaluator = new AlertEvaluator(ds);
    const before = await publish('distributionAnnounced', { ticker: 'VISC11', at: new Date(Date.now() - 60_000).toISOString() });
    const made = await createAlert(store, { tipo: 'distribuicao', ticker: 'VISC11' }, { client_id: 'cliente-alertas-caio' });
    expect(made.criado).toBe(true);
    const payload = { ...WAREHOUSE_EVENT_SAMPLES.distributionAnnounced, event_id: before, ticker: 'VISC11', at: new Date(Date.now() - 60_000).toISOString() };
    expect(await evaluator.handle(WarehouseEvents.distributionAnnounced.subject, JSON.stringify(payload))).toEqual([]);
    const fresh = { ...payload, event_id: 'evt-visc-fresh-00001', at: new Date().toISOString() };
    expect((await evaluator.handle(WarehouseEvents.distributionAnnounced.subject, JSON.stringify(fresh))).map((f) => f.title)).toEqual(['VISC11 anunciou provento']);
    await changeAlert(store, 'remove', { ticker: 'VISC11' }, { client_id: 'cliente-alertas-caio' });
    // An event that breaks its contract concerns no rule.
    expect(await evaluator.handle(WarehouseEvents.distributionAnnounced.subject, JSON.stringify({ ticker: 'VISC11' }))).toEqual([]);
    expect(await evaluator.handle(WarehouseEvents.distributionAnnounced.subject, 'not json')).toEqual([]);
  });

  it('evaluates the kinds policies/alerts.yaml declares: P/VP and IFIX levels, daily moves, monthly reports of a held fund', async () => {
    const duda = { client_id: 'cliente-alertas-duda' };
    const roomy = new AlertStore(ds, 10);
    await ds.query(`INSERT INTO wh_clients (client_id, display_name, email, is_demo, source) VALUES ($1, 'Duda', 'duda@exemplo.com.br', false, 'client')`, [duda.client_id]);
    // Duda holds BTLG11 (not RBRR11); HGBS11's last book value is R$ 200,00; its last close R$ 190,00; the IFIX closed 3.400 the day before.
    await ds.query(`INSERT INTO wh_client_positions (client_id, ticker, quantity, cost_amt, avg_price, is_demo, source) VALUES ($1, 'BTLG11', 10, 1000, 100, false, 'client')`, [
      duda.client_id,
    ]);
    await ds.query(`INSERT INTO wh_cvm_monthly (fii_cnpj, ref_date, ticker, equity_per_share, source) VALUES ('00.000.000/0001-00', '2026-09-30', 'HGBS11', 200, 'test')`);
    await ds.query(
      `INSERT INTO wh_prices (ticker, traded_at, close_price, frequency, source) VALUES ('HGBS11', '2026-11-25', 190, 'daily', 'test'), ('HGBS11', '2026-11-26', 184, 'daily', 'test')`,
    );
    await ds.query(`INSERT INTO wh_index_history (index_name, index_date, points, source) VALUES ('IFIX', '2026-11-26', 3400, 'test'), ('IFIX', '2026-11-27', 3315, 'test')`);
    const rules = [
      { tipo: 'nivel', medida: 'pvp', ticker: 'HGBS11', direcao: 'abaixo', valor: '0.9' },
      { tipo: 'variacao', ticker: 'HGBS11', direcao: 'abaixo', valor: '3' },
      { tipo: 'variacao', medida: 'ifix', valor: '2' },
      { tipo: 'nivel', medida: 'ifix', direcao: 'abaixo', valor: '3350' },
      { tipo: 'informe' },
    ];
    for (const args of rules) await createAlert(roomy, args, duda);
    expect((await listAlerts(roomy, duda)).alertas.map((a) => a.descricao)).toEqual([
      'quando o P/VP do HGBS11 ficar abaixo de 0,90',
      'quando a cotação do HGBS11 cair mais de 3,00% num dia',
      'quando o IFIX variar mais de 2,00% num dia',
      'quando o IFIX ficar abaixo de 3.350 pontos',
      'quando sair o informe mensal de um fundo da sua carteira',
    ]);
    const evaluator = new AlertEvaluator(ds);
    const fired: FiredAlert[] = [];
    const consumer = startAlertsConsumer(await connect(), evaluator, {
      log: quiet,
      ackWaitMs: 1000,
      onFired: (f) => fired.push(...f.filter((x) => x.client_id === duda.client_id)),
    });
    await consumer.ready;
    const evaluated = async (id: string) => until(async () => (await count('SELECT count(*) AS n FROM alert_evaluations WHERE event_id = $1', [id])) > 0);

    // HGBS11 closes at R$ 184,00 (from R$ 190,00: -3,16%; P/VP 184/200 = 0,92): the move fires, the P/VP not yet.
    await evaluated(await publish('priceClosed', { ticker: 'HGBS11', traded_at: '2026-11-26', close: 184 }));
    expect(fired.map((f) => f.body)).toEqual(['A cotação do HGBS11 caiu 3,16% em 26/11/2026 (de R$ 190,00 para R$ 184,00), mais que os 3,00% do alerta.']);
    // A new monthly report: book value R$ 210,00, so the last close gives P/VP 184/210 = 0,8762, below 0,90. Duda does not hold HGBS11.
    await evaluated(await publish('monthlyReportLoaded', { ticker: 'HGBS11', ref_month: '2026-10-31', equity_per_share: 210, dy_monthly_ratio: 0.0071 }));
    expect(fired.map((f) => f.body).slice(1)).toEqual(['O P/VP do HGBS11 ficou abaixo de 0,90: 0,88 em 26/11/2026.']);
    // The IFIX closes at 3.315 points (from 3.400: -2,50%): the move and the level both fire (two rules of one
    // event, in no set order).
    await evaluated(await publish('indicatorPublished', { indicator: 'IFIX', date: '2026-11-27', value: 3315, unit: 'pontos' }));
    expect(
      fired
        .map((f) => f.body)
        .slice(2)
        .sort(),
    ).toEqual([
      'O IFIX caiu 2,50% em 27/11/2026 (de 3.400 pontos para 3.315 pontos), mais que os 2,00% do alerta.',
      'O IFIX ficou abaixo de 3.350 pontos: 3.315 pontos em 27/11/2026.',
    ]);
    // A report of a fund Duda holds: notified and e-mailed; the same report delivered again changes nothing.
    const report = await publish('monthlyReportLoaded', { ticker: 'BTLG11', ref_month: '2026-10-31', equity_per_share: 98.76, dy_monthly_ratio: 0.0082 });
    await until(() => fired.length === 5);
    expect(fired[4]).toMatchObject({
      title: 'Informe mensal do BTLG11 (outubro de 2026)',
      body: 'Saiu o informe mensal de outubro de 2026 do BTLG11: valor patrimonial de R$ 98,76 por cota, rendimento de 0,82% no mês.',
    });
    const payload = {
      ...WAREHOUSE_EVENT_SAMPLES.monthlyReportLoaded,
      event_id: report,
      ticker: 'BTLG11',
      ref_month: '2026-10-31',
      equity_per_share: 98.76,
      dy_monthly_ratio: 0.0082,
      at: new Date().toISOString(),
    };
    expect(await evaluator.handle(WarehouseEvents.monthlyReportLoaded.subject, JSON.stringify(payload))).toEqual([]);
    const mails = await ds.query(`SELECT subject, body FROM email_outbox WHERE client_id = $1 AND subject LIKE '%Informe%'`, [duda.client_id]);
    expect(mails).toEqual([{ subject: 'Cota — Alerta: Informe mensal do BTLG11 (outubro de 2026)', body: fired[4].body }]);
    // A day that moved less than the rule's 3% does not fire.
    await evaluated(await publish('priceClosed', { ticker: 'HGBS11', traded_at: '2026-11-27', close: 183 }));
    expect(fired).toHaveLength(5);
    await consumer.stop();
    await roomy.erase(duda.client_id);
    await ds.query('DELETE FROM email_outbox WHERE client_id = $1', [duda.client_id]);
  });

  it('marks notifications read and erases a client’s rules and notifications', async () => {
    expect(await store.markRead(ana.client_id, null)).toBeGreaterThan(0);
    expect((await store.notifications(ana.client_id)).unread).toBe(0);
    const erased = await store.erase(ana.client_id);
    expect(erased.rules).toBe(3);
    await ds.query('DELETE FROM email_outbox WHERE client_id = $1', [ana.client_id]);
    expect(erased.notifications).toBeGreaterThan(0);
    expect(await store.list(ana.client_id)).toEqual([]);
    expect((await store.notifications(ana.client_id)).notifications).toEqual([]);
    expect((await store.list(bia.client_id)).length).toBe(3);
  });
});
