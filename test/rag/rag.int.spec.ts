import 'reflect-metadata';
import { Client } from 'pg';
import { Events, HealthSubjects, RagSubjects } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';
import { openDatabase, runMigrations, RunningService, startService } from '@cota/service-kit';
import { warehouseMigrations } from '@cota/warehouse';
import { PostgresNewsSource } from '@cota/retrieval';
import { createTestDatabase, startTestNats, TestDatabase, TestNats } from '@cota/test-support';
import { ragService } from '../../apps/rag/src/rag.service';

/**
 * The rag service as its own process would run: private NATS, fresh real Postgres.
 * The news come from the warehouse schema (its own migrations), with rows written by the test
 * (test.invalid urls: clearly not real news).
 */
describe('rag service over NATS + Postgres', () => {
  let nats: TestNats;
  let db: TestDatabase;
  let service: RunningService;
  let client: Bus;
  let transport: NatsTransport;
  let pg: Client;

  beforeAll(async () => {
    nats = await startTestNats();
    db = await createTestDatabase('rag');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    // The warehouse schema as its own migrations create it (the rag service reads its fiis_noticias view).
    const wh = await openDatabase({ url: db.url, poolSize: 1 });
    await runMigrations(wh, warehouseMigrations);
    await wh.destroy();
    await pg.query(
      `INSERT INTO wh_news (ticker, url, source, title, description, published_at, data_source) VALUES
       ('HGLG11', 'https://test.invalid/1', 'Portal de teste', 'HGLG11 conclui aquisição de galpão', 'Texto de teste.', '2025-10-01', 'test'),
       ('HGLG11', 'https://test.invalid/2', 'Portal de teste', 'HGLG11 anuncia rendimento mensal', 'Texto de teste.', '2025-09-01', 'test'),
       ('KNRI11', 'https://test.invalid/3', 'Outro portal', 'KNRI11 renova contrato de escritório', 'Texto de teste.', '2025-08-01', 'test')`,
    );
    const env = loadEnv({ NATS_URL: nats.url, DATABASE_URL: db.url });
    service = await startService(ragService, env);
    transport = await NatsTransport.connect({ url: nats.url, name: 'rag-test-client' });
    client = new Bus(transport, 'gateway');
  });

  afterAll(async () => {
    await service?.stop();
    await transport?.drain();
    await pg?.end();
    await db?.drop();
    await nats?.stop();
  });

  it('indexed the knowledge base and the news at start-up, in real[] columns', async () => {
    const states = await pg.query('SELECT origin, embedder, chunk_count FROM rag_index_state ORDER BY origin');
    expect(states.rows).toEqual([
      { origin: 'knowledge', embedder: expect.stringMatching(/^hashing-v1-512-/), chunk_count: expect.any(Number) },
      { origin: 'news', embedder: expect.stringMatching(/^hashing-v1-512-/), chunk_count: 3 },
    ]);
    expect(states.rows[0].chunk_count).toBeGreaterThan(30);
    const col = await pg.query(`SELECT data_type FROM information_schema.columns WHERE table_name = 'rag_chunks' AND column_name = 'embedding'`);
    expect(col.rows[0].data_type).toBe('ARRAY');
  });

  it('answers a concept question with the right document', async () => {
    const meta = await client.call(RagSubjects.retrieve, { request_id: 'r1', question: 'o que é P/VP?', intent: 'concept', entity: null, tickers: [] });
    expect(meta.enabled).toBe(true);
    expect(meta.error).toBeNull();
    expect(meta.chunks[0].doc_id).toBe('pvp-valor-patrimonial');
    expect(meta.policy).toMatchObject({ rule: 'rag.entities.concept', profile: 'concept' });
  });

  it('filters news by ticker and keeps source and url', async () => {
    const meta = await client.call(RagSubjects.retrieve, {
      request_id: 'r2',
      question: 'quais as notícias do HGLG11?',
      intent: 'fiis_noticias',
      entity: 'fiis_noticias',
      tickers: ['HGLG11'],
    });
    const news = meta.chunks.filter((c) => c.collection === 'fiis_noticias');
    expect(news.map((c) => c.source_id).sort()).toEqual(['https://test.invalid/1', 'https://test.invalid/2']);
    expect(news[0].tags).toContain('HGLG11');
  });

  it('does not use RAG for tabular intents and publishes telemetry', async () => {
    const seen: unknown[] = [];
    const sub = client.listen(Events.ragRetrieved.subject, (_s, p) => seen.push(p));
    await transport.ping();
    const meta = await client.call(RagSubjects.retrieve, { request_id: 'r3', question: 'preço do HGLG11', intent: 'fiis_precos', entity: 'fiis_precos', tickers: ['HGLG11'] });
    expect(meta).toMatchObject({ enabled: false, reason: 'intent_denied', chunks: [] });
    for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    sub.unsubscribe();
    expect(seen[0]).toMatchObject({ request_id: 'r3', service: 'rag', event: 'retrieved', outcome: 'skipped', attributes: { reason: 'intent_denied' } });
  });

  it('re-indexes the news on demand, and rejects unknown collections', async () => {
    await pg.query(
      `INSERT INTO wh_news (ticker, url, source, title, description, published_at, data_source)
       VALUES ('KNRI11', 'https://test.invalid/4', 'Outro portal', 'KNRI11 vende imóvel', 'Texto de teste.', '2025-10-10', 'test')`,
    );
    const res = await client.call(RagSubjects.reindex, { collections: ['fiis_noticias'] });
    expect(res).toEqual({ indexed: { fiis_noticias: 4 }, embedder: expect.stringMatching(/^hashing-v1-512-/), vector_backend: 'in-process' });
    const meta = await client.call(RagSubjects.retrieve, { request_id: 'r4', question: 'notícias', intent: 'fiis_noticias', entity: 'fiis_noticias', tickers: ['KNRI11'] });
    expect(meta.chunks.filter((c) => c.collection === 'fiis_noticias')).toHaveLength(2);
    await expect(client.call(RagSubjects.reindex, { collections: ['bogus'] })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('a second replica reuses the stored index instead of rebuilding it', async () => {
    const before = await pg.query(`SELECT origin, indexed_at::text FROM rag_index_state ORDER BY origin`);
    const env = loadEnv({ NATS_URL: nats.url, DATABASE_URL: db.url });
    const replica = await startService(ragService, env);
    try {
      const after = await pg.query(`SELECT origin, indexed_at::text FROM rag_index_state ORDER BY origin`);
      expect(after.rows).toEqual(before.rows);
      const health = await client.call(HealthSubjects.rag, {});
      expect(health).toMatchObject({ service: 'rag', ok: true });
      expect(health.checks.index.ok).toBe(true);
    } finally {
      await replica.stop();
    }
  });

  it('the news fingerprint changes when a re-ingest edits a title (same count, same dates)', async () => {
    const ds = await openDatabase({ url: db.url, poolSize: 1 });
    try {
      const source = new PostgresNewsSource(ds, 'fiis_noticias', 40);
      const before = await source.fingerprint();
      await pg.query(`UPDATE wh_news SET title = title || ' (corrigido)' WHERE url = 'https://test.invalid/1'`);
      const after = await source.fingerprint();
      expect(after).not.toBe(before);
      expect((await source.load()).find((n) => n.url === 'https://test.invalid/1')).toMatchObject({ ticker: 'HGLG11', published_at: '2025-10-01' });
      expect(await new PostgresNewsSource(ds, 'no_such_view', 40).fingerprint()).toBeNull();
    } finally {
      await ds.destroy();
    }
  });

  it('returns enabled:false with the error when the store is broken', async () => {
    await pg.query('ALTER TABLE rag_index_state RENAME TO rag_index_state_moved');
    try {
      // Wait past the cache check interval so the engine goes back to the database.
      const policyInterval = 15_000;
      const engineNow = Date.now;
      Date.now = () => engineNow() + policyInterval + 1000;
      try {
        const meta = await client.call(RagSubjects.retrieve, { request_id: 'r5', question: 'o que é vacância?', intent: 'concept', entity: null, tickers: [] });
        expect(meta.enabled).toBe(false);
        expect(meta.reason).toBe('error');
        expect(meta.error).toMatch(/rag_index_state/);
      } finally {
        Date.now = engineNow;
      }
    } finally {
      await pg.query('ALTER TABLE rag_index_state_moved RENAME TO rag_index_state');
    }
  });
});
