import { normalize, stem as sharedStem, STOPWORDS } from '@cota/text';

/**
 * Retrieval's view of pt-BR text: the shared normalisation and stemmer of `@cota/text` (so "P/VP",
 * "IGP-M" and inflections behave as in routing), plus what only retrieval needs: its own
 * stopword additions and character n-grams. The embedder id carries a fingerprint of these
 * features (see `featureFingerprint`), so a change in the shared rules re-indexes the store.
 */

/** Words that say nothing about the topic of a question ("o que significa ...?"). */
const RETRIEVAL_STOPWORDS = new Set(['significa', 'significado', 'sabe', 'quer', 'dizer', 'explica', 'explique', 'eh', 'pra', 'pro']);

/**
 * Chat filler around a question ("pq ouvi dizer q nao"): in the full-text search a word no chunk has weighs most, so
 * filler would sink a good match. Left out of the question's search words only (the chunks and vectors are untouched).
 */
const CHAT_FILLER = new Set(['q', 'nao', 'sim', 'ouvi', 'ouvir', 'falar', 'falaram', 'disseram', 'dizem', 'li', 'vi', 'verdade', 'entao']);

export function normalizeText(input: string): string {
  return normalize(input);
}

/** Tokens of the normalised text without stopwords. */
export function tokenize(input: string): string[] {
  const norm = normalizeText(input);
  if (!norm) return [];
  return norm.split(' ').filter((t) => t.length > 0 && !STOPWORDS.has(t) && !RETRIEVAL_STOPWORDS.has(t));
}

/** The question's words for the full-text search: its tokens without chat filler. */
export function searchWords(question: string): string[] {
  return tokenize(question).filter((t) => !CHAT_FILLER.has(t));
}

export function stem(token: string): string {
  return sharedStem(token);
}

/** Character trigrams of a token with boundary marks, so typos and inflections still overlap. */
export function charNgrams(token: string, n = 3): string[] {
  const padded = `#${token}#`;
  if (padded.length <= n) return [padded];
  const out: string[] = [];
  for (let i = 0; i + n <= padded.length; i++) out.push(padded.slice(i, i + n));
  return out;
}
