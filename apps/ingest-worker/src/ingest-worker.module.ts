import { DynamicModule, Module } from '@nestjs/common';
import type { FeedsWorker } from '@cota/feeds';
import { FEEDS_WORKER, FeedsLifecycle } from './feeds.lifecycle';

/** The ingest worker: the live feeds on their schedule (no bus subjects of its own). */
@Module({})
export class IngestWorkerModule {
  static register(worker: FeedsWorker): DynamicModule {
    return { module: IngestWorkerModule, providers: [{ provide: FEEDS_WORKER, useValue: worker }, FeedsLifecycle] };
  }
}
