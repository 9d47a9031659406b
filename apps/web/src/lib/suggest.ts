/**
 * Next questions offered under an answer, from how it was read: for one fund, its dividends over 12
 * months, its risk and a comparison with the fund that leads its segment when the answer's own rows
 * hold it (else the segment's ranking, where the leader shows); for a ranking, the same list
 * narrowed to a segment it holds; for the portfolio, this month's income. Every fund named comes
 * from the answer (its subjects or rows): none is ever made up; a segment is named only when the
 * planner reads it as a filter (`sectors`). Pure.
 */
import { TICKER_RE } from '@cota/text';
import { AskReply, EntityClasses, entityRows, measureValues, StructuredQuestion } from './types';

/** What the suggestions read of an answer (a live reply, or a turn restored from the history). */
export interface AnswerReading {
  status: string;
  entity: string | null;
  kind: string | null;
  question: StructuredQuestion | null;
  /** The funds the answer is about, in order. */
  tickers: string[];
  rows: Array<Record<string, unknown>>;
  tool: string | null;
}

const MAX = 3;

export function readingOfReply(reply: AskReply): AnswerReading {
  const m = reply.meta ?? {};
  const rows = entityRows(reply)?.rows ?? [];
  const values = measureValues(reply) ?? [];
  const fromQuestion = (m.planner?.question?.subjects ?? []).filter((s) => s.kind === 'fund').map((s) => s.id);
  const fromValues = values.filter((v) => v.subject.kind === 'fund').map((v) => v.subject.id);
  const fromRows = rows.map((r) => r.ticker).filter((t): t is string => typeof t === 'string');
  const fromParams = [m.params?.ticker, ...((m.params?.tickers as unknown[]) ?? [])].filter((t): t is string => typeof t === 'string');
  return {
    status: reply.status,
    entity: m.entity ?? null,
    kind: m.planner?.kind ?? null,
    question: m.planner?.question ?? null,
    tickers: unique([...fromQuestion, ...fromValues, ...fromParams, ...fromRows].filter((t) => TICKER_RE.test(t))),
    rows,
    tool: m.tool?.name ?? null,
  };
}

/** A restored turn has no rows: its recorded reading (entity, structured question, funds) is enough. */
export function readingOfTurn(
  meta: { status?: string; entity?: string | null; kind?: string; question?: StructuredQuestion | null; tickers?: string[] } | undefined,
): AnswerReading {
  const m = meta ?? {};
  const fromQuestion = (m.question?.subjects ?? []).filter((s) => s.kind === 'fund').map((s) => s.id);
  return {
    status: m.status ?? 'ok',
    entity: m.entity ?? null,
    kind: m.kind ?? null,
    question: m.question ?? null,
    tickers: unique([...fromQuestion, ...(m.tickers ?? [])].filter((t) => TICKER_RE.test(t))),
    rows: [],
    tool: null,
  };
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

function segmentOf(row: Record<string, unknown>): string | null {
  for (const k of ['sector', 'segment', 'segmento', 'setor']) if (typeof row[k] === 'string' && (row[k] as string).trim()) return (row[k] as string).trim();
  return null;
}

function isPortfolio(r: AnswerReading, classes: EntityClasses): boolean {
  return (r.entity !== null && classes[r.entity] === 'client') || (r.question?.subjects ?? []).some((s) => s.kind === 'portfolio');
}

/** Up to three questions to ask next, none repeating the one just asked. */
export function suggestNext(r: AnswerReading, classes: EntityClasses, asked: string, sectors: string[] = []): string[] {
  if (r.status !== 'ok' || r.tool) return [];
  const known = new Map(sectors.map((s) => [fold(s), s]));
  const readable = (segment: string | null) => (segment ? (known.get(fold(segment)) ?? null) : null);
  const out: string[] = [];
  if (isPortfolio(r, classes)) {
    out.push('quanto recebi de proventos este mês?', 'renda mensal da minha carteira', 'rentabilidade da minha carteira contra o IFIX');
  } else if (r.tickers.length === 1) {
    const t = r.tickers[0];
    const measure = r.question?.measure ?? '';
    if (r.entity !== 'fiis_dividendos' && !/dividend/.test(measure)) out.push(`dividendos do ${t} nos últimos 12 meses`);
    if (r.entity !== 'fiis_financials_risk' && !/volat|sharpe|drawdown|risk/.test(measure)) out.push(`qual o risco do ${t}?`);
    const leader = segmentLeader(r, t);
    const own = r.rows.find((row) => row.ticker === t);
    const segment = readable(own ? segmentOf(own) : null);
    if (leader) out.push(`compare ${t} e ${leader}`);
    else if (segment) out.push(`maiores FIIs de ${segment.toLowerCase()} por valor de mercado`);
  } else if (r.tickers.length > 2 && r.rows.length > 2) {
    const segments = unique(r.rows.map((row) => readable(segmentOf(row))).filter((s): s is string => !!s));
    for (const s of segments.slice(0, 2)) out.push(`e só os de ${s.toLowerCase()}?`);
    if (r.tickers[0]) out.push(`qual o risco do ${r.tickers[0]}?`);
  } else if (r.tickers.length === 2) {
    out.push(`qual dos dois tem o menor P/VP?`, `dividendos do ${r.tickers[0]} e do ${r.tickers[1]} nos últimos 12 meses`);
  }
  const seen = fold(asked.trim());
  return unique(out)
    .filter((q) => fold(q) !== seen)
    .slice(0, MAX);
}

/**
 * The first other fund of the same segment among the answer's rows (rows come ranked), or null: the
 * leader is only named when the answer itself holds it.
 */
function segmentLeader(r: AnswerReading, ticker: string): string | null {
  const own = r.rows.find((row) => row.ticker === ticker);
  const segment = own ? segmentOf(own) : null;
  if (!segment) return null;
  const other = r.rows.find((row) => row.ticker !== ticker && typeof row.ticker === 'string' && TICKER_RE.test(row.ticker) && segmentOf(row) === segment);
  return other ? (other.ticker as string) : null;
}
