import type { DataSource, QueryRunner } from 'typeorm';
import { alertCatalog, type AlertCatalog } from '@cota/catalog';
import { DistributionAnnounced, MonthlyReportLoaded, warehouseEventBySubject, WarehouseEvents } from '@cota/contracts';
import { AlertRule, meets, movedEnough, notificationText, type Observation } from './rule';
import { OBSERVERS } from './observers';

/** A notification just written (the gateway's live stream pushes it). */
export interface FiredAlert {
  client_id: string;
  notification_id: number;
  rule_id: string;
  title: string;
  body: string;
}

interface Candidate {
  rule_id: string;
  client_id: string;
  rule: AlertRule;
  last_met: boolean | null;
}

/**
 * Evaluates the clients' active rules against one warehouse change event. Each (rule, event) is evaluated
 * once: the `alert_evaluations` row, its notification and the rule's new state are written in one
 * transaction, and an event delivered again (the evaluator died after committing and before acknowledging
 * it) finds its rows already there and changes nothing. A level rule fires when its level becomes met
 * (not on every event while it stays met); a daily move on each day that moved enough; a distribution
 * or monthly-report rule on each new announcement or report. The kinds and measures are
 * policies/alerts.yaml's; how an event gives a measure's value is its observer (./observers).
 */
export class AlertEvaluator {
  constructor(
    private readonly ds: DataSource,
    private readonly catalog: AlertCatalog = alertCatalog(),
  ) {}

  async handle(subject: string, data: string): Promise<FiredAlert[]> {
    const def = warehouseEventBySubject(subject);
    if (!def) return [];
    // An event that breaks its contract can never become valid: it concerns no rule (and is not delivered again).
    let parsed;
    try {
      parsed = def.payload.safeParse(JSON.parse(data));
    } catch {
      return [];
    }
    if (!parsed.success) return [];
    const payload = parsed.data as { event_id: string; at: string };
    const key = eventKeys(subject, payload, this.catalog);
    if (!key) return [];
    const q = this.ds.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      const rows = (await q.query(
        // A rule hears the changes found after it was created, not the stream's history.
        `SELECT rule_id, client_id, rule, last_met FROM alert_rules
          WHERE status = 'active' AND coalesce(rule->>'ticker', rule->>'measure', rule->>'kind') = ANY($1) AND created_at <= $2::timestamptz
          ORDER BY rule_id FOR UPDATE`,
        [key, payload.at],
      )) as Candidate[];
      const fired: FiredAlert[] = [];
      for (const c of rows) {
        const rule = AlertRule.parse(c.rule);
        const o = await this.observe(q, rule, c.client_id, subject, payload);
        if (!o) continue;
        const met = rule.kind === 'level' ? meets(rule, o.value!) : rule.kind === 'move' ? movedEnough(rule, o.value!) : true;
        // A level fires when it becomes met; the other kinds each time.
        const fire = rule.kind === 'level' ? met && c.last_met !== true : met;
        const first = await q.query('INSERT INTO alert_evaluations (rule_id, event_id, fired) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1', [
          c.rule_id,
          payload.event_id,
          fire,
        ]);
        if (!first.length) continue; // evaluated already: a redelivery
        if (rule.kind === 'level') await q.query('UPDATE alert_rules SET last_met = $2 WHERE rule_id = $1', [c.rule_id, met]);
        if (!fire) continue;
        const text = notificationText(rule, o, this.catalog);
        const n = await q.query('INSERT INTO client_notifications (client_id, rule_id, event_id, title, body) VALUES ($1, $2, $3, $4, $5) RETURNING notification_id', [
          c.client_id,
          c.rule_id,
          payload.event_id,
          text.title,
          text.body,
        ]);
        const notificationId = Number(n[0].notification_id);
        await queueEmail(q, c.client_id, notificationId, text, o.date);
        fired.push({ client_id: c.client_id, notification_id: notificationId, rule_id: c.rule_id, ...text });
      }
      await q.commitTransaction();
      return fired;
    } catch (e) {
      if (q.isTransactionActive) await q.rollbackTransaction().catch(() => undefined);
      throw e;
    } finally {
      await q.release();
    }
  }

  /** What the event says about this rule (null: nothing). */
  private async observe(q: QueryRunner, rule: AlertRule, clientId: string, subject: string, payload: unknown): Promise<Observation | null> {
    if (rule.kind === 'distribution') {
      if (subject !== WarehouseEvents.distributionAnnounced.subject) return null;
      const p = DistributionAnnounced.parse(payload);
      if (p.change !== 'new' || p.ticker !== rule.ticker) return null;
      return { value: p.amount_per_share, date: p.record_date, distribution: { amount_per_share: p.amount_per_share, record_date: p.record_date, payment_date: p.payment_date } };
    }
    if (rule.kind === 'monthly_report') {
      if (subject !== WarehouseEvents.monthlyReportLoaded.subject) return null;
      const p = MonthlyReportLoaded.parse(payload);
      if (p.change !== 'new' || !p.ticker) return null;
      if (rule.ticker ? p.ticker !== rule.ticker : !(await holds(q, clientId, p.ticker))) return null;
      return { value: null, date: p.ref_month, report: { ticker: p.ticker, ref_month: p.ref_month, equity_per_share: p.equity_per_share, dy_monthly_ratio: p.dy_monthly_ratio } };
    }
    const measure = this.catalog.measure(rule.measure);
    if (!measure) return null;
    const observer = OBSERVERS[measure.observe];
    const now = await observer.read(q, measure, rule.ticker, subject, payload);
    if (!now) return null;
    if (rule.kind === 'level') return now;
    if ((payload as { change?: string }).change !== 'new' || !observer.before) return null;
    const before = await observer.before(q, measure, rule.ticker, now.date!);
    if (!before) return null;
    const change = Math.round(((now.value! - before) / before) * 10_000) / 100;
    return { value: change, date: now.date, move: { from: before, to: now.value! } };
  }
}

