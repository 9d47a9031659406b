import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ExecutorSubjects } from '@cota/contracts';
import { Bus } from '@cota/messaging';
import { Planner } from '@cota/planning';
import { createLogger } from '@cota/service-kit';

export interface FundListLoaderOptions {
  /** First retry delay; doubles up to maxRetryMs while the executor does not answer. */
  retryMs: number;
  maxRetryMs: number;
  /** How often a loaded list is refreshed from the warehouse. */
  refreshMs: number;
}

export const DEFAULT_FUND_LIST_OPTIONS: FundListLoaderOptions = { retryMs: 500, maxRetryMs: 15_000, refreshMs: 10 * 60_000 };

/**
 * Keeps the planner's fund list in step with the warehouse: asks the executor at start-up
 * (retrying with backoff, logging while it waits) and every `refreshMs` after. Until the first
 * answer the planner recognises tickers by pattern only, and readiness reports it.
 */
export class FundListLoader implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private attempts = 0;
  private loadedAt: Date | null = null;
  private readonly log = createLogger('planner.funds');

  constructor(
    private readonly bus: Bus,
    private readonly planner: Planner,
    private readonly opts: FundListLoaderOptions = DEFAULT_FUND_LIST_OPTIONS,
  ) {}

  get loaded(): boolean {
    return this.loadedAt !== null;
  }

  /** Nest starts the loader once the service serves its subjects, and stops it on shutdown. */
  onApplicationBootstrap(): void {
    this.start();
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  start(): void {
    this.stopped = false;
    void this.load();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async load(): Promise<void> {
    if (this.stopped) return;
    try {
      const { funds } = await this.bus.call(ExecutorSubjects.funds, {});
      if (this.stopped) return;
      if (funds.length === 0) throw new Error('the executor returned an empty fund list (warehouse not ingested yet?)');
      this.planner.setFunds(funds);
      const first = !this.loaded;
      this.loadedAt = new Date();
      this.attempts = 0;
      if (first) this.log.info({ funds: this.planner.fundCount }, 'fund list loaded');
      this.schedule(this.opts.refreshMs);
    } catch (e) {
      if (this.stopped) return;
      this.attempts++;
      const delay = Math.min(this.opts.retryMs * 2 ** (this.attempts - 1), this.opts.maxRetryMs);
      // A failed refresh keeps the list we have; only the first load leaves the planner on patterns.
      this.log.warn(
        {
          attempt: this.attempts,
          retry_in_ms: delay,
          error: (e as Error).message,
        },
        this.loaded ? 'fund list refresh failed; keeping the current list' : 'waiting for the fund list from the executor',
      );
      this.schedule(this.loaded ? Math.min(delay, this.opts.refreshMs) : delay);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.load(), ms);
    this.timer.unref();
  }
}
