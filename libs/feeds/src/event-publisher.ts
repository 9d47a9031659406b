import type { DataSource } from 'typeorm';
import type { SchedulerLog } from './scheduler';

/** Where the outbox's events go: the JetStream stream (distributed) or the in-process bus (embedded). */
export interface ChangeEventSink {
  /** Resolves once the event is stored (or recognised as already stored by its id). */
  publish(subject: string, data: string, eventId: string): Promise<unknown>;
}

interface OutboxRow {
  event_id: string;
  subject: string;
  payload: Record<string, unknown>;
}

/**
 * Moves the committed change events of `feed_events` to the bus, oldest first, and marks them published.
 * The outbox is written in the run's own transaction, so only committed changes are announced, exactly as
 * recorded. A batch is locked (`FOR UPDATE SKIP LOCKED`: replicas share the work) and marked only after
 * every publish of it was acknowledged; when one fails the batch stays unpublished and is sent again later,
 * and the stream recognises the events it already has by their id (`Nats-Msg-Id` = `event_id`).
 */
export class OutboxPublisher {
  private running: Promise<number> | null = null;
  private again = false;

  constructor(
    private readonly ds: DataSource,
    private readonly sink: ChangeEventSink,
    private readonly log: SchedulerLog,
    private readonly batchSize = 500,
  ) {}

  /** Publishes everything unpublished; concurrent calls share one pass (and one more when called during it). */
  drain(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const pass = async (): Promise<number> => {
      let total = 0;
      do {
        this.again = false;
        for (;;) {
          const n = await this.publishBatch();
          total += n;
          if (n < this.batchSize) break;
        }
      } while (this.again);
      return total;
    };
    this.running = pass().finally(() => (this.running = null));
    return this.running;
  }

  /** Like `drain`, but a failure is logged (the next pass sends the same events again). */
  async drainQuietly(): Promise<void> {
    try {
      const n = await this.drain();
      if (n) this.log.info({ events: n }, 'change events published');
    } catch (e) {
      this.log.warn({ error: (e as Error).message }, 'change events not published yet');
    }
  }

  /** Forgets published events older than the stream keeps them (the outbox is no second archive). */
  async prune(maxAgeMs: number): Promise<number> {
    const r = await this.ds.query(
      `WITH gone AS (DELETE FROM feed_events WHERE published_at IS NOT NULL AND created_at < now() - make_interval(secs => $1) RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      [maxAgeMs / 1000],
    );
    return r[0].n;
  }

  private async publishBatch(): Promise<number> {
    const q = this.ds.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      const rows = (await q.query('SELECT event_id, subject, payload FROM feed_events WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED', [
        this.batchSize,
      ])) as OutboxRow[];
      // In order, in pipelined groups: the stream keeps one connection's publishes in the order sent.
      for (let i = 0; i < rows.length; i += 64) {
        await Promise.all(rows.slice(i, i + 64).map((r) => this.sink.publish(r.subject, JSON.stringify(r.payload), r.event_id)));
      }
      if (rows.length) await q.query('UPDATE feed_events SET published_at = now() WHERE event_id = ANY($1)', [rows.map((r) => r.event_id)]);
      await q.commitTransaction();
      return rows.length;
    } catch (e) {
      if (q.isTransactionActive) await q.rollbackTransaction().catch(() => undefined);
      throw e;
    } finally {
      await q.release();
    }
  }
}

/**
 * The change events stored since `since`, oldest first: the outbox read as a log. In embedded mode there is
 * no JetStream, so this is where `npm run events --since` finds them (empty when the feeds never ran there).
 */
export async function storedChangeEvents(ds: DataSource, since: Date, limit = 100_000): Promise<Array<{ subject: string; payload: Record<string, unknown> }>> {
  const exists = (await ds.query(`SELECT to_regclass('feed_events') IS NOT NULL AS ok`))[0]?.ok;
  if (!exists) return [];
  return ds.query('SELECT subject, payload FROM feed_events WHERE created_at >= $1 ORDER BY seq LIMIT $2', [since.toISOString(), limit]);
}
