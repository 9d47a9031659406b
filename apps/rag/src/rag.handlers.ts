import { Controller, OnModuleInit } from '@nestjs/common';
import { Events, RagSubjects, RequestOf } from '@cota/contracts';
import { RpcHandler, since, StepEvent } from '@cota/messaging';
import { RagEngine } from '@cota/retrieval';
import { createLogger } from '@cota/service-kit';

const log = createLogger('rag');

/** Serves `cota.rag.retrieve.v1` (context for an answer) and `cota.rag.reindex.v1`. */
@Controller()
export class RagHandlers implements OnModuleInit {
  constructor(private readonly engine: RagEngine) {}

  /** Index before serving: a replica never answers from a half-built index. */
  async onModuleInit(): Promise<void> {
    const t = performance.now();
    const indexed = await this.engine.ensureIndexed();
    log.info({ reindexed: indexed.join(',') || 'none', chunks: this.engine.loadedCounts(), ms: since(t) }, 'index ready');
  }

  @RpcHandler(RagSubjects.retrieve)
  @StepEvent(RagSubjects.retrieve, Events.ragRetrieved, {
    outcome: (meta) => (meta.error ? 'error' : meta.enabled ? 'ok' : 'skipped'),
    attributes: (req, meta) => ({
      intent: req.intent,
      entity: req.entity,
      enabled: meta.enabled,
      reason: meta.reason,
      chunks: meta.total_chunks,
      collections: meta.used_collections.join(','),
      top_score: meta.chunks[0]?.score ?? null,
    }),
  })
  retrieve(req: RequestOf<typeof RagSubjects.retrieve>) {
    return this.engine.buildContext({ question: req.question, intent: req.intent, entity: req.entity, tickers: req.tickers });
  }

  @RpcHandler(RagSubjects.reindex)
  async reindex(req: RequestOf<typeof RagSubjects.reindex>) {
    const start = performance.now();
    const res = await this.engine.reindex(req.collections);
    log.info({ indexed: res.indexed, ms: since(start) }, 'reindexed');
    return res;
  }
}
