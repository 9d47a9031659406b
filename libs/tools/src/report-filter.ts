import { Row } from '@cota/contracts';
import { foldWords } from '@cota/text';
import { renderReport } from './render';
import { newReportId, Report, ReportFilters } from './report';

/** Segment vocabulary (policies/tool_gate.yaml `filters.segments`): key → label and words. */
export type SegmentVocabulary = Record<string, { label: string; terms: string[] }>;
export type SectionVocabulary = Record<string, { label: string; terms: string[] }>;

/** Whether a warehouse segment name ("Logística", "Galpões Logísticos") belongs to a segment key. */
export function segmentMatches(segment: unknown, key: string, vocabulary: SegmentVocabulary): boolean {
  if (typeof segment !== 'string' || !segment.trim()) return false;
  const entry = vocabulary[key];
  if (!entry) return false;
  const words = ` ${foldWords(segment)} `;
  return [entry.label, ...entry.terms].some((t) => words.includes(` ${foldWords(t)} `) || words.includes(` ${foldWords(t)}`));
}

function describe(filters: ReportFilters, segments: SegmentVocabulary, sections: SectionVocabulary): string {
  const parts: string[] = [];
  if (filters.secao) parts.push(sections[filters.secao]?.label ?? filters.secao);
  if (filters.segmento) parts.push(segments[filters.segmento]?.label ?? filters.segmento);
  if (filters.tickers?.length) parts.push(filters.tickers.join(', '));
  return parts.join(' · ');
}

/**
 * A filtered view of a stored report, as a new report (its own id, `parent_report_id` = the
 * original). Segment and ticker filters keep only fund rows that match (the market section has no
 * funds, so it is left out); a section filter keeps only that section.
 */
export function filterReport(
  source: Report,
  filters: ReportFilters,
  vocab: { segments: SegmentVocabulary; sections: SectionVocabulary },
  now: Date,
  randomId?: () => string,
): Report {
  const tickers = filters.tickers?.map((t) => t.toUpperCase());
  const keep = (row: Row) =>
    (!filters.segmento || segmentMatches(row.segmento, filters.segmento, vocab.segments)) &&
    (!tickers?.length || (typeof row.ticker === 'string' && tickers.includes(row.ticker.toUpperCase())));
  const byFund = Boolean(filters.segmento || tickers?.length);

  const sections = source.sections
    .filter((s) => !filters.secao || s.id === filters.secao)
    .filter((s) => !byFund || s.id !== 'mercado')
    .map((s) => {
      if (!byFund) return s;
      const rows = s.rows.filter(keep);
      return { ...s, rows, note: rows.length ? null : 'Nenhum item corresponde ao filtro nesta seção.' };
    });

  const label = describe(filters, vocab.segments, vocab.sections);
  const base: Omit<Report, 'text'> = {
    report_id: newReportId(now, randomId),
    kind: 'filtered',
    title: `${source.title} — filtro: ${label}`,
    generated_at: now.toISOString(),
    parent_report_id: source.report_id,
    filters,
    sections,
    sources: source.sources,
  };
  return { ...base, text: renderReport(base) };
}
