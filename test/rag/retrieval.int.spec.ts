import type { DataSource } from 'typeorm';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { HashingEmbedder, loadKnowledge, loadRagPolicy, NewsItem, PostgresChunkStore, RagEngine, RagPolicy, retrievalMigrations } from '@cota/retrieval';
import { createTestDatabase, TestDatabase } from '@cota/test-support';
import { startPgliteProcess } from '../warehouse/pglite-process';

/**
 * How retrieval ranks, on the store the services use: the hashing embedder's cosine fused with
 * Postgres full-text search (the portuguese configuration with unaccent), on the real Postgres and
 * on PGlite as embedded mode runs it.
 */
const NEWS: NewsItem[] = [
  {
    ticker: 'HGLG11',
    source: 'Portal de teste',
    title: 'HGLG11 anuncia compra de galpão logístico',
    description: 'Texto de teste.',
    url: 'https://test.invalid/a1',
    published_at: '2025-10-01',
  },
  {
    ticker: 'KNRI11',
    source: 'Portal de teste',
    title: 'KNRI11 renova contrato de laje corporativa',
    description: 'Texto de teste.',
    url: 'https://test.invalid/b1',
    published_at: '2025-08-20',
  },
];

async function engineOn(ds: DataSource, policy: RagPolicy): Promise<RagEngine> {
  await runMigrations(ds, retrievalMigrations);
  const engine = new RagEngine({
    policy,
    store: await PostgresChunkStore.open(ds),
    embedder: new HashingEmbedder(policy.embedder.local_dim),
    knowledge: () => loadKnowledge(),
    news: { fingerprint: async () => String(NEWS.length), load: async () => NEWS },
  });
  await engine.ensureIndexed();
  return engine;
}

const concept = (engine: RagEngine, question: string) => engine.buildContext({ question, intent: 'concept', entity: null, tickers: [] });

describe('retrieval ranking on the real Postgres (full-text search + vectors)', () => {
  const policy = loadRagPolicy();
  let db: TestDatabase;
  let ds: DataSource;
  let engine: RagEngine;

  beforeAll(async () => {
    db = await createTestDatabase('retrieval');
    ds = await openDatabase({ url: db.url, poolSize: 2 });
    engine = await engineOn(ds, policy);
  }, 120_000);

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
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
    const meta = await concept(engine, question);
    expect(meta.enabled).toBe(true);
    expect(meta.error).toBeNull();
    expect(meta.chunks[0]?.doc_id).toBe(docId);
    expect(meta.chunks.length).toBeLessThanOrEqual(3);
  });

  it('uses the macro collection for market indicators', async () => {
    const meta = await engine.buildContext({ question: 'o que é a selic?', intent: 'history_market_indicators', entity: 'history_market_indicators', tickers: [] });
    expect(meta.chunks[0]?.doc_id).toBe('selic');
    expect(meta.chunks.every((c) => c.collection === 'concepts-macro')).toBe(true);
  });

  it('answers an unrelated question with no chunks rather than noise', async () => {
    const meta = await engine.buildContext({ question: 'quem ganhou a copa do mundo de futebol em 1970', intent: 'concept', entity: null, tickers: [] });
    expect(meta.enabled).toBe(true);
    expect(meta.chunks).toEqual([]);
    expect(meta.reason).toBe('no_relevant_chunks');
  });

  it('matches a word with or without its accents, and in another inflection', async () => {
    const store = await PostgresChunkStore.open(ds);
    const collections = ['concepts-fiis', 'concepts-risk', 'concepts-macro'];
    const top = async (q: string) =>
      [...(await store.lexicalSearch(q, 'knowledge', collections, []))]
        .sort((a, b) => b[1].rank - a[1].rank)
        .slice(0, 3)
        .map(([id]) => id);
    expect(await top('vacância')).toEqual(await top('vacancia'));
    expect(await top('rendimentos distribuídos')).toEqual(await top('rendimento distribuido'));
    expect((await top('vacância'))[0]).toMatch(/^vacancia#/);
  });

  it('indexes the shared normal form: P/VP is "pvp", as a question writes it', async () => {
    const [{ lexemes }] = await ds.query(`SELECT lexemes::text AS lexemes FROM rag_chunks WHERE chunk_id = 'pvp-valor-patrimonial#0'`);
    expect(lexemes).toContain("'pvp'");
    expect(lexemes).toContain("'patrimonial'");
  });
});

describe('retrieval ranking on the embedded Postgres (PGlite with unaccent)', () => {
  const policy = loadRagPolicy();
  let pg: { url: string; stop(): Promise<void> };
  let ds: DataSource;
  let engine: RagEngine;

  beforeAll(async () => {
    pg = await startPgliteProcess();
    ds = await openDatabase({ url: pg.url, poolSize: 2 });
    engine = await engineOn(ds, policy);
  }, 180_000);

  afterAll(async () => {
    await ds?.destroy();
    await pg?.stop();
  });

  it('folds accents with unaccent in its search configuration', async () => {
    const [row] = await ds.query(`SELECT to_tsvector('cota_portuguese', 'vacância física')::text AS accented, to_tsvector('cota_portuguese', 'vacancia fisica')::text AS plain`);
    expect(row.accented).toBe(row.plain);
  });

  it.each([
    ['o que é p/vp?', 'pvp-valor-patrimonial'],
    ['o que é vacância?', 'vacancia'],
    ['o que é o IFIX?', 'ifix'],
    ['rendimentos de FII pagam imposto de renda?', 'imposto-de-renda-fii'],
  ])('"%s" retrieves %s first', async (question, docId) => {
    expect((await concept(engine, question)).chunks[0]?.doc_id).toBe(docId);
  });
});
