import type { DataSource, QueryRunner } from 'typeorm';
import type { Migration } from '@cota/service-kit';
import { ChunkDraft } from './knowledge';

export type Origin = ChunkDraft['origin'];

export interface StoredChunk extends ChunkDraft {
  vector: number[];
}

/** What was indexed for one origin: the embedder, its fitted state and the content hash. */
export interface IndexState {
  origin: Origin;
  embedder: string;
  content_hash: string;
  model_state: number[] | null;
  chunk_count: number;
  indexed_at: string;
}

export type VectorBackend = 'pgvector' | 'in-process';
export type NewIndexState = Omit<IndexState, 'indexed_at' | 'chunk_count'>;

/** The chunk store. Every I/O of the library goes through it (Postgres or in memory). */
export interface ChunkStore {
  readonly backend: VectorBackend;
  readStates(): Promise<IndexState[]>;
  /**
   * Replaces all chunks of one origin and its state atomically. With `onlyIfChanged`, nothing is
   * written when the stored state already has this hash and embedder (another replica did the work);
   * returns whether it wrote.
   */
  replaceOrigin(state: NewIndexState, chunks: StoredChunk[], opts?: { onlyIfChanged?: boolean }): Promise<boolean>;
  loadChunks(): Promise<StoredChunk[]>;
  /** Nearest chunks by cosine distance in the database (pgvector only). */
  vectorSearch?(query: number[], collections: string[], tickers: string[], limit: number): Promise<Array<{ chunk_id: string; similarity: number }>>;
}

export class InMemoryChunkStore implements ChunkStore {
  readonly backend = 'in-process' as const;
  private readonly states = new Map<Origin, IndexState>();
  private chunks: StoredChunk[] = [];
  /** Counts writes, so tests can check that an unchanged corpus is not re-indexed. */
  writes = 0;

  async readStates(): Promise<IndexState[]> {
    return [...this.states.values()].map((s) => ({ ...s }));
  }

  async replaceOrigin(state: NewIndexState, chunks: StoredChunk[], opts: { onlyIfChanged?: boolean } = {}): Promise<boolean> {
    const current = this.states.get(state.origin);
    if (opts.onlyIfChanged && current && current.content_hash === state.content_hash && current.embedder === state.embedder) return false;
    this.writes++;
    this.chunks = [...this.chunks.filter((c) => c.origin !== state.origin), ...chunks.map((c) => ({ ...c }))];
    this.states.set(state.origin, { ...state, chunk_count: chunks.length, indexed_at: `${new Date().toISOString()}#${this.writes}` });
    return true;
  }

  async loadChunks(): Promise<StoredChunk[]> {
    return this.chunks.map((c) => ({ ...c }));
  }
}

const RAG_LOCK = 0x72616731; // "rag1": one replica indexes at a time

/**
 * Chunks in Postgres. Vectors are `real[]` (portable); when the pgvector extension exists a
 * `vector` column mirrors them and searches run in the database.
 */
export class PostgresChunkStore implements ChunkStore {
  private constructor(
    private readonly ds: DataSource,
    readonly backend: VectorBackend,
  ) {}

  /** Detects whether the migration could enable pgvector (column `embedding_vec` exists). */
  static async open(ds: DataSource): Promise<PostgresChunkStore> {
    const rows: Array<{ n: number }> = await ds.query(
      `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'rag_chunks' AND column_name = 'embedding_vec'`,
    );
    return new PostgresChunkStore(ds, rows[0]?.n > 0 ? 'pgvector' : 'in-process');
  }

