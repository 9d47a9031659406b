import { Inject, Injectable } from '@nestjs/common';
import { Events, RagSubjects } from '@cota/contracts';
import { emitStep, since, TransportSubscription } from '@cota/messaging';
import { RagEngine } from '@cota/retrieval';
import { BusHandlers, HealthCheck, INFRA, Infra, Logger } from '@cota/service-kit';

const log = new Logger('rag');

@Injectable()
export class RagHandlers extends BusHandlers {
  constructor(
    @Inject(INFRA) infra: Infra,
    private readonly engine: RagEngine,
  ) {
    super(infra);
  }

  protected async subscribe(): Promise<TransportSubscription[]> {
    // Index before serving: a replica never answers from a half-built index.
    const t = performance.now();
    const indexed = await this.engine.ensureIndexed();
    log.info('index ready', { reindexed: indexed.join(',') || 'none', chunks: this.engine.loadedCounts(), ms: since(t) });

    return [
      this.infra.bus.serve(RagSubjects.retrieve, async (req) => {
        const start = performance.now();
        const meta = await this.engine.buildContext({ question: req.question, intent: req.intent, entity: req.entity, tickers: req.tickers });
        emitStep(this.infra.bus, Events.ragRetrieved, {
          request_id: req.request_id,
          outcome: meta.error ? 'error' : meta.enabled ? 'ok' : 'skipped',
          timings_ms: { total: since(start) },
          attributes: {
            intent: req.intent,
            entity: req.entity,
            enabled: meta.enabled,
            reason: meta.reason,
            chunks: meta.total_chunks,
            collections: meta.used_collections.join(','),
            top_score: meta.chunks[0]?.score ?? null,
          },
        });
        return meta;
      }),
      this.infra.bus.serve(RagSubjects.reindex, async (req) => {
        const start = performance.now();
        const res = await this.engine.reindex(req.collections);
        log.info('reindexed', { indexed: res.indexed, ms: since(start) });
        return res;
      }),
    ];
  }

  protected override healthChecks(): Record<string, HealthCheck> {
    return {
      index: async () => {
        if (!this.engine.loadedCounts().knowledge) throw new Error('knowledge index is not loaded');
      },
    };
  }
}
