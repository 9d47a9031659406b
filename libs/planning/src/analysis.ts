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
  tickers: TickerMatch;
}

export function analyseQuestion(question: string, tickers: TickerMatch, vocabulary: FuzzyVocabulary): AnalysedQuestion {
  const normalized = normalize(question);
  const tokens = normalized ? normalized.split(' ') : [];
  const corrections: string[] = [];
  const stems = tokens.map((t) => {
    if (tickers.surfaces.has(t)) return TICKER_TOKEN;
    if (vocabulary.has(t)) return stem(t);
    const fixed = vocabulary.correct(t);
    if (fixed && fixed !== t) {
      corrections.push(`${t}->${fixed}`);
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
    tickers,
  };
}
