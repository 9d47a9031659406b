import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TurnRetentionSweeper } from '@cota/conversation';

/**
 * The scheduled retention job of the context service (policies/retention.yaml): sweeps the
 * conversation turns past `max_age_days` once the service is up, then every
 * `sweep_interval_seconds`; on shutdown it waits for a sweep in flight before the database closes.
 */
@Injectable()
export class RetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(private readonly sweeper: TurnRetentionSweeper) {}

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
  }
}
