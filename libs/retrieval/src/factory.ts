import type { DataSource } from 'typeorm';
import { CotaEnv } from '@cota/config';
import { Embedder, HashingEmbedder, OpenAiEmbedder } from './embedder';
import { RagEngine } from './engine';
import { loadKnowledge } from './knowledge';
import { PostgresNewsSource } from './news';
import { RagPolicy } from './policy';
import { PostgresChunkStore } from './store';

/**
 * The embedder the policy asks for: OpenAI-compatible embeddings only when the policy prefers
 * them AND an endpoint is configured; otherwise the local deterministic one.
 */
export function createEmbedder(policy: RagPolicy, openai: CotaEnv['openai']): { embedder: Embedder; reason: string } {
  const e = policy.embedder;
  if (e.prefer === 'openai') {
    if (openai.apiKey || openai.baseUrl) {
      return {
        embedder: new OpenAiEmbedder({ apiKey: openai.apiKey, baseUrl: openai.baseUrl, model: e.openai_model, timeoutMs: e.timeout_ms }),
        reason: 'policy prefers openai and an endpoint is configured',
      };
    }
    return { embedder: new HashingEmbedder(e.local_dim), reason: 'policy prefers openai but OPENAI_API_KEY/OPENAI_BASE_URL are not set' };
  }
  return { embedder: new HashingEmbedder(e.local_dim), reason: 'policy prefers the local embedder' };
}

/** A RagEngine over Postgres (chunks, state and the warehouse news) and the knowledge folder. */
export async function createPostgresRagEngine(opts: { ds: DataSource; policy: RagPolicy; embedder: Embedder; knowledgeDir?: string }): Promise<RagEngine> {
  const store = await PostgresChunkStore.open(opts.ds);
  return new RagEngine({
    policy: opts.policy,
    store,
    embedder: opts.embedder,
    knowledge: () => loadKnowledge(opts.knowledgeDir),
    news: new PostgresNewsSource(opts.ds, opts.policy.news.relation, opts.policy.news.max_items_per_ticker),
  });
}
