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

/** True when `phrase` (already normalised words) occurs in `words` on word boundaries. */
export function containsPhrase(words: string, phrase: string): boolean {
  const p = wordsOf(phrase);
  if (!p) return false;
  return ` ${words} `.includes(` ${p} `);
}
