import { DynamicModule, Module } from '@nestjs/common';
import type { FeedsWorker } from '@cota/feeds';
import { ReadinessModule } from '@cota/service-kit';
import { FEEDS_WORKER, FeedsLifecycle } from './feeds.lifecycle';

/** The ingest worker: the live feeds on their schedule (no bus subjects of its own), and its readiness probe. */
@Module({})
export class IngestWorkerModule {
  static register(worker: FeedsWorker): DynamicModule {
    return { module: IngestWorkerModule, imports: [ReadinessModule], providers: [{ provide: FEEDS_WORKER, useValue: worker }, FeedsLifecycle] };
  }
}
