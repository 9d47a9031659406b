/** Characters that show nothing: zero-width space, non-joiner and joiner, word joiner, BOM, soft hyphen. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;

/** ASCII and the precomposed Latin-1 letters (À-ÿ): text NFKC leaves as it is and with nothing invisible. */
const PLAIN = /^[\x00-\x7f\u00c0-\u00ff]*$/;

/**
 * Text as a person reads it: compatibility characters in their plain form (NFKC: "ＨＧＬＧ１１" is
 * "HGLG11", "ﬁ" is "fi") and invisible characters removed, so a ticker pasted with a zero-width
 * space is still that ticker. Every fold goes through it, so plain text (almost every question)
 * skips the normalisation.
 */
export function readableText(text: string): string {
  return PLAIN.test(text) ? text : text.normalize('NFKC').replace(INVISIBLE, '');
}

/** Diacritics removed, case and every other character kept ("Ações" → "Acoes"). */
export function stripAccents(text: string): string {
  return readableText(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

/**
 * Lowercase and strip diacritics, keeping every other character ("1º" is "1o": NFKC). Pattern
 * extraction (dates, numbers, "R$ 10 mil") works on this form: it still has digits, '/', ',' and '%'.
 */
export function fold(text: string): string {
  return stripAccents(text).toLowerCase();
}

/** The folded words of a text, single-spaced, punctuation dropped ("Galpões Logísticos (SP)" → "galpoes logisticos sp"). */
export function foldWords(text: string): string {
  return fold(text)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** A code as compared: upper case, no accents, no punctuation ("IPCA-15" → "IPCA15", "igp-m" → "IGPM"). */
export function codeOf(text: string): string {
  return stripAccents(text)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}
