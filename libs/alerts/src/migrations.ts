import type { QueryRunner } from 'typeorm';
import type { Migration } from '@cota/service-kit';

/**
 * The clients' alerts: their rules, one row per (rule, event) evaluated (its primary key is what makes
 * an event redelivered to the evaluator change nothing the second time), and the notifications.
 */
export const alertsMigrations: Migration[] = [
  {
    id: '202611280100-alerts',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE TABLE IF NOT EXISTS alert_rules (
        rule_id text PRIMARY KEY,
        client_id text NOT NULL,
        rule jsonb NOT NULL,
        description text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'paused')),
        -- Whether the level was met at the last event evaluated: a level rule fires when it becomes met.
        last_met boolean NULL,
        -- A confirmation repeated creates the rule once.
        idempotency_key text NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS alert_rules_client_idx ON alert_rules (client_id, created_at)');
      await q.query(`CREATE INDEX IF NOT EXISTS alert_rules_active_key_idx ON alert_rules ((coalesce(rule->>'ticker', rule->>'measure'))) WHERE status = 'active'`);
      await q.query(`CREATE TABLE IF NOT EXISTS alert_evaluations (
        rule_id text NOT NULL REFERENCES alert_rules (rule_id) ON DELETE CASCADE,
        event_id text NOT NULL,
        fired boolean NOT NULL,
        evaluated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (rule_id, event_id)
      )`);
      await q.query(`CREATE TABLE IF NOT EXISTS client_notifications (
        notification_id bigserial PRIMARY KEY,
        client_id text NOT NULL,
        rule_id text NULL REFERENCES alert_rules (rule_id) ON DELETE SET NULL,
        event_id text NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz NULL
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS client_notifications_client_idx ON client_notifications (client_id, notification_id DESC)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE IF EXISTS client_notifications');
      await q.query('DROP TABLE IF EXISTS alert_evaluations');
      await q.query('DROP TABLE IF EXISTS alert_rules');
    },
  },
  {
    // An alert is also e-mailed through the tools' outbox, which sends stored reports: a fired alert is a
    // one-section report of kind 'alert' (only where the tools' tables exist).
    id: '202611280110-alerts-email-reports',
    async up(q: QueryRunner): Promise<void> {
      const [t] = await q.query(`SELECT to_regclass('tool_reports') IS NOT NULL AS ok`);
      if (!t?.ok) return;
      await q.query('ALTER TABLE tool_reports DROP CONSTRAINT IF EXISTS tool_reports_kind_check');
      await q.query(`ALTER TABLE tool_reports ADD CONSTRAINT tool_reports_kind_check CHECK (kind IN ('daily_briefing', 'filtered', 'income_tax', 'alert'))`);
    },
    async down(q: QueryRunner): Promise<void> {
      const [t] = await q.query(`SELECT to_regclass('tool_reports') IS NOT NULL AS ok`);
      if (!t?.ok) return;
      await q.query(`DELETE FROM email_outbox WHERE report_id IN (SELECT report_id FROM tool_reports WHERE kind = 'alert')`);
      await q.query(`DELETE FROM tool_reports WHERE kind = 'alert'`);
      await q.query('ALTER TABLE tool_reports DROP CONSTRAINT IF EXISTS tool_reports_kind_check');
      await q.query(`ALTER TABLE tool_reports ADD CONSTRAINT tool_reports_kind_check CHECK (kind IN ('daily_briefing', 'filtered', 'income_tax'))`);
    },
  },
  {
    // A rule is found by what it watches: its fund, else its market measure, else its kind (a monthly
    // report of any fund the client holds).
    id: '202611280300-alerts-watch-key',
    async up(q: QueryRunner): Promise<void> {
      await q.query('DROP INDEX IF EXISTS alert_rules_active_key_idx');
      await q.query(
        `CREATE INDEX IF NOT EXISTS alert_rules_active_watch_idx ON alert_rules ((coalesce(rule->>'ticker', rule->>'measure', rule->>'kind'))) WHERE status = 'active'`,
      );
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP INDEX IF EXISTS alert_rules_active_watch_idx');
      await q.query(`CREATE INDEX IF NOT EXISTS alert_rules_active_key_idx ON alert_rules ((coalesce(rule->>'ticker', rule->>'measure'))) WHERE status = 'active'`);
    },
  },
];