/**
 * The alert by e-mail, in the same transaction as its notification: a one-section report in the tools'
 * outbox (the executor's OutboxWorker sends it when SMTP_URL is set), to the e-mail the client has on
 * record. Nothing when the client has none, or where the tools' tables do not exist.
 */
async function queueEmail(q: QueryRunner, clientId: string, notificationId: number, text: { title: string; body: string }, asOf: string | null): Promise<void> {
  const [ready] = await q.query(`SELECT to_regclass('email_outbox') IS NOT NULL AND to_regclass('wh_clients') IS NOT NULL AS ok`);
  if (!ready?.ok) return;
  const [client] = await q.query('SELECT email FROM wh_clients WHERE client_id = $1', [clientId]);
  if (!client?.email) return;
  const reportId = `alert_${notificationId}`;
  const report = {
    report_id: reportId,
    kind: 'alert',
    title: `Alerta: ${text.title}`,
    generated_at: new Date().toISOString(),
    parent_report_id: null,
    filters: null,
    sections: [{ id: 'alerta', title: text.title, columns: [], rows: [], as_of: asOf, note: text.body }],
    sources: ['alertas do Cota'],
    text: text.body,
  };
  await q.query(
    `INSERT INTO tool_reports (report_id, client_id, conversation_id, kind, parent_report_id, title, content) VALUES ($1, $2, 'alertas', 'alert', NULL, $3, $4::jsonb)`,
    [reportId, clientId, report.title, JSON.stringify(report)],
  );
  await q.query(
    `INSERT INTO email_outbox (message_id, client_id, report_id, recipient, subject, body, status, request_id, idempotency_key)
     VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8) ON CONFLICT (idempotency_key) DO NOTHING`,
    [`msg_${reportId}`, clientId, reportId, client.email, `Cota — ${report.title}`, text.body, `alert-${notificationId}`, `${clientId}:alert:${notificationId}`],
  );
}

/** Which rules an event may concern: by fund ticker, by the market measure a series is, or (a monthly report) by kind. */
function eventKeys(subject: string, p: Record<string, unknown>, catalog: AlertCatalog): string[] | null {
  if (subject === WarehouseEvents.indicatorPublished.subject) {
    const measures = catalog.measures.filter((m) => m.scope === 'market' && m.series === p.indicator).map((m) => m.id);
    return measures.length ? measures : null;
  }
  if (typeof p.ticker !== 'string') return null;
  // A monthly report also concerns the rules on "any fund of my portfolio" (no ticker).
  return subject === WarehouseEvents.monthlyReportLoaded.subject ? [p.ticker, 'monthly_report'] : [p.ticker];
}

/** Whether the client holds the fund now (its positions, derived from its ledger). */
async function holds(q: QueryRunner, clientId: string, ticker: string): Promise<boolean> {
  const [ready] = await q.query(`SELECT to_regclass('wh_client_positions') IS NOT NULL AS ok`);
  if (!ready?.ok) return false;
  return (await q.query('SELECT 1 FROM wh_client_positions WHERE client_id = $1 AND ticker = $2 AND quantity > 0', [clientId, ticker])).length > 0;
}
