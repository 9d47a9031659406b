import { Counter, Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { daysBetween } from './dates';
import type { FeedName } from './feed';
import type { FeedRunResult } from './run-feed';

export interface FeedStatus {
  source: string;
  data_until: string | null;
  lag_days: number | null;
  max_lag_days: number | null;
  fresh: boolean | null;
  last_success_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  last_rows_added: number;
  rows_added_total: number;
  watermark: unknown;
  recent_runs: Array<{ slot: string; claimed_by: string; outcome: string | null; attempts: number; rows_added: number; notes: string[]; error: string | null }>;
}

/** What /ops/feeds shows: each source's watermark, freshness and its latest runs (from the database, the same on every replica). */
export async function feedStatus(ds: DataSource, maxLag: Partial<Record<FeedName, number>>, today: string): Promise<FeedStatus[]> {
  const states = await ds.query(
    `SELECT source, watermark, data_until::text AS data_until, last_success_at, last_attempt_at, last_error, last_rows_added, rows_added_total::int AS rows_added_total FROM feed_state ORDER BY source`,
  );
  const runs = await ds.query(
    `SELECT source, slot, claimed_by, outcome, attempts, rows_added, notes, error FROM (
       SELECT *, row_number() OVER (PARTITION BY source ORDER BY started_at DESC) AS n FROM feed_runs) r WHERE n <= 5 ORDER BY source, slot DESC`,
  );
  return states.map((s: Record<string, unknown>) => {
    const lag = s.data_until ? daysBetween(String(s.data_until), today) : null;
    const max = maxLag[s.source as FeedName] ?? null;
    return {
      source: String(s.source),
      data_until: (s.data_until as string | null) ?? null,
      lag_days: lag,
      max_lag_days: max,
      fresh: lag === null || max === null ? null : lag <= max,
      last_success_at: s.last_success_at ? new Date(s.last_success_at as string).toISOString() : null,
      last_attempt_at: s.last_attempt_at ? new Date(s.last_attempt_at as string).toISOString() : null,
      last_error: (s.last_error as string | null) ?? null,
      last_rows_added: Number(s.last_rows_added),
      rows_added_total: Number(s.rows_added_total),
      watermark: s.watermark,
      recent_runs: runs
        .filter((r: Record<string, unknown>) => r.source === s.source)
        .map((r: Record<string, unknown>) => ({
          slot: new Date(r.slot as string).toISOString(),
          claimed_by: String(r.claimed_by),
          outcome: (r.outcome as string | null) ?? null,
          attempts: Number(r.attempts),
          rows_added: Number(r.rows_added),
          notes: r.notes as string[],
          error: (r.error as string | null) ?? null,
        })),
    };
  });
}

/**
 * Feed metrics: freshness read from the database at scrape time (every replica reports the same
 * truth, whichever ran the slot), runs and rows counted by the replica that ran them.
 *   cota_feed_last_success_timestamp_seconds{source}, cota_feed_data_lag_days{source},
 *   cota_feed_max_lag_days{source} (the policy's limit, for the freshness alert),
 *   cota_feed_runs_total{source,outcome}, cota_feed_rows_added_total{source}
 */
export class FeedMetrics {
  private readonly runs: Counter<'source' | 'outcome'>;
  private readonly rows: Counter<'source'>;

  constructor(registry: Registry, ds: DataSource, maxLag: Partial<Record<FeedName, number>>, today: () => string) {
    // One query serves the three gauges of a scrape.
    let pending: Promise<void> | null = null;
    const collect = () => (pending ??= refresh().finally(() => setTimeout(() => (pending = null), 1000)));
    const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['source'], registers: [registry], collect });
    const lastSuccess = gauge('cota_feed_last_success_timestamp_seconds', 'When each feed last ran successfully (unix seconds)');
    const lag = gauge('cota_feed_data_lag_days', "Days between today (America/Sao_Paulo) and the newest date of each feed's data");
    const limit = gauge('cota_feed_max_lag_days', "The feeds policy's freshness limit per source (days)");
    const refresh = async () => {
      for (const s of await feedStatus(ds, maxLag, today())) {
        if (s.last_success_at) lastSuccess.set({ source: s.source }, Date.parse(s.last_success_at) / 1000);
        if (s.lag_days !== null) lag.set({ source: s.source }, s.lag_days);
      }
      for (const [source, max] of Object.entries(maxLag)) if (max !== undefined) limit.set({ source }, max);
    };
    this.runs = new Counter({
      name: 'cota_feed_runs_total',
      help: 'Feed runs by outcome, counted by the replica that ran them',
      labelNames: ['source', 'outcome'],
      registers: [registry],
    });
    this.rows = new Counter({ name: 'cota_feed_rows_added_total', help: 'Warehouse rows each feed added', labelNames: ['source'], registers: [registry] });
    // A series exists from start-up for every configured feed, so rate() and absence alerts see a 0, not nothing.
    for (const source of Object.keys(maxLag)) this.rows.inc({ source }, 0);
  }

  record(r: FeedRunResult): void {
    this.runs.inc({ source: r.source, outcome: r.outcome });
    if (r.rowsAdded) this.rows.inc({ source: r.source }, r.rowsAdded);
  }
}
