import type { DataSource } from 'typeorm';
import type { MailEnv } from '@cota/config';
import { createLogger, Logger, RecurringJob } from '@cota/service-kit';
import type { Report } from '@cota/tools';
import { renderPlainEmail, renderReportEmail, RenderedEmail } from './render';
import { decideAfterFailure, DEFAULT_RETRY_POLICY, DeliveryFailure, failureCode, failureDetail, RetryPolicy } from './retry';
import { createSmtpSender, MailSender } from './smtp-sender';

export interface OutboxWorkerOptions {
  /** From header, e.g. "Cota <nao-responda@cota.local>". */
  from: string;
  retry?: Partial<RetryPolicy>;
  /** Slow poll (ms): besides the wake-up after each insert and the due retries, finds what other replicas queued. */
  pollMs?: number;
  /**
   * A claimed message is hidden from other workers this long (ms); if this worker dies while
   * sending, another takes it up afterwards (the attempt counts). Must exceed one send's timeouts.
   */
  leaseMs?: number;
  /**
   * A message still queued this long after it was queued (ms) is not sent any more but marked
   * `failed`: a report e-mail from days ago (e.g. stored while no server was configured) would
   * only surprise its reader. Default one day.
   */
  maxAgeMs?: number;
  /** How long `stop()` waits for a send in flight before giving up on it (its lease then expires). */
  stopTimeoutMs?: number;
  random?: () => number;
  log?: MailLog;
}

/** Where the worker logs (a service-kit Logger by default). */
export type MailLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface OutboxPassStats {
  sent: number;
  retried: number;
  failed: number;
  expired: number;
}

interface ClaimedMessage {
  message_id: string;
  client_id: string;
  report_id: string;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
}

const DEFAULTS = { pollMs: 30_000, leaseMs: 5 * 60_000, maxAgeMs: 24 * 60 * 60_000, stopTimeoutMs: 15_000 };

/** Rows of an UPDATE ... RETURNING: TypeORM's postgres driver answers `[rows, rowCount]` for UPDATE. */
function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return (Array.isArray(result) ? result : []) as T[];
}

/** Domain of the From address, for Message-ID headers. */
function fromDomain(from: string): string {
  const m = from.match(/@([A-Za-z0-9.-]+)>?\s*$/);
  return m ? m[1].toLowerCase() : 'cota.local';
}

/**
 * Delivers the `email_outbox`: claims one due message at a time (`FOR UPDATE SKIP LOCKED`, so any
 * number of executor replicas share the queue without sending a message twice), renders the report
 * as HTML + text, sends it, and records the outcome: `sent` (sent_at), a retry with exponential
 * backoff (attempts, next_attempt_at, last_error), or `failed` after the last attempt or a permanent
 * rejection. A pass runs right after `wake()` (each insert); otherwise a croner job looks every second
 * whether one is due: the earliest queued message's next attempt, or the slow poll for what other
 * replicas queued. Replicas need no lock between them (the claim is per row), and a retry is due "not
 * before" its time, so a second's resolution is enough (the backoff starts at 30 s). `stop()` lets the
 * send in flight finish. Logs carry message ids and error codes only, never addresses or report content.
 */
export class OutboxWorker {
  private readonly retry: RetryPolicy;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly maxAgeMs: number;
  private readonly stopTimeoutMs: number;
  private readonly domain: string;
  private readonly log: MailLog;
  /** Every second: a pass when one is due (`dueAt`). */
  private readonly job = new RecurringJob('email-outbox', 1, () => this.passIfDue());
  private started = false;
  private pass: Promise<OutboxPassStats> | null = null;
  private stopping = false;
  /** When the next pass is due (epoch ms): now after a wake-up, else the next queued message's attempt or the slow poll. */
  private dueAt = 0;
  /** Wake-ups so far: one during a pass means the pass may not have seen what was queued. */
  private wakes = 0;

