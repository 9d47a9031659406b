import { QueryRunner } from 'typeorm';
import type { Migration } from '@cota/service-kit';

/**
 * Durable tool state: reports (owned by one client; every read filters by client_id) and the
 * e-mail outbox. A confirmed e-mail is a `queued` outbox row; @cota/mail's OutboxWorker delivers it
 * over SMTP (`sent` or, after its retries, `failed`) when SMTP_URL is set, otherwise it stays queued.
 */
export const toolsMigrations: Migration[] = [
  {
    id: '202611220100-tools-reports-outbox',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE TABLE IF NOT EXISTS tool_reports (
        report_id text PRIMARY KEY,
        client_id text NOT NULL,
        conversation_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('daily_briefing', 'filtered')),
        parent_report_id text NULL REFERENCES tool_reports (report_id),
        title text NOT NULL,
        content jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS tool_reports_client_created_idx ON tool_reports (client_id, created_at DESC)');
      await q.query(`CREATE TABLE IF NOT EXISTS email_outbox (
        message_id text PRIMARY KEY,
        client_id text NOT NULL,
        report_id text NOT NULL REFERENCES tool_reports (report_id),
        recipient text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
        request_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz NULL
      )`);
      await q.query("CREATE INDEX IF NOT EXISTS email_outbox_status_idx ON email_outbox (status, created_at) WHERE status = 'queued'");
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE IF EXISTS email_outbox');
      await q.query('DROP TABLE IF EXISTS tool_reports');
    },
  },
  {
    // A confirmed send is queued once even when the confirmation arrives twice.
    id: '202611220110-outbox-idempotency',
    async up(q: QueryRunner): Promise<void> {
      await q.query('ALTER TABLE email_outbox ADD COLUMN IF NOT EXISTS idempotency_key text NULL');
      await q.query('CREATE UNIQUE INDEX IF NOT EXISTS email_outbox_idempotency_idx ON email_outbox (idempotency_key)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP INDEX IF EXISTS email_outbox_idempotency_idx');
      await q.query('ALTER TABLE email_outbox DROP COLUMN IF EXISTS idempotency_key');
    },
  },
  {
    // SMTP delivery (@cota/mail's OutboxWorker): attempts so far, when the next one is due (also the
    // lease of a claimed message), and why the last one failed. Rows already queued become due now.
    id: '202611220120-outbox-delivery',
    async up(q: QueryRunner): Promise<void> {
      await q.query('ALTER TABLE email_outbox ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0');
      await q.query('ALTER TABLE email_outbox ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz NOT NULL DEFAULT now()');
      await q.query('ALTER TABLE email_outbox ADD COLUMN IF NOT EXISTS last_error text NULL');
      await q.query('ALTER TABLE email_outbox ADD COLUMN IF NOT EXISTS failed_at timestamptz NULL');
      await q.query("CREATE INDEX IF NOT EXISTS email_outbox_due_idx ON email_outbox (next_attempt_at) WHERE status = 'queued'");
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP INDEX IF EXISTS email_outbox_due_idx');
      for (const c of ['failed_at', 'last_error', 'next_attempt_at', 'attempts']) await q.query(`ALTER TABLE email_outbox DROP COLUMN IF EXISTS ${c}`);
    },
  },
  {
    // The yearly income-tax report is a stored report too, so "manda por e-mail" sends it.
    id: '202611270100-tools-reports-income-tax',
    async up(q: QueryRunner): Promise<void> {
      await q.query('ALTER TABLE tool_reports DROP CONSTRAINT IF EXISTS tool_reports_kind_check');
      await q.query(`ALTER TABLE tool_reports ADD CONSTRAINT tool_reports_kind_check CHECK (kind IN ('daily_briefing', 'filtered', 'income_tax'))`);
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('ALTER TABLE tool_reports DROP CONSTRAINT IF EXISTS tool_reports_kind_check');
      await q.query(`ALTER TABLE tool_reports ADD CONSTRAINT tool_reports_kind_check CHECK (kind IN ('daily_briefing', 'filtered'))`);
    },
  },
];
