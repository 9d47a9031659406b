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

describe('RagEngine (knowledge base + in-memory store)', () => {
  const policy = loadRagPolicy();
  let engine: RagEngine;
  let store: InMemoryChunkStore;

  beforeAll(async () => {
    store = new InMemoryChunkStore();
    engine = makeEngine(policy, store);
    expect(await engine.ensureIndexed()).toEqual(['knowledge', 'news']);
  });

  // A dozen concept questions and the document that must come first.
  const cases: Array<[string, string]> = [
    ['o que é p/vp?', 'pvp-valor-patrimonial'],
    ['vacancia', 'vacancia'],
    ['o que é um fundo imobiliário?', 'fii-o-que-e'],
    ['qual a diferença entre fundo de tijolo e de papel?', 'fii-tipos-tijolo-papel-hibrido-fof'],
    ['como funciona o IFIX?', 'ifix'],
    // The IFIL page names the IFIX ten times; the IFIX page is about it (its title leads with it).
    ['o que é o IFIX?', 'ifix'],
    ['o que é o IFIL?', 'ifil'],
    ['o que significa dividend yield em fii?', 'dividend-yield'],
    ['o que é o índice de sharpe', 'indice-sharpe'],
    ['o que significa sortino', 'indice-sortino'],
    ['o que é drawdown máximo?', 'drawdown-maximo'],
    ['o que é data com e data ex?', 'data-com-data-ex'],
    ['rendimentos de FII pagam imposto de renda?', 'imposto-de-renda-fii'],
    ['o que é cap rate', 'cap-rate'],
    ['o que é o IGP-M?', 'igpm'],
    ['como é calculado o dividend yield', 'dividend-yield'],
    ['o que é um CRI?', 'segmento-recebiveis-cri'],
    ['o que é beta de um fundo', 'beta'],
    ['o que você sabe fazer?', 'cota-o-que-sabe-fazer'],
    ['oque é vacancia fisica', 'vacancia'],
    ['quanto de imposto pago ao vender cotas', 'imposto-de-renda-fii'],
    ['como os juros afetam os fundos imobiliarios', 'juros-inflacao-e-fiis'],
    ['fundo de shopping', 'segmento-shoppings-varejo'],
    ['o que é dólar ptax', 'cambio'],
    ['quando cai o rendimento na conta', 'data-com-data-ex'],
  ];

  it.each(cases)('"%s" retrieves %s first', async (question, docId) => {
    const meta = await engine.buildContext({ question, intent: 'concept', entity: null, tickers: [] });
    expect(meta.enabled).toBe(true);
    expect(meta.error).toBeNull();
    expect(meta.chunks[0]?.doc_id).toBe(docId);
    expect(meta.chunks.length).toBeLessThanOrEqual(3);
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

  it('uses the macro collection for market indicators', async () => {
    const meta = await engine.buildContext({ question: 'o que é a selic?', intent: 'history_market_indicators', entity: 'history_market_indicators', tickers: [] });
    expect(meta.chunks[0]?.doc_id).toBe('selic');
    expect(meta.chunks.every((c) => c.collection === 'concepts-macro')).toBe(true);
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

  it('answers an unrelated question with no chunks rather than noise', async () => {
    const meta = await engine.buildContext({ question: 'quem ganhou a copa do mundo de futebol em 1970', intent: 'concept', entity: null, tickers: [] });
    expect(meta.enabled).toBe(true);
    expect(meta.chunks).toEqual([]);
    expect(meta.reason).toBe('no_relevant_chunks');
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
