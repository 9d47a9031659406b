/**
 * araquem's fund names lost their accented letters on export ("Kinea Renda Imobiliria",
 * "Kinea Ndices De Preos", "Suno Logstica"). The other sources spell the same words with accents
 * (CVM "IMOBILIÁRIA", B3 "ÍNDICES DE PREÇOS"): a word that equals an accented word with its
 * accented letters removed is that word, written back in the damaged word's casing.
 */

const NON_ASCII_LETTER = /[^\x00-\x7F]/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** Accented words of a set of names, keyed by the form they take with their accents stripped. */
export function accentVocabulary(names: Array<string | null | undefined>): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const name of names) {
    if (!name) continue;
    for (const word of name.normalize('NFC').match(WORD) ?? []) {
      const lower = word.toLowerCase();
      if (!NON_ASCII_LETTER.test(lower)) continue;
      NON_ASCII_LETTER.lastIndex = 0;
      const stripped = lower.replace(NON_ASCII_LETTER, '');
      // Too short a remainder ("é" -> "") would match anything.
      if (stripped.length < 3) continue;
      const forms = counts.get(stripped) ?? new Map<string, number>();
      forms.set(lower, (forms.get(lower) ?? 0) + 1);
      counts.set(stripped, forms);
    }
  }
  const vocab = new Map<string, string>();
  for (const [stripped, forms] of counts) vocab.set(stripped, [...forms].sort((a, b) => b[1] - a[1])[0][0]);
  return vocab;
}

/** The name with every accent-stripped word restored; words the vocabulary does not know stay. */
export function repairStrippedAccents(name: string, vocab: Map<string, string>): string {
  return name.replace(WORD, (word) => {
    if (/[^\x00-\x7F]/u.test(word)) return word;
    const accented = vocab.get(word.toLowerCase());
    if (!accented) return word;
    if (word === word.toUpperCase()) return accented.toUpperCase();
    if (word[0] === word[0].toUpperCase()) return accented.charAt(0).toUpperCase() + accented.slice(1);
    return accented;
  });
}
