import OpenAI from 'openai';
import { charNgrams, stem, tokenize } from './text';

/**
 * An embedder fitted on a corpus. `state` is what must be stored beside the vectors so that a
 * restarted process embeds questions exactly as the stored chunks were embedded.
 */
export interface EmbeddingModel {
  readonly embedderId: string;
  readonly state: number[] | null;
  embed(texts: string[]): Promise<number[][]>;
}

export interface Embedder {
  /** Identifies the embedding space; vectors from different ids are never compared. */
  readonly id: string;
  /** Fits corpus statistics (the local embedder's IDF) and returns a ready model. */
  fit(corpus: string[]): Promise<EmbeddingModel>;
  /** Rebuilds a model from stored state. */
  restore(state: number[] | null): EmbeddingModel;
}

export function l2normalize(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  if (sum === 0) return v;
  const n = Math.sqrt(sum);
  return v.map((x) => x / n);
}

/** Dot product of two L2-normalised vectors = cosine similarity. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const len = Math.min(a.length, b.length);
  let dot = 0;
  for (let i = 0; i < len; i++) dot += a[i] * b[i];
  return dot;
}

/** 32-bit FNV-1a: stable across processes and platforms (no seeds, no Math.random). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

interface Feature {
  key: string;
  weight: number;
}

/**
 * Features of a text: whole stems weigh most, adjacent stem pairs catch phrases ("valor patrimonial"),
 * character trigrams (lighter) catch inflections and typos the stemmer misses.
 */
export function textFeatures(text: string): Feature[] {
  const stems = tokenize(text).map(stem);
  const out: Feature[] = [];
  for (const s of stems) out.push({ key: `w:${s}`, weight: 1 });
  for (let i = 0; i + 1 < stems.length; i++) out.push({ key: `b:${stems[i]}_${stems[i + 1]}`, weight: 0.5 });
  for (const s of stems) for (const g of charNgrams(s)) out.push({ key: `c:${g}`, weight: 0.25 });
  return out;
}

/** A sentence exercising normalisation, compounds, stopwords and stemming. */
const FINGERPRINT_PROBE = 'Quais são os rendimentos, o P/VP e a vacância dos FIIs de logística? IGP-M, IPCA e Selic em 12 meses: R$ 1,10 por cota.';

/**
 * Short hash of the features of a fixed sentence. It is part of the embedder id, so a change in
 * the shared text rules (`@cota/text`) changes the id and the stored vectors are rebuilt at start-up
 * instead of being compared with questions embedded differently.
 */
export function featureFingerprint(): string {
  return fnv1a(JSON.stringify(textFeatures(FINGERPRINT_PROBE))).toString(36);
}

/**
 * The default, local embedder: hashed features (signed hashing into `dim` buckets), IDF
 * weighting fitted on the corpus, L2-normalised. Deterministic and dependency-free.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;

  constructor(readonly dim = 512) {
    if (!Number.isInteger(dim) || dim < 16) throw new Error(`HashingEmbedder: dim must be an integer >= 16, got ${dim}`);
    this.id = `hashing-v1-${dim}-${featureFingerprint()}`;
  }

  /** Feature key -> signed bucket (sign * (index + 1)); features repeat a lot across a corpus. */
  private readonly buckets = new Map<string, number>();

  private bucket(key: string): { index: number; sign: number } {
    let packed = this.buckets.get(key);
    if (packed === undefined) {
      const h = fnv1a(key);
      // The sign comes from an independent bit of the hash, so collisions cancel out on average.
      packed = ((h >>> 31) & 1 ? -1 : 1) * ((h % this.dim) + 1);
      if (this.buckets.size > 500_000) this.buckets.clear();
      this.buckets.set(key, packed);
    }
    return { index: Math.abs(packed) - 1, sign: Math.sign(packed) };
  }

  /** IDF per bucket: rare buckets (distinctive features) weigh more than ubiquitous ones. */
  async fit(corpus: string[]): Promise<EmbeddingModel> {
    const df = new Float64Array(this.dim);
    for (const doc of corpus) {
      const seen = new Set<number>();
      for (const f of textFeatures(doc)) seen.add(this.bucket(f.key).index);
      for (const b of seen) df[b] += 1;
    }
    const n = corpus.length;
    const idf = Array.from(df, (d) => Math.log((n + 1) / (d + 1)) + 1);
    return this.restore(idf);
  }

  restore(state: number[] | null): EmbeddingModel {
    if (state && state.length !== this.dim) throw new Error(`stored IDF has ${state.length} buckets, the embedder ${this.dim}`);
    const idf = state ?? new Array<number>(this.dim).fill(1);
    const embedOne = (text: string): number[] => {
      const v = new Array<number>(this.dim).fill(0);
      // Sub-linear term frequency: a word repeated ten times is not ten times as relevant.
      const tf = new Map<string, number>();
      for (const f of textFeatures(text)) tf.set(f.key, (tf.get(f.key) ?? 0) + f.weight);
      for (const [key, w] of tf) {
        const { index, sign } = this.bucket(key);
        v[index] += sign * Math.sqrt(w) * idf[index];
      }
      return l2normalize(v);
    };
    return { embedderId: this.id, state: idf, embed: async (texts) => texts.map(embedOne) };
  }
}

export interface OpenAiEmbedderOptions {
  apiKey: string | null;
  baseUrl: string | null;
  model: string;
  timeoutMs: number;
  /** Texts per request. */
  batchSize?: number;
}

/** Embeddings from any OpenAI-compatible endpoint (`POST /embeddings`) through the `openai` SDK. */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  private readonly sdk: OpenAI;

  constructor(private readonly opts: OpenAiEmbedderOptions) {
    this.id = `openai:${opts.model}`;
    this.sdk = new OpenAI({ apiKey: opts.apiKey ?? 'not-needed', baseURL: opts.baseUrl ?? undefined, maxRetries: 0 });
  }

  /** Nothing to fit: the remote model is fixed. */
  async fit(_corpus: string[] = []): Promise<EmbeddingModel> {
    return this.restore(null);
  }

  restore(_state: number[] | null = null): EmbeddingModel {
    const batch = this.opts.batchSize ?? 64;
    return {
      embedderId: this.id,
      state: null,
      embed: async (texts) => {
        const out: number[][] = [];
        for (let i = 0; i < texts.length; i += batch) {
          const res = await this.sdk.embeddings.create(
            { model: this.opts.model, input: texts.slice(i, i + batch), encoding_format: 'float' },
            { timeout: this.opts.timeoutMs, maxRetries: 0 },
          );
          const data = [...res.data].sort((a, b) => a.index - b.index);
          if (data.length !== Math.min(batch, texts.length - i)) throw new Error('the embeddings endpoint returned a wrong number of vectors');
          for (const d of data) out.push(l2normalize(d.embedding as number[]));
        }
        return out;
      },
    };
  }
}
