import { CotaError, RagChunk, RagMeta } from '@cota/contracts';
import { normalize } from '@cota/text';
import { fitToBudget, normalizeChunk } from './chunks';
import { cosine, Embedder, EmbeddingModel } from './embedder';
import { ChunkDraft } from './knowledge';
import { NewsSource, newsToChunks } from './news';
import { gateIntent, KNOWLEDGE_COLLECTIONS, NEWS_COLLECTION, RagPolicy, ResolvedRule, resolveRule } from './policy';
import { ChunkStore, IndexState, Origin, StoredChunk } from './store';

export interface RetrieveInput {
  question: string;
  intent: string;
  entity: string | null;
  tickers: string[];
}

export interface RagEngineDeps {
  policy: RagPolicy;
  store: ChunkStore;
  embedder: Embedder;
  /** The knowledge base as chunks plus its content hash (read from `knowledge/`). */
  knowledge: () => { chunks: ChunkDraft[]; hash: string };
  /** The warehouse news; null when the service has no database to read them from. */
  news: NewsSource | null;
  /** Milliseconds clock, injectable for the cache-check interval. */
  now?: () => number;
}

/** One origin's index as held in memory: its chunks and vectors (the lexical index is the store's full-text search). */
interface LoadedOrigin {
  state: IndexState;
  chunks: StoredChunk[];
  model: EmbeddingModel;
}

export interface ScoredChunk {
  chunk: StoredChunk;
  score: number;
  vector: number;
  lexical: number;
  /** A news item selected because it is about a ticker of the question. */
  tickerMatch: boolean;
}

/**
 * What is embedded and scored: the title counts twice (the chunk text starts with it) and the
 * tags are added, because both say what a chunk is about better than any sentence of it.
 */
export const indexText = (c: Pick<ChunkDraft, 'title' | 'text' | 'tags'>): string => `${c.title}\n${c.tags.join(', ')}\n${c.text}`;

const ORIGIN_OF_COLLECTION = (c: string): Origin => (c === NEWS_COLLECTION ? 'news' : 'knowledge');

/**
 * The RAG context builder: gates by intent, resolves the rule, searches the hybrid index and
 * returns the RagMeta the pipeline puts in `meta.rag`. Deterministic; never calls a chat model.
 */
