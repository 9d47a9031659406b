import { normalize, STOPWORDS } from '@cota/text';

/** An ordering column and the words of its label that name it ("valor", "causa" for "Valor da causa (R$)"). */
export interface NamedOrdering {
  column: string;
  words: string[];
}

/** The label words of each entity's ordering columns, read once. */
export function namedOrderings(orderings: Readonly<Record<string, ReadonlyArray<{ column: string; label: string }>>>): Record<string, NamedOrdering[]> {
  return Object.fromEntries(
    Object.entries(orderings).map(([entity, cols]) => [
      entity,
      cols.map(({ column, label }) => ({
        column,
        words: normalize(label.replace(/\([^)]*\)/g, ' '))
          .split(' ')
          .filter((w) => w.length >= 4 && !STOPWORDS.has(w)),
      })),
    ]),
  );
}

/** "qual o de maior valor?", "e o de menor área?", "qual o maior?": a pick of one row by an extreme, said alone. */
const PICK =
  /^(?:e |entao |ok |agora )*(?:qual |quais )?(?:e |foi |seria )?(?:(?:o|a) )?(?:(?:de|do|da|com|que tem|que teve|tem) )?(?:o |a )?(maior|menor|mais alt[oa]|mais baix[oa]|mais car[oa]|mais barat[oa])(?: (.+))?$/;

/**
 * The row of an entity's list that a short pick asks for: the column its words name among the entity's
 * ordering columns (else the one the list was ordered by) and the direction of its extreme. Null when the
 * message is not such a pick or names no column the list can be ordered by.
 */
export function pickFromList(asked: string, orderings: readonly NamedOrdering[], orderedBy: string | null): { column: string; order: 'asc' | 'desc' } | null {
  const m = PICK.exec(normalize(asked));
  if (!m) return null;
  const order = /maior|alt|car/.test(m[1]) ? 'desc' : 'asc';
  const rest = (m[2] ?? '').split(' ').filter(Boolean);
  if (rest.length > 5) return null;
  const named = orderings
    .map((o) => ({ o, hits: o.words.filter((w) => rest.includes(w)).length }))
    .filter((x) => x.hits > 0)
    .sort((a, b) => b.hits - a.hits)[0]?.o.column;
  // (a word that names no column of the list asks something else: "qual o de maior dy" after a list of properties)
  const column = named ?? (rest.length === 0 ? orderedBy : null);
  return column && orderings.some((o) => o.column === column) ? { column, order } : null;
}
