import { HashingEmbedder } from './embedder';
import { RagEngine } from './engine';
import { loadKnowledge } from './knowledge';
import { NewsItem, NewsSource } from './news';
import { loadRagPolicy } from './policy';
import { InMemoryChunkStore } from './store';

export interface Benchmark {
  name: string;
  /** Runs the measured work once; the bench runner repeats and times it. */
  run: () => Promise<void>;
  /** Target for the mean, in milliseconds (the runner reports a miss). */
  targetMeanMs?: number;
}

/** Synthetic headlines only to give the news index a realistic size; never shown to anyone. */
function syntheticNews(tickers: number, perTicker: number): NewsSource {
  const items: NewsItem[] = [];
  for (let t = 0; t < tickers; t++) {
    // BAAH11, BBAH11, ...: fund-shaped codes that no real fund uses.
    const ticker = `B${String.fromCharCode(65 + (t % 26))}${String.fromCharCode(65 + Math.floor(t / 26))}H11`;
    for (let i = 0; i < perTicker; i++) {
      items.push({
        ticker,
        source: 'benchmark',
        title: `Fundo ${ticker} comunica item ${i} sobre rendimentos, imóveis e emissão de cotas`,
        description: `Texto sintético de tamanho médio para o índice de notícias do benchmark, item ${i} do fundo ${ticker}.`,
        url: `https://bench.invalid/${ticker}/${i}`,
        published_at: `2025-${String((i % 12) + 1).padStart(2, '0')}-01`,
      });
    }
  }
  return { fingerprint: async () => `${items.length}`, load: async () => items };
}

/**
 * Retrieval benchmarks for `cli/bench.ts`: indexing, and the latency of one concept question and
 * one news question over an index of the knowledge base plus 90 funds × 40 news, in process (the
 * in-memory store: the vector half of the search; the lexical half is Postgres full-text search).
 */
export function retrievalBenchmarks(): Benchmark[] {
  const policy = loadRagPolicy();
  const knowledge = loadKnowledge();
  const make = (news: NewsSource) =>
    new RagEngine({
      policy,
      store: new InMemoryChunkStore(),
      embedder: new HashingEmbedder(policy.embedder.local_dim),
      knowledge: () => knowledge,
      news,
    });
  let ready: Promise<RagEngine> | null = null;
  const warm = () =>
    (ready ??= (async () => {
      const e = make(syntheticNews(90, 40));
      await e.ensureIndexed();
      return e;
    })());
  return [
    {
      name: 'retrieval: index the knowledge base + 100 news (hashing embedder, in-memory store)',
      run: async () => {
        await make(syntheticNews(5, 20)).ensureIndexed();
      },
      targetMeanMs: 400,
    },
    {
      name: 'retrieval: concept question (vector search in process, 3 collections)',
      run: async () => {
        const e = await warm();
        await e.buildContext({ question: 'o que é p/vp e como interpretar?', intent: 'concept', entity: null, tickers: [] });
      },
      targetMeanMs: 10,
    },
    {
      name: 'retrieval: news question filtered by ticker',
      run: async () => {
        const e = await warm();
        await e.buildContext({ question: 'últimas notícias sobre rendimentos', intent: 'fiis_noticias', entity: 'fiis_noticias', tickers: ['BAAH11'] });
      },
      targetMeanMs: 25,
    },
  ];
}
