import { retrievalMigrations } from '@cota/retrieval';
import { ServiceDefinition } from '@cota/service-kit';
import { RagModule } from './rag.module';

/** The RAG service: knowledge base and warehouse news, indexed in Postgres, searched per question. */
export const ragService: ServiceDefinition = {
  name: 'rag',
  needsDatabase: true,
  needsRedis: false,
  migrations: retrievalMigrations,
  module: (infra) => RagModule.register(infra),
};
