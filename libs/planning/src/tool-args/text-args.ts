import { normalizeText, phraseMatcher, tickersIn } from '@cota/text';

const EMAIL_RE = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/i;
/** Report ids the tools mint: rel_YYYYMMDD_HHMMSS_xxxxxx. */
export const REPORT_ID_RE = /\brel_\d{8}_\d{6}_[a-f0-9]{6}\b/i;

/** An e-mail address written in the question, lower-cased. */
export function extractEmail(question: string): string | undefined {
  return question.match(EMAIL_RE)?.[0].toLowerCase();
}

/** A report id written in the question (explicit ids always beat the session's). */
export function extractReportId(question: string): string | undefined {
  return question.match(REPORT_ID_RE)?.[0].toLowerCase();
}

/** Vocabulary of a filter dimension: canonical key → words people use for it. */
export type Vocabulary = Record<string, { label: string; terms: string[] }>;

/** Every canonical key whose terms occur in the question, in vocabulary order. */
export function matchVocabulary(question: string, vocabulary: Vocabulary): string[] {
  const says = phraseMatcher(question);
  return Object.entries(vocabulary)
    .filter(([, v]) => v.terms.some(says))
    .map(([key]) => key);
}

/** Fund tickers written in the question (upper-cased first, so "hglg11" counts too). */
export function extractTickers(question: string): string[] {
  return tickersIn(normalizeText(question));
}

export interface ReportFilterArgs {
  secao?: string;
  segmento?: string;
  tickers?: string[];
}

/** Section, segment and ticker filters for `filtrar_relatorio` ("filtre só os de logística"). */
export function extractReportFilters(question: string, sections: Vocabulary, segments: Vocabulary): ReportFilterArgs {
  const out: ReportFilterArgs = {};
  const secao = matchVocabulary(question, sections)[0];
  if (secao) out.secao = secao;
  const segmento = matchVocabulary(question, segments)[0];
  if (segmento) out.segmento = segmento;
  const tickers = extractTickers(question);
  if (tickers.length) out.tickers = tickers;
  return out;
}
