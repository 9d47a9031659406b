import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Report } from './report';

export interface StoredReport {
  client_id: string;
  conversation_id: string;
  report: Report;
}

/** Reports, always read on behalf of one client: another client's id reads as "not found". */
export interface ReportRepository {
  save(entry: StoredReport): Promise<void>;
  findForClient(clientId: string, reportId: string): Promise<Report | null>;
}

export interface OutboxMessage {
  client_id: string;
  report_id: string;
  recipient: string;
  subject: string;
  body: string;
  request_id: string;
  /** Same key, same message: a repeated confirmation queues nothing new. */
  idempotency_key: string | null;
}

export interface QueuedMessage extends OutboxMessage {
  message_id: string;
  status: 'queued';
  created_at: string;
}

/** Queues mail in the outbox; a worker (@cota/mail) delivers it when SMTP is configured. */
export interface Mailer {
  /** True when queued messages are delivered (SMTP_URL set); false: they are only stored. */
  readonly delivers: boolean;
  queue(message: OutboxMessage): Promise<QueuedMessage>;
}

/** The client's registered contact (from the warehouse's clients table). */
export interface ClientDirectory {
  emailOf(clientId: string): Promise<string | null>;
}

export class PgReportRepository implements ReportRepository {
  constructor(private readonly db: DataSource) {}

  async save({ client_id, conversation_id, report }: StoredReport): Promise<void> {
    await this.db.query(
      `INSERT INTO tool_reports (report_id, client_id, conversation_id, kind, parent_report_id, title, content, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
      [report.report_id, client_id, conversation_id, report.kind, report.parent_report_id, report.title, JSON.stringify(report), report.generated_at],
    );
  }

  async findForClient(clientId: string, reportId: string): Promise<Report | null> {
    const rows: Array<{ content: Report | string }> = await this.db.query('SELECT content FROM tool_reports WHERE report_id = $1 AND client_id = $2', [reportId, clientId]);
    if (!rows.length) return null;
    const c = rows[0].content;
    return typeof c === 'string' ? (JSON.parse(c) as Report) : c;
  }
}

export interface OutboxMailerOptions {
  /** A delivery worker runs (SMTP_URL set). Default false: messages stay `queued`. */
  delivers?: boolean;
  /** Called after a new message is inserted (wakes the delivery worker); not on a repeated confirmation. */
  onQueued?: () => void;
}

/** Records the message in `email_outbox` with status `queued`; delivery is the worker's (@cota/mail). */
export class OutboxMailer implements Mailer {
  readonly delivers: boolean;

  constructor(
    private readonly db: DataSource,
    private readonly options: OutboxMailerOptions = {},
  ) {
    this.delivers = options.delivers ?? false;
  }

  async queue(m: OutboxMessage): Promise<QueuedMessage> {
    const rows: Array<{ message_id: string; created_at: Date | string }> = await this.db.query(
      `INSERT INTO email_outbox (message_id, client_id, report_id, recipient, subject, body, status, request_id, idempotency_key)
       VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING message_id, created_at`,
      [`msg_${randomUUID()}`, m.client_id, m.report_id, m.recipient, m.subject, m.body, m.request_id, m.idempotency_key],
    );
    const row =
      rows[0] ?? (await this.db.query('SELECT message_id, created_at FROM email_outbox WHERE idempotency_key = $1 AND client_id = $2', [m.idempotency_key, m.client_id]))[0];
    if (!row) throw new Error('outbox insert conflicted with another client');
    if (rows[0]) this.options.onQueued?.();
    return { ...m, message_id: row.message_id, status: 'queued', created_at: new Date(row.created_at).toISOString() };
  }
}

/** Registered e-mail from the warehouse's `wh_clients` table (demo clients: <id>@exemplo.com.br). */
export class PgClientDirectory implements ClientDirectory {
  constructor(private readonly db: DataSource) {}

  async emailOf(clientId: string): Promise<string | null> {
    try {
      const rows: Array<{ email: string | null }> = await this.db.query('SELECT email FROM wh_clients WHERE client_id = $1', [clientId]);
      return rows[0]?.email ?? null;
    } catch (e) {
      // Before the warehouse is built the table does not exist: no registered address, not a crash.
      if ((e as { code?: string }).code === '42P01') return null;
      throw e;
    }
  }
}

/** In-memory versions for unit tests and tools that run without a database. */
export class InMemoryReportRepository implements ReportRepository {
  readonly entries: StoredReport[] = [];
  async save(entry: StoredReport): Promise<void> {
    if (this.entries.some((e) => e.report.report_id === entry.report.report_id)) throw new Error(`duplicate report ${entry.report.report_id}`);
    this.entries.push(structuredClone(entry));
  }
  async findForClient(clientId: string, reportId: string): Promise<Report | null> {
    const e = this.entries.find((x) => x.report.report_id === reportId && x.client_id === clientId);
    return e ? structuredClone(e.report) : null;
  }
}

export class InMemoryOutbox implements Mailer {
  readonly messages: QueuedMessage[] = [];
  constructor(readonly delivers = false) {}
  async queue(m: OutboxMessage): Promise<QueuedMessage> {
    const existing = m.idempotency_key ? this.messages.find((x) => x.idempotency_key === m.idempotency_key) : undefined;
    if (existing) return existing;
    const q: QueuedMessage = { ...m, message_id: `msg_${this.messages.length + 1}`, status: 'queued', created_at: new Date().toISOString() };
    this.messages.push(q);
    return q;
  }
}

export class InMemoryClientDirectory implements ClientDirectory {
  constructor(private readonly emails: Record<string, string>) {}
  async emailOf(clientId: string): Promise<string | null> {
    return this.emails[clientId] ?? null;
  }
}
