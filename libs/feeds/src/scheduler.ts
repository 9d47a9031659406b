import { Cron } from 'croner';
import type { Logger } from '@cota/service-kit';
import type { FeedName } from './feed';
import type { FeedRunner, FeedRunResult } from './run-feed';
import { currentSlot } from './schedule';

export interface ScheduledFeed {
  name: FeedName;
  schedule: string;
}

export type SchedulerLog = Pick<Logger, 'info' | 'warn'>;

/**
 * Fires each feed on its cron schedule (croner, in the policy's time zone) and runs the slot through
 * the runner's claim, so with several replicas (or the embedded timer next to a worker) each slot runs
 * once. At start it also runs the slot in course, so a worker that was down catches up at once; a slot
 * some replica already ran is skipped by the claim.
 */
export class FeedScheduler {
  private readonly jobs: Cron[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly runner: FeedRunner,
    private readonly feeds: ScheduledFeed[],
    private readonly timezone: string,
    private readonly log: SchedulerLog,
    private readonly onResult?: (r: FeedRunResult) => void,
  ) {}

  start(): void {
    for (const f of this.feeds) {
      this.jobs.push(new Cron(f.schedule, { timezone: this.timezone, protect: true }, () => this.fire(f, new Date())));
      this.fire(f, new Date());
    }
  }

  /** Stops the timers and waits for the runs in flight (their transaction commits or rolls back whole). */
  async stop(): Promise<void> {
    for (const j of this.jobs) j.stop();
    await Promise.allSettled([...this.inFlight]);
  }

  private fire(f: ScheduledFeed, now: Date): void {
    // A timer may fire a few ms early or late: the slot is the schedule's last firing up to half a second from now.
    const slot = currentSlot(f.schedule, this.timezone, new Date(now.getTime() + 500));
    if (!slot) return;
    const run = this.runner.runSlot(f.name, slot).then(
      (r) => {
        if (!r) return;
        if (r.outcome === 'ok') this.log.info({ source: r.source, rows_added: r.rowsAdded, rows_updated: r.rowsUpdated, attempts: r.attempts, notes: r.notes.length }, 'feed run');
        else this.log.warn({ source: r.source, attempts: r.attempts, error: r.error }, 'feed run failed');
        this.onResult?.(r);
      },
      (e) => this.log.warn({ source: f.name, error: (e as Error).message }, 'feed run could not start'),
    );
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }
}