  constructor(
    private readonly db: DataSource,
    private readonly sender: MailSender,
    private readonly options: OutboxWorkerOptions,
  ) {
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.pollMs = options.pollMs ?? DEFAULTS.pollMs;
    this.leaseMs = options.leaseMs ?? DEFAULTS.leaseMs;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULTS.maxAgeMs;
    this.stopTimeoutMs = options.stopTimeoutMs ?? DEFAULTS.stopTimeoutMs;
    this.domain = fromDomain(options.from);
    this.log = options.log ?? createLogger('mail');
  }

  get running(): boolean {
    return this.started && !this.stopping;
  }

  /** Starts the schedule, with a pass now (idempotent). */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    this.job.start();
    this.log.info({ poll_ms: this.pollMs, max_attempts: this.retry.maxAttempts }, 'outbox delivery started');
  }

  /** Something was queued: deliver now instead of at the next poll. */
  wake(): void {
    if (!this.running) return;
    this.wakes++;
    this.dueAt = 0;
    void this.passIfDue();
  }

  /** Stops the schedule, waits for the send in flight (bounded by stopTimeoutMs), closes the transport. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const running = this.started || this.pass ? Promise.all([this.job.stop(), this.pass]) : null;
    if (running) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        running.then(
          () => false,
          () => false,
        ),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), this.stopTimeoutMs))),
      ]);
      clearTimeout(timer);
      if (timedOut) this.log.warn({ timeout_ms: this.stopTimeoutMs }, 'outbox delivery stopped with a send in flight');
    }
    this.sender.close();
    this.log.info('outbox delivery stopped');
  }

  /** Delivers everything due now, one message at a time; concurrent calls share one pass. */
  runOnce(): Promise<OutboxPassStats> {
    if (!this.pass) this.pass = this.drain().finally(() => (this.pass = null));
    return this.pass;
  }

  /** A pass when one is due, then when the next one is. */
  private async passIfDue(): Promise<void> {
    if (this.stopping || Date.now() < this.dueAt) return;
    const wakes = this.wakes;
    let nextInMs = this.pollMs;
    try {
      await this.runOnce();
      nextInMs = await this.msUntilNextDue();
    } catch (e) {
      // Database unreachable and the like: try again at the next poll.
      this.log.warn({ error: (e as { code?: string }).code ?? (e as Error).name }, 'outbox delivery pass failed');
    }
    // Woken during the pass: what was queued may have come after its last claim, so look again at the next tick.
    this.dueAt = this.wakes === wakes ? Date.now() + nextInMs : 0;
  }

  /** Time until the earliest queued message is due (a retry, or another worker's lease), at most pollMs. */
  private async msUntilNextDue(): Promise<number> {
    const rows: Array<{ ms: number | string | null }> = await this.db.query(
      `SELECT EXTRACT(EPOCH FROM (min(next_attempt_at) - clock_timestamp())) * 1000 AS ms
         FROM email_outbox WHERE status = 'queued' AND created_at > now() - ($1::float8 * interval '1 millisecond')`,
      [this.maxAgeMs],
    );
    const ms = rows[0]?.ms;
    if (ms === null || ms === undefined) return this.pollMs;
    return Math.min(this.pollMs, Math.max(0, Math.ceil(Number(ms))));
  }

  private async drain(): Promise<OutboxPassStats> {
    const stats: OutboxPassStats = { sent: 0, retried: 0, failed: 0, expired: 0 };
    stats.expired = await this.expireStale();
    while (!this.stopping) {
      const message = await this.claim();
      if (!message) break;
      await this.deliver(message, stats);
    }
    return stats;
  }

  private async expireStale(): Promise<number> {
    const result: unknown = await this.db.query(
      `UPDATE email_outbox
          SET status = 'failed', failed_at = now(), last_error = 'expired: still queued ' || $2::text || ' h after it was queued'
        WHERE status = 'queued' AND next_attempt_at <= now() AND created_at <= now() - ($1::float8 * interval '1 millisecond')
        RETURNING message_id`,
      [this.maxAgeMs, String(Math.round(this.maxAgeMs / 3_600_000))],
    );
    const list = returnedRows<{ message_id: string }>(result);
    for (const r of list) this.log.warn({ message_id: r.message_id }, 'e-mail expired unsent');
    return list.length;
  }

  /** Takes the next due message and leases it (attempts + 1, next_attempt_at = now + lease), atomically. */
  private async claim(): Promise<ClaimedMessage | null> {
    const result: unknown = await this.db.query(
      `UPDATE email_outbox o
          SET attempts = o.attempts + 1, next_attempt_at = now() + ($1::float8 * interval '1 millisecond')
         FROM (SELECT message_id FROM email_outbox
                WHERE status = 'queued' AND next_attempt_at <= now() AND created_at > now() - ($2::float8 * interval '1 millisecond')
                ORDER BY next_attempt_at, created_at
                LIMIT 1
                FOR UPDATE SKIP LOCKED) due
        WHERE o.message_id = due.message_id
        RETURNING o.message_id, o.client_id, o.report_id, o.recipient, o.subject, o.body, o.attempts`,
      [this.leaseMs, this.maxAgeMs],
    );
    return returnedRows<ClaimedMessage>(result)[0] ?? null;
  }

  private async render(m: ClaimedMessage): Promise<RenderedEmail> {
    try {
      // Scoped by client like every report read.
      const rows: Array<{ content: Report | string }> = await this.db.query('SELECT content FROM tool_reports WHERE report_id = $1 AND client_id = $2', [m.report_id, m.client_id]);
      const c = rows[0]?.content;
      if (c) return renderReportEmail(typeof c === 'string' ? (JSON.parse(c) as Report) : c);
    } catch (e) {
      this.log.warn({ message_id: m.message_id, error: (e as Error).name }, 'report unreadable, sending the stored text');
    }
    return renderPlainEmail(m.subject, m.body);
  }

  private async deliver(m: ClaimedMessage, stats: OutboxPassStats): Promise<void> {
    try {
      const { html, text } = await this.render(m);
      await this.sender.send({ from: this.options.from, to: m.recipient, subject: m.subject, html, text, messageId: `<${m.message_id}@${this.domain}>` });
    } catch (e) {
      await this.failed(m, (e ?? {}) as DeliveryFailure, stats);
      return;
    }
    await this.db.query("UPDATE email_outbox SET status = 'sent', sent_at = now(), last_error = NULL WHERE message_id = $1", [m.message_id]);
    stats.sent++;
    this.log.info({ message_id: m.message_id, attempts: m.attempts }, 'e-mail sent');
  }

  private async failed(m: ClaimedMessage, f: DeliveryFailure, stats: OutboxPassStats): Promise<void> {
    const decision = decideAfterFailure(m.attempts, f, this.retry, this.options.random);
    const fields = { message_id: m.message_id, attempts: m.attempts, error: failureCode(f) };
    if (decision.action === 'retry') {
      await this.db.query(
        "UPDATE email_outbox SET next_attempt_at = now() + ($2::float8 * interval '1 millisecond'), last_error = $3 WHERE message_id = $1 AND status = 'queued'",
        [m.message_id, decision.delayMs, failureDetail(f)],
      );
      stats.retried++;
      this.log.warn({ ...fields, retry_in_ms: decision.delayMs }, 'e-mail not sent, will retry');
    } else {
      await this.db.query("UPDATE email_outbox SET status = 'failed', failed_at = now(), last_error = $2 WHERE message_id = $1", [m.message_id, failureDetail(f)]);
      stats.failed++;
      this.log.error({ ...fields, reason: decision.reason }, 'e-mail failed for good');
    }
  }
}

/** The worker for the environment's SMTP settings (env.mail). */
export function createOutboxWorker(db: DataSource, mail: MailEnv, extra: Omit<OutboxWorkerOptions, 'from' | 'retry' | 'pollMs'> = {}): OutboxWorker {
  return new OutboxWorker(db, createSmtpSender(mail.smtpUrl), {
    ...extra,
    from: mail.from,
    pollMs: mail.pollMs,
    retry: { maxAttempts: mail.maxAttempts, baseDelayMs: mail.retryBaseMs, maxDelayMs: mail.retryMaxMs },
  });
}
