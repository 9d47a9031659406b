import type { DataSource, QueryRunner } from 'typeorm';
import type { Migration } from '@cota/service-kit';
import { ChunkDraft } from './knowledge';
import { normalizeText, searchWords } from './text';

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

/** A chunk's full-text match: Postgres's `ts_rank`, and the IDF-weighted share of the question's words it has. */
export interface LexicalHit {
  rank: number;
  coverage: number;
}

/** The text search configuration of the chunks: Portuguese stopwords and stemming, accents folded (unaccent). */
export const SEARCH_CONFIGURATION = 'cota_portuguese';
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
  /**
   * The lexical half of the hybrid score, by full-text search over one origin's chunks of these
   * collections (and tickers, when given): for each chunk matching a word of the question, its rank
   * and the share of the question's words it matches, each word weighted by its rarity (IDF).
   */
  lexicalSearch(question: string, origin: Origin, collections: string[], tickers: string[]): Promise<Map<string, LexicalHit>>;
  /** Nearest chunks by cosine distance in the database (pgvector only). */
  vectorSearch?(query: number[], collections: string[], tickers: string[], limit: number): Promise<Array<{ chunk_id: string; similarity: number }>>;
}

/**
 * The store of unit tests and the in-process benchmark. It has no full-text index (the lexical half
 * of the score is Postgres's): chunks rank by their vectors alone here.
 */
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

  async lexicalSearch(): Promise<Map<string, LexicalHit>> {
    return new Map();
  }
}

const RAG_LOCK = 0x72616731; // "rag1": one replica indexes at a time

/**
 * What full-text search reads of a chunk, in the shared pt-BR normal form (`normalize`: "P/VP" is
 * "pvp", as the question will say it): its title, its tags, its text.
 */
function searchText(c: Pick<StoredChunk, 'title' | 'tags' | 'text'>): [title: string, tags: string, text: string] {
  return [normalizeText(c.title), normalizeText(c.tags.join(' ')), normalizeText(c.text)];
}

/** A chunk's lexemes: the title weighs most (A), then the tags (B), then the text (D, ts_rank's default). */
const lexemesSql = (title: string, tags: string, text: string) =>
  `setweight(to_tsvector('${SEARCH_CONFIGURATION}', ${title}), 'A') || setweight(to_tsvector('${SEARCH_CONFIGURATION}', ${tags}), 'B') || to_tsvector('${SEARCH_CONFIGURATION}', ${text})`;

/** The question's words that say what it is about (the shared stopwords and retrieval's own removed), normalised. */
const lexicalQuery = (question: string) => searchWords(question).join(' ');

/**
 * Full-text search over one origin ($2) for the question's words ($1), within collections ($3) and,
 * when given, tickers ($4). Each word is weighted by its IDF over the origin, a word no chunk has
 * weighing most (it is what the question is about); a chunk's coverage is the weight of the words it
 * has over the weight of all. Its rank is `ts_rank` against all the words (any of them), normalised
 * by the chunk's length.
 */
const LEXICAL_SEARCH_SQL = `
  WITH words AS (
    SELECT DISTINCT w.lexeme, quote_literal(w.lexeme)::tsquery AS query FROM unnest(to_tsvector('${SEARCH_CONFIGURATION}', $1)) AS w
  ),
  corpus AS (SELECT chunk_id, collection, tickers, lexemes FROM rag_chunks WHERE origin = $2),
  weighted AS (
    SELECT words.lexeme, words.query, ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5)) AS idf
      FROM words
     CROSS JOIN (SELECT count(*)::float8 AS n FROM corpus) n
     CROSS JOIN LATERAL (SELECT count(*)::float8 AS df FROM corpus WHERE corpus.lexemes @@ words.query) df
  ),
  any_word AS (SELECT string_agg(quote_literal(lexeme), ' | ')::tsquery AS query, sum(idf) AS total FROM weighted)
  SELECT c.chunk_id, ts_rank(c.lexemes, any_word.query, 1) AS rank, sum(weighted.idf) / any_word.total AS coverage
    FROM corpus c
    JOIN weighted ON c.lexemes @@ weighted.query
   CROSS JOIN any_word
   WHERE c.collection = ANY($3::text[]) AND (cardinality($4::text[]) = 0 OR c.tickers && $4::text[])
   GROUP BY c.chunk_id, c.lexemes, any_word.query, any_word.total`;

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
          params.push(...row, ...searchText(c));
          const p = (j: number) => `$${base + j + 1}`;
          const at = row.length;
          return `(${row.map((_, j) => `${p(j)}${j === 12 ? '::real[]' : j === 13 ? '::vector' : ''}`).join(', ')}, ${lexemesSql(p(at), p(at + 1), p(at + 2))})`;
        });
        await runner.query(`INSERT INTO rag_chunks (${[...cols, ...(withVec ? ['embedding_vec'] : []), 'lexemes'].join(', ')}) VALUES ${values.join(', ')}`, params);
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

  async lexicalSearch(question: string, origin: Origin, collections: string[], tickers: string[]): Promise<Map<string, LexicalHit>> {
    const rows: Array<{ chunk_id: string; rank: number; coverage: number }> = await this.ds.query(LEXICAL_SEARCH_SQL, [lexicalQuery(question), origin, collections, tickers]);
    return new Map(rows.map((r) => [r.chunk_id, { rank: Number(r.rank), coverage: Number(r.coverage) }]));
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
  {
    id: '202611280200-retrieval-full-text',
    async up(q: QueryRunner) {
      // Portuguese stopwords and stemming; accents folded by unaccent where it is installable (Postgres's
      // contrib, PGlite's extension). The text is already folded by the shared normal form, so without it
      // the search finds the same words.
      await q.query(`DROP TEXT SEARCH CONFIGURATION IF EXISTS ${SEARCH_CONFIGURATION}`);
      await q.query(`CREATE TEXT SEARCH CONFIGURATION ${SEARCH_CONFIGURATION} (COPY = pg_catalog.portuguese)`);
      await q.query('SAVEPOINT rag_unaccent');
      try {
        await q.query('CREATE EXTENSION IF NOT EXISTS unaccent');
        await q.query(`ALTER TEXT SEARCH CONFIGURATION ${SEARCH_CONFIGURATION} ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem`);
        await q.query('RELEASE SAVEPOINT rag_unaccent');
      } catch {
        await q.query('ROLLBACK TO SAVEPOINT rag_unaccent');
      }
      await q.query('ALTER TABLE rag_chunks ADD COLUMN IF NOT EXISTS lexemes tsvector');
      await q.query('CREATE INDEX IF NOT EXISTS rag_chunks_lexemes_idx ON rag_chunks USING gin (lexemes)');
      // The stored chunks have no lexemes yet: forgetting the index states makes the next start index again.
      await q.query('DELETE FROM rag_index_state');
    },
    async down(q: QueryRunner) {
      await q.query('ALTER TABLE rag_chunks DROP COLUMN IF EXISTS lexemes');
      await q.query(`DROP TEXT SEARCH CONFIGURATION IF EXISTS ${SEARCH_CONFIGURATION}`);
    },
  },
];
