import { RagEngine, titleSubject } from './engine';
import { HashingEmbedder } from './embedder';
import { loadKnowledge } from './knowledge';
import { NewsItem, NewsSource } from './news';
import { loadRagPolicy, RagPolicy } from './policy';
import { InMemoryChunkStore } from './store';

class FakeNews implements NewsSource {
  constructor(public items: NewsItem[]) {}
  async fingerprint() {
    return `${this.items.length}`;
  }
  async load() {
    return this.items;
  }
}

const NEWS: NewsItem[] = [
  {
    ticker: 'HGLG11',
    source: 'Portal A',
    title: 'HGLG11 anuncia compra de galpão logístico em Extrema',
    description: 'O fundo adquiriu um galpão de 50 mil m².',
    url: 'https://example.org/a1',
    published_at: '2025-10-01',
  },
  {
    ticker: 'HGLG11',
    source: 'Portal B',
    title: 'HGLG11 mantém rendimento de R$ 1,10 por cota',
    description: 'Distribuição referente a setembro.',
    url: 'https://example.org/a2',
    published_at: '2025-09-15',
  },
  {
    ticker: 'KNRI11',
    source: 'Portal A',
    title: 'KNRI11 renova contrato de laje corporativa',
    description: 'Inquilino renovou por cinco anos.',
    url: 'https://example.org/b1',
    published_at: '2025-08-20',
  },
];

function makeEngine(policy: RagPolicy, store = new InMemoryChunkStore(), news: NewsSource | null = new FakeNews(NEWS), now = () => 0) {
  return new RagEngine({ policy, store, embedder: new HashingEmbedder(policy.embedder.local_dim), knowledge: () => loadKnowledge(), news, now });
}

