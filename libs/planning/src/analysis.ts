import { FuzzyVocabulary, fold, normalize, stem } from '@cota/text';
import { TickerMatch } from './tickers';

/** Marker that replaces a fund ticker among the stems (routing cares that a fund is named, not which). */
export const TICKER_TOKEN = '<ticker>';

/** One question in every form the planner compares. */
export interface AnalysedQuestion {
  original: string;
  /** Lowercase, no accents, punctuation kept (dates, numbers, "R$"). */
  folded: string;
  normalized: string;
  tokens: string[];
  /** Stems with misspellings corrected against the policy vocabulary and tickers as TICKER_TOKEN. */
  stems: string[];
  /** The stems and tokens as sets: most phrases are ruled out by their first word in O(1). */
  stemSet: ReadonlySet<string>;
  tokenSet: ReadonlySet<string>;
  /** "dividnedos -> dividendos" corrections made, for the explanation. */
  corrections: string[];
  /** The normalised text with those corrections ("divdendos do xpml11" -> "dividendos do xpml11"). */
  corrected: string;
  tickers: TickerMatch;
}

export function analyseQuestion(question: string, tickers: TickerMatch, vocabulary: FuzzyVocabulary): AnalysedQuestion {
  const normalized = normalize(question);
  const tokens = normalized ? normalized.split(' ') : [];
  const corrections: string[] = [];
  const words = [...tokens];
  const stems = tokens.map((t, i) => {
    if (tickers.surfaces.has(t)) return TICKER_TOKEN;
    if (vocabulary.has(t)) return stem(t);
    const fixed = vocabulary.correct(t);
    if (fixed && fixed !== t) {
      corrections.push(`${t}->${fixed}`);
      // A correction that only changes the ending ("investe" -> "investi") is another form of a word, not a typo.
      if (!sameButEnding(t, fixed)) words[i] = fixed;
      return stem(fixed);
    }
    return stem(t);
  });
  return {
    original: question,
    folded: fold(question),
    normalized,
    tokens,
    stems,
    stemSet: new Set(stems),
    tokenSet: new Set(tokens),
    corrections,
    corrected: words.join(' '),
    tickers,
  };
}

/** Whether two words differ only in their last two letters. */
function sameButEnding(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= Math.max(a.length, b.length) - 2;
}
