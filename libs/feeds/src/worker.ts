import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { RecurringJob } from '@cota/service-kit';
import { saoPauloToday } from './dates';
import { FEED_NAMES, type FeedName } from './feed';
import { FeedMetrics, feedStatus, type FeedStatus } from './feed-status';
import { buildFeeds, type FeedsPolicy } from './policy';
import { FeedRunner, type ChangeSink, type FeedRunResult } from './run-feed';
import { FeedScheduler, type SchedulerLog } from './scheduler';
import { storeChangeEvents } from './change-events';
import { OutboxPublisher, type ChangeEventSink } from './event-publisher';

export interface FeedsWorker {
  runner: FeedRunner;
  /** Moves the outbox's change events to the bus; null when the worker has no sink. */
  publisher: OutboxPublisher | null;
  start(): void;
  stop(): Promise<void>;
  status(): Promise<FeedStatus[]>;
  /** Runs one source now, outside its schedule (`npm run feeds -- <source>`). */
  runNow(source: FeedName): Promise<FeedRunResult>;
}

/** The worker's parts from a validated policy: the feeds, the runner with its claim, the schedule and the metrics. */
export function createFeedsWorker(
  ds: DataSource,
  policy: FeedsPolicy,
  opts: {
    registry?: Registry;
    log: SchedulerLog;
    instance?: string;
    today?: () => string;
    onChanges?: ChangeSink;
    /** Where committed change events are published (the JetStream stream, or the in-process bus); none: they stay in the outbox. */
    events?: ChangeEventSink;
  },
): FeedsWorker {
  const today = opts.today ?? (() => saoPauloToday());
  const runner = new FeedRunner(ds, buildFeeds(policy), {
    retry: { attempts: policy.retry.attempts, initialDelayMs: policy.retry.initial_delay_ms, maxDelayMs: policy.retry.max_delay_ms },
    instance: opts.instance ?? `${hostname()}:${process.pid}`,
    leaseMs: policy.lease_s * 1000,
    today,
    // Every committed run stores its change events in the outbox (feed_events), in the same transaction.
    onChanges: async (q, r) => {
      await storeChangeEvents(q, r);
      await opts.onChanges?.(q, r);
    },
  });
  const maxLag = Object.fromEntries(FEED_NAMES.filter((n) => policy.sources[n].enabled).map((n) => [n, policy.sources[n].max_lag_days])) as Partial<Record<FeedName, number>>;
  const metrics = opts.registry ? new FeedMetrics(opts.registry, ds, maxLag, today) : null;
  const publisher = opts.events ? new OutboxPublisher(ds, opts.events, opts.log) : null;
  // A run's events are published as soon as it committed; the sweep retries what a failed publish left.
  const record = (r: FeedRunResult) => {
    metrics?.record(r);
    if (r.outcome === 'ok' && r.rowsAdded + r.rowsUpdated > 0) void publisher?.drainQuietly();
  };
  const scheduled = runner.names().map((name) => ({ name, schedule: policy.sources[name].schedule }));
  const scheduler = new FeedScheduler(runner, scheduled, policy.timezone, opts.log, record);
  // At start and every sweep_every_s (croner): what a failed publish left, then what the stream no longer keeps.
  // Replicas sweep side by side: the publisher's batches are claimed row by row (FOR UPDATE SKIP LOCKED).
  const keepMs = policy.events.max_age_days * 86_400_000;
  const sweep = publisher
    ? new RecurringJob('feed-events-sweep', policy.events.sweep_every_s, async () => {
        await publisher.drainQuietly();
        await publisher.prune(keepMs).catch((e: Error) => opts.log.warn({ error: e.message }, 'feed_events not pruned'));
      })
    : null;
  return {
    runner,
    publisher,
    start: () => {
      scheduler.start();
      sweep?.start();
    },
    stop: async () => {
      await sweep?.stop();
      await scheduler.stop();
      await publisher?.drainQuietly();
    },
    status: () => feedStatus(ds, maxLag, today()),
    runNow: async (source) => {
      const r = await runner.runNow(source);
      metrics?.record(r);
      if (r.outcome === 'ok') await publisher?.drainQuietly();
      return r;
    },
  };
}
