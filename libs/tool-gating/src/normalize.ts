import { fold } from '@cota/text';

/**
 * The shared pt-BR fold (lower case, accents removed) with spaces collapsed, for argument
 * extraction. Punctuation is kept on purpose: numbers ("10.000,50"), rates ("1,5%") and e-mails need it.
 */
export function normalizeText(text: string): string {
  return fold(text).replace(/\s+/g, ' ').trim();
}

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
