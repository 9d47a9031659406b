import type { OrderableColumn } from '@cota/catalog';
import { normalize, STOPWORDS } from '@cota/text';

/** An ordering column and the words that name it: its label's ("valor", "causa" for "Valor da causa (R$)") and the catalog's condition words ("dy"). */
export interface NamedOrdering {
  column: string;
  words: string[];
  /** A number, money or date: what has a greatest and a least ("o maior imóvel em área" is not the last name in order). */
  measurable: boolean;
}

/** The words naming each entity's ordering columns, read once: label words and the words conditions name the column by. */
export function namedOrderings(
  orderings: Readonly<Record<string, ReadonlyArray<OrderableColumn>>>,
  conditionWords: Readonly<Record<string, readonly string[]>> = {},
): Record<string, NamedOrdering[]> {
  return Object.fromEntries(
    Object.entries(orderings).map(([entity, cols]) => [
      entity,
      cols.map(({ column, label, type }) => ({
        column,
        words: [
          ...new Set([
            ...normalize(label.replace(/\([^)]*\)/g, ' '))
              .split(' ')
              .filter((w) => w.length >= 4 && !STOPWORDS.has(w)),
            ...(conditionWords[column] ?? []).flatMap((w) => normalize(w).split(' ')).filter((w) => w.length >= 2 && !STOPWORDS.has(w)),
          ]),
        ],
        measurable: type !== 'text',
      })),
    ]),
  );
}

const EXTREME = String.raw`(maior|menor|mais alt[oa]|mais baix[oa]|mais car[oa]|mais barat[oa])`;
const directionOf = (word: string): 'asc' | 'desc' => (/maior|alt|car/.test(word) ? 'desc' : 'asc');

/** The column the words after an extreme name among the orderings, or null. */
function namedColumn(rest: readonly string[], orderings: readonly NamedOrdering[]): string | null {
  return (
    orderings
      .filter((o) => o.measurable)
      .map((o) => ({ o, hits: o.words.filter((w) => rest.includes(w)).length }))
      .filter((x) => x.hits > 0)
      .sort((a, b) => b.hits - a.hits)[0]?.o.column ?? null
  );
}

/** "qual o de maior valor?", "e o de menor área?", "qual o maior?": a pick of one row by an extreme, said alone. */
const PICK = new RegExp(
  String.raw`^(?:e |entao |ok |agora )*(?:qual |quais )?(?:e |foi |seria )?(?:(?:o|a) )?(?:(?:de|do|da|com|que tem|que teve|tem) )?(?:o |a )?${EXTREME}(?: (.+))?$`,
);

/**
 * The row of an entity's list that a short pick asks for: the column its words name among the entity's
 * ordering columns (else the one the list was ordered by) and the direction of its extreme. Null when the
 * message is not such a pick or names no column the list can be ordered by.
 */
export function pickFromList(asked: string, orderings: readonly NamedOrdering[], orderedBy: string | null): { column: string; order: 'asc' | 'desc' } | null {
  const m = PICK.exec(normalize(asked));
  if (!m) return null;
  const rest = (m[2] ?? '').split(' ').filter(Boolean);
  if (rest.length > 5) return null;
  // (a word that names no column of the list asks something else: "qual o de maior dy" after a list of properties)
  const column = namedColumn(rest, orderings) ?? (rest.length === 0 ? orderedBy : null);
  return column && orderings.some((o) => o.column === column) ? { column, order: directionOf(m[1]) } : null;
}

/** A singular extreme inside a question: "qual a minha maior posição?", "qual imóvel do hglg11 tem a maior área?". */
const EXTREME_IN = new RegExp(String.raw`\b${EXTREME}((?: [a-z0-9/]+){0,6})`);
/** A list asked, not one row: "quais os 3 maiores", "top 5", "de cada". */
const MANY = /\b(?:quais|maiores|menores|top|ranking|lista|liste|listar|cada|todos|todas)\b|\b(?:os|as) \d+\b/;

/**
 * The one row of an entity's list a question asks for by an extreme of one of its columns, the column its words name
 * ("a maior posição": the catalog names market value "posição"). Null when it asks a list, or names no column it can be ordered by.
 */
export function extremeRowAsked(asked: string, orderings: readonly NamedOrdering[]): { column: string; order: 'asc' | 'desc' } | null {
  const n = normalize(asked);
  if (MANY.test(n) || !/\bqual\b|^(?:e )?(?:o|a) /.test(n)) return null;
  const m = EXTREME_IN.exec(n);
  // ("o maior e o menor peso": both ends, a list)
  if (!m || new RegExp(EXTREME).test(n.slice(m.index + m[1].length))) return null;
  const column = namedColumn(m[2].split(' ').filter(Boolean), orderings);
  return column ? { column, order: directionOf(m[1]) } : null;
}

/** "qual o fundo com maior peso no ifix?", "qual fii tem o maior dy?": one fund of a ranking asked, not its list. */
export function oneRankedAsked(asked: string): boolean {
  const n = normalize(asked);
  return !MANY.test(n) && /\b(?:qual|que)(?: e)?(?: o)? (?:fundo|fii)\b|\bqual o (?:de|com)\b/.test(n) && EXTREME_IN.test(n);
}