  async readStates(): Promise<IndexState[]> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT origin, embedder, content_hash, model_state, chunk_count, indexed_at::text AS indexed_at FROM rag_index_state ORDER BY origin`,
    );
    return rows.map((r) => ({
      origin: r.origin as Origin,
      embedder: String(r.embedder),
      content_hash: String(r.content_hash),
      model_state: (r.model_state as number[] | null)?.map(Number) ?? null,
      chunk_count: Number(r.chunk_count),
      indexed_at: String(r.indexed_at),
    }));
  }

  async replaceOrigin(state: NewIndexState, chunks: StoredChunk[], opts: { onlyIfChanged?: boolean } = {}): Promise<boolean> {
    const runner: QueryRunner = this.ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query('SELECT pg_advisory_xact_lock($1)', [RAG_LOCK]);
      if (opts.onlyIfChanged) {
        const cur: Array<{ n: number }> = await runner.query('SELECT count(*)::int AS n FROM rag_index_state WHERE origin = $1 AND content_hash = $2 AND embedder = $3', [
          state.origin,
          state.content_hash,
          state.embedder,
        ]);
        if (cur[0]?.n > 0) {
          await runner.commitTransaction();
          return false;
        }
      }
      await runner.query('DELETE FROM rag_chunks WHERE origin = $1', [state.origin]);
      const cols = ['chunk_id', 'origin', 'doc_id', 'collection', 'title', 'text', 'entity', 'source_id', 'url', 'tickers', 'tags', 'published_at', 'embedding'];
      const withVec = this.backend === 'pgvector';
      const batch = 100;
      for (let i = 0; i < chunks.length; i += batch) {
        const part = chunks.slice(i, i + batch);
        const params: unknown[] = [];
        const values = part.map((c) => {
          const row = [c.chunk_id, c.origin, c.doc_id, c.collection, c.title, c.text, c.entity, c.source_id, c.url, c.tickers, c.tags, c.published_at, c.vector];
          if (withVec) row.push(`[${c.vector.join(',')}]`);
          const base = params.length;
          params.push(...row);
          return `(${row.map((_, j) => `$${base + j + 1}${j === 12 ? '::real[]' : j === 13 ? '::vector' : ''}`).join(', ')})`;
        });
        await runner.query(`INSERT INTO rag_chunks (${[...cols, ...(withVec ? ['embedding_vec'] : [])].join(', ')}) VALUES ${values.join(', ')}`, params);
      }
      await runner.query(
        `INSERT INTO rag_index_state (origin, embedder, content_hash, model_state, chunk_count, indexed_at)
         VALUES ($1, $2, $3, $4::real[], $5, now())
         ON CONFLICT (origin) DO UPDATE SET embedder = EXCLUDED.embedder, content_hash = EXCLUDED.content_hash,
           model_state = EXCLUDED.model_state, chunk_count = EXCLUDED.chunk_count, indexed_at = EXCLUDED.indexed_at`,
        [state.origin, state.embedder, state.content_hash, state.model_state, chunks.length],
      );
      await runner.commitTransaction();
      return true;
    } catch (e) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw e;
    } finally {
      await runner.release();
    }
  }

  async loadChunks(): Promise<StoredChunk[]> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT chunk_id, origin, doc_id, collection, title, text, entity, source_id, url, tickers, tags,
              left(published_at::text, 10) AS published_at, embedding
         FROM rag_chunks ORDER BY chunk_id`,
    );
    return rows.map((r) => ({
      chunk_id: String(r.chunk_id),
      origin: r.origin as Origin,
      doc_id: String(r.doc_id),
      collection: String(r.collection),
      title: String(r.title ?? ''),
      text: String(r.text),
      entity: (r.entity as string | null) ?? null,
      source_id: (r.source_id as string | null) ?? null,
      url: (r.url as string | null) ?? null,
      tickers: (r.tickers as string[]) ?? [],
      tags: (r.tags as string[]) ?? [],
      published_at: (r.published_at as string | null) ?? null,
      vector: (r.embedding as number[]).map(Number),
    }));
  }

  async vectorSearch(query: number[], collections: string[], tickers: string[], limit: number) {
    if (this.backend !== 'pgvector') throw new Error('vector search in the database needs pgvector');
    const rows: Array<{ chunk_id: string; similarity: number }> = await this.ds.query(
      `SELECT chunk_id, 1 - (embedding_vec <=> $1::vector) AS similarity
         FROM rag_chunks
        WHERE collection = ANY($2::text[]) AND (cardinality($3::text[]) = 0 OR tickers && $3::text[])
        ORDER BY embedding_vec <=> $1::vector LIMIT $4`,
      [`[${query.join(',')}]`, collections, tickers, limit],
    );
    return rows.map((r) => ({ chunk_id: r.chunk_id, similarity: Number(r.similarity) }));
  }
}

/**
 * Schema of the chunk store. The second migration enables pgvector only where the extension is
 * installable (PGlite with its pgvector build, a Postgres with the package); elsewhere scoring stays in process.
 */
export const retrievalMigrations: Migration[] = [
  {
    id: '202611220100-retrieval-chunks',
    async up(q: QueryRunner) {
      await q.query(`CREATE TABLE IF NOT EXISTS rag_chunks (
        chunk_id text PRIMARY KEY,
        origin text NOT NULL CHECK (origin IN ('knowledge', 'news')),
        doc_id text NOT NULL,
        collection text NOT NULL,
        title text,
        text text NOT NULL,
        entity text,
        source_id text,
        url text,
        tickers text[] NOT NULL DEFAULT '{}',
        tags text[] NOT NULL DEFAULT '{}',
        published_at date,
        embedding real[] NOT NULL,
        indexed_at timestamptz NOT NULL DEFAULT now()
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS rag_chunks_collection_idx ON rag_chunks (collection)');
      await q.query('CREATE INDEX IF NOT EXISTS rag_chunks_tickers_idx ON rag_chunks USING gin (tickers)');
      await q.query(`CREATE TABLE IF NOT EXISTS rag_index_state (
        origin text PRIMARY KEY,
        embedder text NOT NULL,
        content_hash text NOT NULL,
        model_state real[],
        chunk_count integer NOT NULL,
        indexed_at timestamptz NOT NULL DEFAULT now()
      )`);
    },
    async down(q: QueryRunner) {
      await q.query('DROP TABLE IF EXISTS rag_chunks');
      await q.query('DROP TABLE IF EXISTS rag_index_state');
    },
  },
  {
    id: '202611220101-retrieval-pgvector',
    async up(q: QueryRunner) {
      const rows: Array<{ n: number }> = await q.query(`SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'vector'`);
      if (!rows[0]?.n) return;
      // A failure here (no privilege) must not stop the service: the real[] column already works.
      await q.query('SAVEPOINT rag_pgvector');
      try {
        await q.query('CREATE EXTENSION IF NOT EXISTS vector');
        // No fixed dimension: the local and the OpenAI embedders differ; the embedder id keeps spaces apart.
        await q.query('ALTER TABLE rag_chunks ADD COLUMN IF NOT EXISTS embedding_vec vector');
        await q.query('RELEASE SAVEPOINT rag_pgvector');
      } catch {
        await q.query('ROLLBACK TO SAVEPOINT rag_pgvector');
      }
    },
    async down(q: QueryRunner) {
      await q.query('ALTER TABLE rag_chunks DROP COLUMN IF EXISTS embedding_vec');
    },
  },
];
