import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import type { DataSource } from 'typeorm';
import { FeedError } from './errors';
import type { Feed, FeedName, Watermark } from './feed';
import type { Row } from './rows';
import { upsertRows } from './upsert';

export interface RetryOptions {
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export interface FeedRunResult {
  source: FeedName;
  outcome: 'ok' | 'failed';
  attempts: number;
  rowsAdded: number;
  rowsUpdated: number;
  /** Rows inserted or changed, by table: what the change events announce. */
  changes: Record<string, { inserted: Row[]; updated: Row[] }>;
  notes: string[];
  error: string | null;
}

/** Called inside the run's transaction with what changed (the events outbox writes there, so events and rows commit together). */
export type ChangeSink = (q: import('typeorm').QueryRunner, result: FeedRunResult) => Promise<unknown>;

export interface FeedRunnerOptions {
  retry: RetryOptions;
  /** Who claims a slot (host and pid), shown in /ops. */
  instance: string;
  /** A claimed slot whose run has not finished after this long may be claimed again (its replica died). */
  leaseMs: number;
  today: () => string;
  onChanges?: ChangeSink;
}

/**
 * Runs feeds: claims a schedule slot (once across replicas), reads the source from its watermark with
 * retries and backoff on transient failures, and writes rows and the new watermark in one transaction,
 * so a failed run leaves nothing half-written and the next run starts from the same place.
 */
export class FeedRunner {
  private readonly feeds: Map<FeedName, Feed>;

  constructor(
    private readonly ds: DataSource,
    feeds: Feed[],
    private readonly opts: FeedRunnerOptions,
  ) {
    this.feeds = new Map(feeds.map((f) => [f.name, f]));
  }

  names(): FeedName[] {
    return [...this.feeds.keys()];
  }

  /** Runs the slot `slot` of `source` unless another replica claimed it: null then. */
  async runSlot(source: FeedName, slot: Date): Promise<FeedRunResult | null> {
    const claimed = await this.ds.query(
      `INSERT INTO feed_runs (source, slot, claimed_by) VALUES ($1, $2, $3)
       ON CONFLICT (source, slot) DO UPDATE SET claimed_by = EXCLUDED.claimed_by, started_at = now(), attempts = 0, error = NULL
         WHERE feed_runs.finished_at IS NULL AND feed_runs.started_at < now() - make_interval(secs => $4)
       RETURNING 1`,
      [source, slot.toISOString(), this.opts.instance, this.opts.leaseMs / 1000],
    );
    if (!claimed.length) return null;
    return this.run(source, slot);
  }

  /** Runs `source` now (the ops endpoint and `npm run feeds`): a slot of its own. */
  async runNow(source: FeedName): Promise<FeedRunResult> {
    const slot = new Date();
    await this.ds.query('INSERT INTO feed_runs (source, slot, claimed_by) VALUES ($1, $2, $3)', [source, slot.toISOString(), `${this.opts.instance} (manual)`]);
    return this.run(source, slot);
  }

  private async run(source: FeedName, slot: Date): Promise<FeedRunResult> {
    const feed = this.feeds.get(source);
    if (!feed) throw new Error(`unknown feed ${source}`);
    await this.ds.query(`INSERT INTO feed_state (source) VALUES ($1) ON CONFLICT (source) DO NOTHING`, [source]);
    await this.ds.query('UPDATE feed_state SET last_attempt_at = now() WHERE source = $1', [source]);
    const result: FeedRunResult = { source, outcome: 'ok', attempts: 0, rowsAdded: 0, rowsUpdated: 0, changes: {}, notes: [], error: null };
    const policy = retry(
      handleWhen((e) => e instanceof FeedError && e.transient),
      {
        maxAttempts: Math.max(0, this.opts.retry.attempts - 1),
        backoff: new ExponentialBackoff({ initialDelay: this.opts.retry.initialDelayMs, maxDelay: this.opts.retry.maxDelayMs }),
      },
    );
    try {
      const batch = await policy.execute(async () => {
        result.attempts++;
        const [state] = await this.ds.query('SELECT watermark FROM feed_state WHERE source = $1', [source]);
        return feed.read((state?.watermark ?? {}) as Watermark, this.opts.today());
      });
      result.notes = batch.notes;
      await this.ds.transaction(async (m) => {
        const q = m.queryRunner!;
        // One writer per source at a time (a manual run next to a scheduled one waits here).
        await q.query('SELECT 1 FROM feed_state WHERE source = $1 FOR UPDATE', [source]);
        for (const [table, rows] of Object.entries(batch.tables)) {
          if (!rows.length) continue;
          const up = await upsertRows(q, table, rows);
          result.changes[table] = { inserted: up.inserted, updated: up.updated };
          result.rowsAdded += up.inserted.length;
          result.rowsUpdated += up.updated.length;
        }
        await q.query(
          `UPDATE feed_state SET watermark = $2::jsonb, data_until = COALESCE($3::date, data_until), last_success_at = now(), last_error = NULL,
             last_rows_added = $4::int, rows_added_total = rows_added_total + $4::int WHERE source = $1`,
          [source, JSON.stringify(batch.watermark), batch.dataUntil, result.rowsAdded],
        );
        await this.opts.onChanges?.(q, result);
        await this.finish(q, source, slot, result);
      });
    } catch (e) {
      result.outcome = 'failed';
      result.error = (e as Error).message;
      result.changes = {};
      result.rowsAdded = result.rowsUpdated = 0;
      await this.ds.query('UPDATE feed_state SET last_error = $2 WHERE source = $1', [source, result.error]);
      await this.finish(this.ds, source, slot, result);
    }
    return result;
  }

  private async finish(q: { query: DataSource['query'] }, source: FeedName, slot: Date, r: FeedRunResult): Promise<void> {
    await q.query(
      `UPDATE feed_runs SET finished_at = now(), outcome = $3, attempts = $4, rows_added = $5, rows_updated = $6, notes = $7::jsonb, error = $8
       WHERE source = $1 AND slot = $2`,
      [source, slot.toISOString(), r.outcome, r.attempts, r.rowsAdded, r.rowsUpdated, JSON.stringify(r.notes.slice(0, 50)), r.error],
    );
  }
}
