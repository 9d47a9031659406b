import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { WAREHOUSE_EVENTS_SUBJECTS } from '@cota/contracts';
import type { TransportSubscription } from '@cota/messaging';
import { INFRA, Infra, createLogger } from '@cota/service-kit';
import { PublicReadCache, warehouseChange } from '@cota/warehouse';

const log = createLogger('executor');

/**
 * Every executor replica hears every warehouse change event (no queue group) and drops from its read
 * cache what the event changed, so a new distribution, close or Selic is answered at once, not after the TTL.
 */
@Injectable()
export class ReadCacheInvalidation implements OnApplicationBootstrap, OnApplicationShutdown {
  private sub: TransportSubscription | null = null;

  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly cache: PublicReadCache,
  ) {}

  onApplicationBootstrap(): void {
    this.sub = this.infra.bus.transport.subscribe(WAREHOUSE_EVENTS_SUBJECTS, (subject, data) => {
      let change;
      try {
        change = warehouseChange(subject, JSON.parse(data));
      } catch {
        return; // not JSON: no event of the catalog
      }
      if (!change) return;
      const dropped = this.cache.invalidate(change);
      if (dropped) log.debug({ subject, dropped }, 'read cache: dropped reads a change made stale');
    });
  }

  onApplicationShutdown(): void {
    this.sub?.unsubscribe();
  }
}
