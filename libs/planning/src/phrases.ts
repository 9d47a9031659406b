import { normalize, stem } from '@cota/text';

/** A word or phrase of a policy, in the form questions are compared in (normalised, stemmed). */
export interface CompiledPhrase {
  /** As written in the policy, for explanations. */
  text: string;
  /** Its words in the normal form, as written (a one-word courtesy is matched by them). */
  words: string[];
  stems: string[];
}

export function compilePhrase(text: string): CompiledPhrase {
  const words = normalize(text).split(' ').filter(Boolean);
  return { text, words, stems: words.map(stem) };
}

/**
 * Whether `phrase` occurs in `stems` in order, with at most `maxGap` other words between two
 * consecutive phrase words ("preço médio" also matches "preço bem médio"; gap 0 = contiguous).
 */
export function containsPhrase(stems: readonly string[], phrase: readonly string[], maxGap: number, atStart = false): boolean {
  if (phrase.length === 0) return false;
  const lastStart = atStart ? 0 : stems.length - phrase.length;
  for (let i = 0; i <= lastStart; i++) {
    if (stems[i] !== phrase[0]) continue;
    let pos = i;
    let ok = true;
    for (let j = 1; j < phrase.length; j++) {
      let found = -1;
      // (a preposition or article binds to its neighbours: only a number may follow an article before its word ("os 3 piores"
      // is "os piores"; "em proventos" is not in "em 2023 (proventos"), only a number or a possessive may come
      // before it ("peso dele no índice" is "peso no índice", "cotas de" is not in "come-cotas igual fundo de"))
      const after = FUNCTION_STEMS.has(phrase[j - 1]);
      const afterArticle = ARTICLE_STEMS.has(phrase[j - 1]);
      const before = FUNCTION_STEMS.has(phrase[j]);
      for (let k = pos + 1; k <= Math.min(stems.length - 1, pos + 1 + maxGap); k++) {
        if (stems[k] === phrase[j]) {
          found = k;
          break;
        }
        const numeric = /^\d/.test(stems[k]);
        if ((after && !(numeric && afterArticle)) || (before && !numeric && !POSSESSIVE_STEMS.has(stems[k]))) break;
      }
      if (found < 0) {
        ok = false;
        break;
      }
      pos = found;
    }
    if (ok) return true;
  }
  return false;
}

/** Articles, prepositions and conjunctions: a phrase made only of them has nothing to anchor a gap ("o que é" is not in "o que eu vendi e"). */
const FUNCTION_STEMS = new Set(
  ['o', 'a', 'os', 'as', 'que', 'q', 'e', 'eh', 'de', 'do', 'da', 'dos', 'das', 'em', 'no', 'na', 'nos', 'nas', 'um', 'uma', 'se', 'por', 'pra', 'para', 'com', 'ao'].map(stem),
);

/** Articles: a number may stand between one and its noun ("os 3 piores"). */
const ARTICLE_STEMS = new Set(['o', 'a', 'os', 'as', 'um', 'uma'].map(stem));

/** Whose a thing is ("peso dele no índice"): words that may stand between a word and the preposition after it. */
const POSSESSIVE_STEMS = new Set(
  ['dele', 'dela', 'deles', 'delas', 'desse', 'dessa', 'deste', 'desta', 'meu', 'minha', 'meus', 'minhas', 'seu', 'sua', 'seus', 'suas', 'nosso', 'nossa'].map(stem),
);

/** `containsPhrase` after an O(1) check that the phrase's first word occurs at all; a phrase of function words only matches as said. */
export function hasPhrase(words: readonly string[], wordSet: ReadonlySet<string>, phrase: readonly string[], maxGap: number, atStart = false): boolean {
  if (phrase.length === 0 || !wordSet.has(phrase[0])) return false;
  return containsPhrase(words, phrase, phrase.every((w) => FUNCTION_STEMS.has(w)) ? 0 : maxGap, atStart);
}
