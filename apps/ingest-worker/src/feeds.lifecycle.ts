import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { FeedsWorker } from '@cota/feeds';

export const FEEDS_WORKER = Symbol('FEEDS_WORKER');

/** Starts the feeds' schedule once the app is up; on shutdown stops the timers and lets runs in flight commit or roll back. */
@Injectable()
export class FeedsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(FEEDS_WORKER) private readonly worker: FeedsWorker) {}

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
