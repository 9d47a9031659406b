import type { DataSource, QueryRunner } from 'typeorm';
import { DistributionAnnounced, IndicatorPublished, PriceClosed, warehouseEventBySubject, WarehouseEvents } from '@cota/contracts';
import { AlertRule, INDICATOR_OF, meets, notificationText, type Observation } from './rule';

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
 * (not on every event while it stays met); a distribution rule fires on each new announcement.
 */
export class AlertEvaluator {
  constructor(private readonly ds: DataSource) {}

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
    const key = eventKey(subject, payload);
    if (!key) return [];
    const q = this.ds.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      const rows = (await q.query(
        // A rule hears the changes found after it was created, not the stream's history.
        `SELECT rule_id, client_id, rule, last_met FROM alert_rules
          WHERE status = 'active' AND coalesce(rule->>'ticker', rule->>'measure') = ANY($1) AND created_at <= $2::timestamptz
          ORDER BY rule_id FOR UPDATE`,
        [key, payload.at],
      )) as Candidate[];
      const fired: FiredAlert[] = [];
      for (const c of rows) {
        const rule = AlertRule.parse(c.rule);
        const o = await observe(q, rule, subject, payload);
        if (!o) continue;
        const met = rule.kind === 'distribution' ? true : meets(rule, o.value!);
        const fire = rule.kind === 'distribution' ? true : met && c.last_met !== true;
        const first = await q.query('INSERT INTO alert_evaluations (rule_id, event_id, fired) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1', [
          c.rule_id,
          payload.event_id,
          fire,
        ]);
        if (!first.length) continue; // evaluated already: a redelivery
        if (rule.kind === 'level') await q.query('UPDATE alert_rules SET last_met = $2 WHERE rule_id = $1', [c.rule_id, met]);
        if (!fire) continue;
        const text = notificationText(rule, o);
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

/** Which rules an event may concern: by fund ticker, or by the market measure an indicator is. */
function eventKey(subject: string, p: Record<string, unknown>): string[] | null {
  if (subject === WarehouseEvents.indicatorPublished.subject) {
    const measure = Object.entries(INDICATOR_OF).find(([, name]) => name === p.indicator)?.[0];
    return measure ? [measure] : null;
  }
  return typeof p.ticker === 'string' ? [p.ticker] : null;
}

/** What the event says about this rule (null: nothing). */
async function observe(q: QueryRunner, rule: AlertRule, subject: string, payload: unknown): Promise<Observation | null> {
  if (subject === WarehouseEvents.distributionAnnounced.subject) {
    const p = DistributionAnnounced.parse(payload);
    if (rule.kind === 'distribution') {
      if (p.change !== 'new' || p.ticker !== rule.ticker) return null;
      return { value: p.amount_per_share, date: p.record_date, distribution: { amount_per_share: p.amount_per_share, record_date: p.record_date, payment_date: p.payment_date } };
    }
    return rule.measure === 'dy' ? dy12m(q, p.ticker, p.record_date, null) : null;
  }
  if (rule.kind !== 'level') return null;
  if (subject === WarehouseEvents.priceClosed.subject) {
    const p = PriceClosed.parse(payload);
    if (p.close === null) return null;
    if (rule.measure === 'price') return { value: p.close, date: p.traded_at };
    return rule.measure === 'dy' ? dy12m(q, p.ticker, p.traded_at, p.close) : null;
  }
  if (subject === WarehouseEvents.indicatorPublished.subject) {
    const p = IndicatorPublished.parse(payload);
    return p.value === null || INDICATOR_OF[rule.measure] !== p.indicator ? null : { value: p.value, date: p.date };
  }
  return null;
}

/**
 * The fund's dividend yield over 12 months on a day (docs/METRICS.md's DY 12m): the distributions with a
 * record date in the 12 months up to it, over the close of that day (or the last close before it), in %.
 */
async function dy12m(q: QueryRunner, ticker: string, day: string, close: number | null): Promise<Observation | null> {
  const [r] = await q.query(
    `SELECT (SELECT sum(dividend_amt) FROM wh_dividends WHERE ticker = $1 AND traded_until_date > ($2::date - interval '12 months') AND traded_until_date <= $2::date)::float8 AS paid,
            (SELECT close_price FROM wh_prices WHERE ticker = $1 AND traded_at <= $2::date AND close_price > 0 ORDER BY traded_at DESC LIMIT 1)::float8 AS close`,
    [ticker, day],
  );
  const price = close ?? r?.close ?? null;
  if (!price || r?.paid === null || r?.paid === undefined) return null;
  return { value: Math.round((r.paid / price) * 10_000) / 100, date: day };
}