/** The engine's bookkeeping (indexing, replicas, news sync, failures, budget); how it ranks is tested on Postgres (test/rag/retrieval.int.spec.ts). */
describe('RagEngine (knowledge base + in-memory store)', () => {
  const policy = loadRagPolicy();
  let engine: RagEngine;
  let store: InMemoryChunkStore;

  beforeAll(async () => {
    store = new InMemoryChunkStore();
    engine = makeEngine(policy, store);
    expect(await engine.ensureIndexed()).toEqual(['knowledge', 'news']);
  });

  it('denies tabular intents without searching', async () => {
    const meta = await engine.buildContext({ question: 'cnpj do HGLG11', intent: 'fiis_cadastro', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    expect(meta).toEqual({ enabled: false, reason: 'intent_denied', used_collections: [], chunks: [], total_chunks: 0, policy: null, error: null });
  });

  it('filters news by the tickers of the question and keeps source and url', async () => {
    const meta = await engine.buildContext({ question: 'últimas notícias do HGLG11', intent: 'fiis_noticias', entity: 'fiis_noticias', tickers: ['HGLG11'] });
    const news = meta.chunks.filter((c) => c.collection === 'fiis_noticias');
    expect(news.map((c) => c.source_id).sort()).toEqual(['https://example.org/a1', 'https://example.org/a2']);
    expect(news[0].text).toContain('Fonte: Portal');
    expect(meta.chunks.slice(0, 2).every((c) => c.collection === 'fiis_noticias')).toBe(true);
    expect(meta.used_collections).toEqual(['fiis_noticias', 'concepts-fiis', 'concepts-risk']);
    expect(meta.policy).toMatchObject({ rule: 'rag.entities.fiis_noticias', max_chunks: 6, profile: 'default' });
  });

  it('does not re-index an unchanged corpus and re-indexes on demand', async () => {
    const writes = store.writes;
    const again = makeEngine(policy, store);
    expect(await again.ensureIndexed()).toEqual([]);
    expect(store.writes).toBe(writes);
    const res = await again.reindex(['concepts-risk']);
    expect(res.embedder).toMatch(/^hashing-v1-512-[0-9a-z]+$/);
    expect(res.indexed['concepts-risk']).toBeGreaterThan(5);
    expect(Object.keys(res.indexed)).toEqual(['concepts-risk']);
    await expect(again.reindex(['nope'])).rejects.toThrow(/unknown collection/);
  });

  it('picks up a re-index made by another replica after the check interval', async () => {
    let t = 0;
    const s = new InMemoryChunkStore();
    const news = new FakeNews(NEWS.slice(0, 1));
    const a = makeEngine(policy, s, news, () => t);
    const b = makeEngine(policy, s, news, () => t);
    await a.ensureIndexed();
    await b.ensureIndexed();
    news.items = NEWS;
    await a.reindex(['fiis_noticias']);
    const ask = () => b.buildContext({ question: 'notícias', intent: 'fiis_noticias', entity: 'fiis_noticias', tickers: ['KNRI11'] });
    expect((await ask()).chunks.filter((c) => c.collection === 'fiis_noticias')).toHaveLength(0);
    t += policy.cache_check_seconds * 1000 + 1;
    expect((await ask()).chunks.filter((c) => c.collection === 'fiis_noticias')).toHaveLength(1);
  });

  it('indexes news that appear after start-up (warehouse ingested later) in the background', async () => {
    let t = 0;
    const news = new FakeNews([]);
    const e = makeEngine(policy, new InMemoryChunkStore(), news, () => t);
    expect(await e.ensureIndexed()).toEqual(['knowledge', 'news']);
    news.items = NEWS;
    const ask = () => e.buildContext({ question: 'notícias', intent: 'fiis_noticias', entity: 'fiis_noticias', tickers: ['HGLG11'] });
    expect((await ask()).chunks.filter((c) => c.collection === 'fiis_noticias')).toHaveLength(0);
    t += policy.cache_check_seconds * 1000 + 1;
    await ask(); // starts the sync without waiting for it
    await e.settled();
    expect((await ask()).chunks.filter((c) => c.collection === 'fiis_noticias')).toHaveLength(2);
    expect(await e.syncNews()).toBe(false); // unchanged now
  });

  it('a replica that lost the race does not rewrite what another indexed', async () => {
    const s = new InMemoryChunkStore();
    const a = makeEngine(policy, s);
    const b = makeEngine(policy, s);
    await Promise.all([a.ensureIndexed(), b.ensureIndexed()]);
    expect(s.writes).toBe(2); // knowledge + news once, not twice
  });

  it('returns enabled:false with the error when the store fails, never throws', async () => {
    const broken = new InMemoryChunkStore();
    broken.readStates = async () => {
      throw new Error('connection refused');
    };
    const meta = await makeEngine(policy, broken).buildContext({ question: 'o que é p/vp', intent: 'concept', entity: null, tickers: [] });
    expect(meta.enabled).toBe(false);
    expect(meta.reason).toBe('error');
    expect(meta.error).toContain('connection refused');
  });

  it('respects max_context_chars', async () => {
    const tight: RagPolicy = { ...policy, profiles: { ...policy.profiles, concept: { ...policy.profiles.concept, max_context_chars: 300 } } };
    const e = makeEngine(tight, store);
    await e.reload();
    const meta = await e.buildContext({ question: 'o que é p/vp?', intent: 'concept', entity: null, tickers: [] });
    expect(meta.chunks.reduce((n, c) => n + c.text.length, 0)).toBeLessThanOrEqual(300);
    expect(meta.chunks.length).toBeGreaterThan(0);
  });
});

describe('titleSubject', () => {
  it.each([
    ['IFIX - Índice de Fundos de Investimentos Imobiliários', 'ifix'],
    ['IGP-M - Índice Geral de Preços do Mercado', 'igpm'],
    ['Dividend yield (DY) mensal e em 12 meses', 'dividend yield'],
    ['P/VP e valor patrimonial por cota (VP, NAV)', 'pvp'],
    ['Taxa Selic', 'taxa selic'],
  ])('%s', (title, subject) => expect(titleSubject(title)).toBe(subject));
});
