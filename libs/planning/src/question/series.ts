import { isMarketKind, type StructuredQuestion } from '@cota/contracts';
import { MeasureCatalog } from '@cota/catalog';

/** Several market series, and nothing else, that no one measure serves (the IFIX with the Selic). */
export function isMixedSeries(subjects: StructuredQuestion['subjects'], catalog: MeasureCatalog): boolean {
  const market = subjects.filter((s) => isMarketKind(s.kind));
  // Market series, possibly with funds ("o knri11 bateu o ifix em 2022?"); never the client's portfolio.
  if (subjects.length < 2 || market.length === 0 || subjects.some((s) => s.kind === 'portfolio')) return false;
  return !Object.values(catalog.measures).some((m) => subjects.every((s) => s.kind === m.subject && (!m.subject_ids || m.subject_ids.includes(s.id))));
}
