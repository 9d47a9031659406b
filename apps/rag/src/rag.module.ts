import { DynamicModule, Module } from '@nestjs/common';
import { createEmbedder, createPostgresRagEngine, loadRagPolicy, RagEngine } from '@cota/retrieval';
import { HealthProblem, healthChecksProvider, INFRA, Infra, createLogger, requireDatabase } from '@cota/service-kit';
import { RagHandlers } from './rag.handlers';

@Module({})
export class RagModule {
  static register(infra: Infra): DynamicModule {
    return {
      module: RagModule,
      providers: [
        { provide: INFRA, useValue: infra },
        {
          provide: RagEngine,
          // The policy is read once here; a bad rag.yaml stops the service with file and field.
          useFactory: async () => {
            const policy = loadRagPolicy();
            const { embedder, reason } = createEmbedder(policy, infra.env.openai);
            const engine = await createPostgresRagEngine({ ds: requireDatabase(infra), policy, embedder });
            createLogger('rag').info({ embedder: embedder.id, embedder_reason: reason, vector_backend: engine.vectorBackend }, 'rag engine ready');
            return engine;
          },
        },
        healthChecksProvider([RagEngine], (engine: RagEngine) => ({
          index: async () => {
            if (!engine.loadedCounts().knowledge) throw new HealthProblem('base de conhecimento não carregada');
          },
        })),
      ],
      controllers: [RagHandlers],
    };
  }
}
