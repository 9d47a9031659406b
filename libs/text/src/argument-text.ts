import { ABBREVIATIONS } from './abbreviations';
import { fold, foldWords } from './fold';

/**
 * The shared pt-BR fold (lower case, accents removed) with spaces collapsed, for argument
 * extraction. Punctuation is kept on purpose: numbers ("10.000,50"), rates ("1,5%") and e-mails need it.
 */
export function normalizeText(text: string): string {
  return fold(text)
    .replace(/\s+/g, ' ')
    .replace(CHAT_SHORTHAND, (w) => ABBREVIATIONS[w])
    .trim();
}

/**
 * How people shorten words in a chat ("qto vale hj?"): read as the words they stand for. The chat
 * abbreviations whose expansion cannot be mistaken for an argument (a subset of ABBREVIATIONS).
 */
const SHORTHAND = ['hj', 'qto', 'qnto', 'qtos', 'qtas', 'vc', 'pq', 'tb', 'msm', 'td', 'mt'] as const;
const CHAT_SHORTHAND = new RegExp(String.raw`\b(${SHORTHAND.join('|')})\b`, 'g');

/** Normalised text reduced to words (punctuation → spaces), for vocabulary matching. */
export function wordsOf(text: string): string {
  return foldWords(normalizeText(text));
}

/**
 * Phrases are vocabulary terms, a fixed set tested against every question: normalised once each,
 * kept with the spaces around them that make a match fall on word boundaries (re-normalising them
 * per question was a tenth of the planner's CPU). Bounded, should callers ever pass free text.
 */
const paddedPhrases = new Map<string, string>();
const PHRASE_CACHE_MAX = 20_000;

function paddedPhrase(phrase: string): string {
  let p = paddedPhrases.get(phrase);
  if (p === undefined) {
    if (paddedPhrases.size >= PHRASE_CACHE_MAX) paddedPhrases.clear();
    const words = wordsOf(phrase);
    p = words ? ` ${words} ` : '';
    paddedPhrases.set(phrase, p);
  }
  return p;
}

/** A test of phrases against one text, normalised once: true when the phrase occurs on word boundaries. */
export function phraseMatcher(text: string): (phrase: string) => boolean {
  const padded = ` ${wordsOf(text)} `;
  return (phrase) => {
    const p = paddedPhrase(phrase);
    return p !== '' && padded.includes(p);
  };
}
