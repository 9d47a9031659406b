import { fold } from '@cota/text';

/**
 * The shared pt-BR fold (lower case, accents removed) with spaces collapsed, for argument
 * extraction. Punctuation is kept on purpose: numbers ("10.000,50"), rates ("1,5%") and e-mails need it.
 */
export function normalizeText(text: string): string {
  return fold(text)
    .replace(/\s+/g, ' ')
    .replace(CHAT_SHORTHAND, (w) => SHORTHAND[w])
    .trim();
}

/** How people shorten words in a chat ("qto vale hj?"): read as the words they stand for. */
const SHORTHAND: Record<string, string> = { hj: 'hoje', qto: 'quanto', qnto: 'quanto', qtos: 'quantos', qtas: 'quantas', vc: 'voce', pq: 'porque', tb: 'tambem', msm: 'mesmo', td: 'tudo', mt: 'muito' };
const CHAT_SHORTHAND = new RegExp(String.raw`\b(${Object.keys(SHORTHAND).join('|')})\b`, 'g');

/** Normalised text reduced to words (punctuation → spaces), for vocabulary matching. */
export function wordsOf(text: string): string {
  return normalizeText(text)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Phrases are vocabulary terms, a fixed set tested against every question: normalised once each
 * (re-normalising them per question was a tenth of the planner's CPU). Bounded, should callers
 * ever pass free text.
 */
const phraseWords = new Map<string, string>();
const PHRASE_CACHE_MAX = 20_000;

/** True when `phrase` (already normalised words) occurs in `words` on word boundaries. */
export function containsPhrase(words: string, phrase: string): boolean {
  let p = phraseWords.get(phrase);
  if (p === undefined) {
    if (phraseWords.size >= PHRASE_CACHE_MAX) phraseWords.clear();
    p = wordsOf(phrase);
    phraseWords.set(phrase, p);
  }
  if (!p) return false;
  return ` ${words} `.includes(` ${p} `);
}