export class RagEngine {
  private loaded = new Map<Origin, LoadedOrigin>();
  private lastCheck = -Infinity;
  /** The background news sync in flight, if any (awaitable by tests through `settled()`). */
  private newsSync: Promise<boolean> | null = null;
  /** Last background sync failure, for health and debug. */
  lastSyncError: string | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: RagEngineDeps) {
    this.now = deps.now ?? (() => Date.now());
  }

  get vectorBackend(): string {
    return this.deps.store.backend;
  }

  get embedderId(): string {
    return this.deps.embedder.id;
  }

  /** Waits for a background news sync started by a question, if one is running. */
  async settled(): Promise<void> {
    await this.newsSync;
  }

  /** Chunks held per origin (health and debug). */
  loadedCounts(): Record<string, number> {
    return Object.fromEntries([...this.loaded].map(([o, l]) => [o, l.chunks.length]));
  }

  /**
   * Start-up: indexes each origin whose content or embedder changed (or was never indexed),
   * then loads the index. Returns the origins that were (re)indexed.
   */
  async ensureIndexed(): Promise<Origin[]> {
    const states = new Map((await this.deps.store.readStates()).map((s) => [s.origin, s]));
    const done: Origin[] = [];
    const knowledge = this.deps.knowledge();
    const k = states.get('knowledge');
    if (!k || k.content_hash !== knowledge.hash || k.embedder !== this.deps.embedder.id) {
      if (await this.indexOrigin('knowledge', knowledge.chunks, knowledge.hash, true)) done.push('knowledge');
    }
    if (await this.syncNews(states.get('news'))) done.push('news');
    await this.reload();
    return done;
  }

  /**
   * Re-indexes the news when the warehouse changed (a new ingest, or the table appearing after
   * this service started). Returns whether this replica wrote a new index.
   */
  async syncNews(current?: IndexState): Promise<boolean> {
    if (!this.deps.news) return false;
    const state = current ?? (await this.deps.store.readStates()).find((s) => s.origin === 'news');
    const hash = `news|${(await this.deps.news.fingerprint()) ?? 'absent'}`;
    if (state && state.content_hash === hash && state.embedder === this.deps.embedder.id) return false;
    return this.indexOrigin('news', newsToChunks(await this.deps.news.load()), hash, true);
  }

  /** Re-reads and re-embeds the given collections (all when omitted), whatever their hash. */
  async reindex(collections?: string[]): Promise<{ indexed: Record<string, number>; embedder: string; vector_backend: string }> {
    const wanted = collections && collections.length ? collections : [...KNOWLEDGE_COLLECTIONS, NEWS_COLLECTION];
    const unknown = wanted.filter((c) => !([...KNOWLEDGE_COLLECTIONS, NEWS_COLLECTION] as string[]).includes(c));
    if (unknown.length) throw new CotaError('BAD_REQUEST', `unknown collection(s): ${unknown.join(', ')}`);
    const origins = new Set(wanted.map(ORIGIN_OF_COLLECTION));
    const indexed: Record<string, number> = {};
    const count = (chunks: ChunkDraft[]) => {
      for (const c of chunks) if (wanted.includes(c.collection)) indexed[c.collection] = (indexed[c.collection] ?? 0) + 1;
    };
    for (const c of wanted) indexed[c] = 0;
    if (origins.has('knowledge')) {
      const knowledge = this.deps.knowledge();
      await this.indexOrigin('knowledge', knowledge.chunks, knowledge.hash);
      count(knowledge.chunks);
    }
    if (origins.has('news')) {
      if (!this.deps.news) throw new CotaError('UNAVAILABLE', 'news are not available: the service has no database');
      const fp = await this.deps.news.fingerprint();
      const chunks = newsToChunks(await this.deps.news.load());
      await this.indexOrigin('news', chunks, `news|${fp ?? 'absent'}`);
      count(chunks);
    }
    await this.reload();
    return { indexed, embedder: this.deps.embedder.id, vector_backend: this.deps.store.backend };
  }

  private async indexOrigin(origin: Origin, drafts: ChunkDraft[], hash: string, onlyIfChanged = false): Promise<boolean> {
    // IDF is fitted per origin, so re-indexing the news never changes the knowledge vectors.
    const texts = drafts.map(indexText);
    const model = await this.deps.embedder.fit(texts);
    const vectors = drafts.length ? await model.embed(texts) : [];
    const chunks = drafts.map((d, i) => ({ ...d, vector: vectors[i] }));
    return this.deps.store.replaceOrigin({ origin, embedder: model.embedderId, content_hash: hash, model_state: model.state }, chunks, { onlyIfChanged });
  }

  /** Loads every origin from the store (the only place vectors enter memory). */
  async reload(): Promise<void> {
    const states = await this.deps.store.readStates();
    const all = await this.deps.store.loadChunks();
    const next = new Map<Origin, LoadedOrigin>();
    for (const state of states) {
      if (state.embedder !== this.deps.embedder.id) continue; // another embedding space: not comparable
      const chunks = all.filter((c) => c.origin === state.origin);
      next.set(state.origin, {
        state,
        chunks,
        model: this.deps.embedder.restore(state.model_state),
      });
    }
    this.loaded = next;
    this.lastCheck = this.now();
  }

  /**
   * Another replica may have re-indexed: compare states now and then, reload when they moved.
   * The same tick starts a news sync in the background, so a question never waits for it.
   */
  private async refreshIfStale(): Promise<void> {
    if (this.now() - this.lastCheck < this.deps.policy.cache_check_seconds * 1000 && this.loaded.size > 0) return;
    const states = await this.deps.store.readStates();
    this.lastCheck = this.now();
    if (this.deps.news && !this.newsSync) {
      this.newsSync = this.syncNews(states.find((s) => s.origin === 'news'))
        .then((wrote) => {
          if (wrote) this.lastCheck = -Infinity; // load the new news on the next question
          return wrote;
        })
        .catch((e) => {
          this.lastSyncError = (e as Error)?.message ?? String(e);
          return false;
        })
        .finally(() => (this.newsSync = null));
    }
    const moved =
      states.length !== this.loaded.size ||
      states.some((s) => {
        const l = this.loaded.get(s.origin);
        return !l || l.state.content_hash !== s.content_hash || l.state.indexed_at !== s.indexed_at;
      });
    if (moved) await this.reload();
  }

  /** Hybrid search: cosine (in process or pgvector) fused with the store's full-text rank (saturated) times the words' coverage. */
  async search(question: string, rule: Pick<ResolvedRule, 'collections' | 'k'>, tickers: string[]): Promise<ScoredChunk[]> {
    await this.refreshIfStale();
    const { vector_weight, lexical_weight, lexical_scale, subject_boost } = this.deps.policy.hybrid;
    const padded = ` ${normalize(question)} `;
    const out: ScoredChunk[] = [];
    const byOrigin = new Map<Origin, string[]>();
    for (const c of rule.collections) byOrigin.set(ORIGIN_OF_COLLECTION(c), [...(byOrigin.get(ORIGIN_OF_COLLECTION(c)) ?? []), c]);

    for (const [origin, collections] of byOrigin) {
      const idx = this.loaded.get(origin);
      if (!idx || idx.chunks.length === 0) continue;
      const tickerFilter = origin === 'news' ? tickers : [];
      const [q] = await idx.model.embed([question]);
      const lexical = await this.deps.store.lexicalSearch(question, origin, collections, tickerFilter);

      let dbSimilarity: Map<string, number> | null = null;
      if (this.deps.store.backend === 'pgvector' && this.deps.store.vectorSearch) {
        const hits = await this.deps.store.vectorSearch(q, collections, tickerFilter, Math.max(rule.k * 4, 20));
        dbSimilarity = new Map(hits.map((h) => [h.chunk_id, h.similarity]));
      }
      for (let i = 0; i < idx.chunks.length; i++) {
        const chunk = idx.chunks[i];
        if (!collections.includes(chunk.collection)) continue;
        const tickerMatch = tickerFilter.length > 0 && chunk.tickers.some((t) => tickerFilter.includes(t));
        if (tickerFilter.length > 0 && !tickerMatch) continue;
        const hit = lexical.get(chunk.chunk_id);
        const lex = hit ? hit.coverage * (1 - Math.exp(-hit.rank / lexical_scale)) : 0;
        // With pgvector the database ranks by vector; chunks it did not return count on their lexical part only.
        const vec = dbSimilarity ? (dbSimilarity.get(chunk.chunk_id) ?? (lex > 0 ? cosine(q, chunk.vector) : 0)) : cosine(q, chunk.vector);
        // Its first section (the definition) gets the whole boost: "o que é o IFIX?" starts with what it is.
        const subject = origin !== 'news' && asks(padded, subjectOf(chunk.title)) ? subject_boost * (chunk.chunk_id.endsWith('#0') ? 1 : 0.5) : 0;
        const score = vector_weight * (Number.isFinite(vec) ? Math.max(0, vec) : 0) + lexical_weight * lex + subject;
        out.push({ chunk, score, vector: vec, lexical: lex, tickerMatch });
      }
    }
    return out.sort((a, b) => b.score - a.score || (b.chunk.published_at ?? '').localeCompare(a.chunk.published_at ?? '') || a.chunk.chunk_id.localeCompare(b.chunk.chunk_id));
  }

  /** Builds `meta.rag` for one question. Failures come back as `enabled: false` with `error`, never thrown. */
  async buildContext(input: RetrieveInput): Promise<RagMeta> {
    const gate = gateIntent(this.deps.policy, input.intent);
    if (!gate.enabled) {
      return { enabled: false, reason: gate.reason, used_collections: [], chunks: [], total_chunks: 0, policy: null, error: null };
    }
    const rule = resolveRule(this.deps.policy, input.entity, input.intent);
    const snapshot = { ...rule } as Record<string, unknown>;
    try {
      if (!input.question.trim()) {
        return { enabled: true, reason: 'empty_question', used_collections: rule.collections, chunks: [], total_chunks: 0, policy: snapshot, error: null };
      }
      const scored = await this.search(input.question, rule, input.tickers);
      // News about a ticker the question names are relevant by that fact alone; they go first.
      const ranked = [...scored.filter((s) => s.tickerMatch), ...scored.filter((s) => !s.tickerMatch && s.score >= rule.min_score)];
      const picked = ranked
        .slice(0, Math.min(rule.k, rule.max_chunks))
        .map((s) => normalizeChunk({ ...s.chunk, score: s.score }))
        .filter((c): c is RagChunk => c !== null);
      const chunks = fitToBudget(picked, rule.max_context_chars);
      return {
        enabled: true,
        reason: chunks.length ? 'ok' : 'no_relevant_chunks',
        used_collections: rule.collections,
        chunks,
        total_chunks: chunks.length,
        policy: snapshot,
        error: null,
      };
    } catch (e) {
      return {
        enabled: false,
        reason: 'error',
        used_collections: [],
        chunks: [],
        total_chunks: 0,
        policy: snapshot,
        error: (e as Error)?.message ?? String(e),
      };
    }
  }
}

/** Function form of {@link RagEngine.buildContext} (the seed's `build_context`). */
export function buildContext(engine: RagEngine, input: RetrieveInput): Promise<RagMeta> {
  return engine.buildContext(input);
}

/**
 * What a document is about: its title's lead, up to a dash, a parenthesis, a comma or " e "
 * ("IFIX - Índice de..." → "ifix", "Dividend yield (DY) mensal..." → "dividend yield", "P/VP e valor..." → "pvp").
 */
export function titleSubject(title: string): string {
  return normalize(title.split(/ - |\s*\(|,| e /)[0] ?? '');
}

// A few dozen titles, read at every search: each normalised once.
const SUBJECTS = new Map<string, string>();
const subjectOf = (title: string) => SUBJECTS.get(title) ?? (SUBJECTS.set(title, titleSubject(title)), SUBJECTS.get(title)!);

/** Whether the (padded, normalised) question names the subject as a whole phrase. */
const asks = (padded: string, subject: string) => subject.length > 1 && padded.includes(` ${subject} `);
