/**
 * Optimal-string-alignment (Damerau-Levenshtein) distance with an early exit once it exceeds
 * `max`: typos are adjacent swaps, missing or doubled letters.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/**
 * A typo seldom falls on the first letter: a word that starts otherwise is another word ("tinha" is not "minha",
 * "abertas" not "alertas"), unless its first two letters were swapped ("idvidendos").
 */
function sameStart(word: string, cand: string): boolean {
  return word[0] === cand[0] || (word[0] === cand[1] && word[1] === cand[0]);
}

export interface FuzzyOptions {
  /** Words shorter than this are never corrected (short words collide too easily). */
  minLength: number;
  /** Allowed distance for words of minLength..longFrom-1 letters. */
  maxDistance: number;
  /** From this length on, `longMaxDistance` applies. */
  longFrom: number;
  longMaxDistance: number;
}

export const DEFAULT_FUZZY: FuzzyOptions = { minLength: 5, maxDistance: 1, longFrom: 9, longMaxDistance: 2 };

/**
 * Corrects a misspelled word to the closest word of a known vocabulary ("dividnedos" ->
 * "dividendos"), or null. Ties are refused rather than guessed. Results are memoised, so
 * repeated questions cost a map lookup.
 */
export class FuzzyVocabulary {
  private readonly words: ReadonlySet<string>;
  private readonly byLength = new Map<number, string[]>();
  private readonly cache = new Map<string, string | null>();

  constructor(
    words: Iterable<string>,
    private readonly opts: FuzzyOptions = DEFAULT_FUZZY,
    /** Words with the same key are one meaning ("dividendo"/"dividendos" by stem): a tie among them is no tie. */
    private readonly key: (word: string) => string = (w) => w,
  ) {
    this.words = new Set(words);
    for (const w of this.words) {
      const list = this.byLength.get(w.length) ?? [];
      list.push(w);
      this.byLength.set(w.length, list);
    }
  }

  has(word: string): boolean {
    return this.words.has(word);
  }

  correct(word: string): string | null {
    if (this.words.has(word)) return word;
    if (word.length < this.opts.minLength || /\d/.test(word)) return null;
    const hit = this.cache.get(word);
    if (hit !== undefined) return hit;
    const max = word.length >= this.opts.longFrom ? this.opts.longMaxDistance : this.opts.maxDistance;
    let best: string | null = null;
    let bestD = max + 1;
    let tie = false;
    for (let len = word.length - max; len <= word.length + max; len++) {
      for (const cand of this.byLength.get(len) ?? []) {
        if (cand.length < this.opts.minLength || !sameStart(word, cand)) continue;
        const d = editDistance(word, cand, max);
        if (d < bestD) {
          best = cand;
          bestD = d;
          tie = false;
        } else if (d === bestD && best !== null && this.key(cand) !== this.key(best)) tie = true;
      }
    }
    const result = bestD <= max && !tie ? best : null;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(word, result);
    return result;
  }
}
