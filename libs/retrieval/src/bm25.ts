import { lexicalTerms } from './text';

/** Okapi BM25 over stems, for the lexical half of the hybrid score. */
export class Bm25Index {
  private readonly docTerms: Array<Map<string, number>> = [];
  private readonly docLen: number[] = [];
  private readonly df = new Map<string, number>();
  private avgLen = 0;

  constructor(
    texts: string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    for (const t of texts) {
      const terms = lexicalTerms(t);
      const tf = new Map<string, number>();
      for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
      this.docTerms.push(tf);
      this.docLen.push(terms.length);
      for (const term of tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    }
    this.avgLen = this.docLen.reduce((a, b) => a + b, 0) / Math.max(1, this.docLen.length);
  }

  get size(): number {
    return this.docTerms.length;
  }

  /** Scores of every document for the query (0 when no term matches). */
  scores(query: string): Float64Array {
    return this.score(query).scores;
  }

  /**
   * BM25 scores plus, per document, the share of the query's IDF mass it matches: a document that
   * matches one common word of a six-word question should not look like an answer to it.
   * Query words absent from the corpus count with the highest IDF (they are what the question is about).
   */
  score(query: string): { scores: Float64Array; coverage: Float64Array } {
    const n = this.docTerms.length;
    const scores = new Float64Array(n);
    const matched = new Float64Array(n);
    const terms = [...new Set(lexicalTerms(query))];
    const maxIdf = Math.log(1 + (n + 0.5) / 0.5);
    let total = 0;
    for (const term of terms) {
      const df = this.df.get(term);
      if (!df) {
        total += maxIdf;
        continue;
      }
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      total += idf;
      for (let i = 0; i < n; i++) {
        const f = this.docTerms[i].get(term);
        if (!f) continue;
        const norm = f + this.k1 * (1 - this.b + (this.b * this.docLen[i]) / (this.avgLen || 1));
        scores[i] += (idf * f * (this.k1 + 1)) / norm;
        matched[i] += idf;
      }
    }
    const coverage = matched.map((m) => (total > 0 ? m / total : 0));
    return { scores, coverage };
  }
}
