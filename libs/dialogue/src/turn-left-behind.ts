import type { EntityClasses } from '@cota/catalog';
import { isMarketKind, PlanResponse, QueryParams, StructuredQuestion, TICKER_RE, TurnOutcome } from '@cota/contracts';

/** What a finished turn leaves for the next one to read as a follow-up. */
export interface TurnLeftBehind {
  /** An entity or measure answer the planner accepted and that answered: only it may move the last reference. */
  accepted: boolean;
  /** The funds the answer was about (a comparison's winner, the fund asked). */
  tickers: string[];
  /** The query filters of the answer (indicator, currency, segment...), so "e em 2023?" keeps them. */
  filters: Record<string, string>;
  /** The structured question a follow-up may edit ("e em abril?", "e o beta?"). */
  question: StructuredQuestion | null;
  /** Every fund the answer listed, in the order shown: "qual deles", "o segundo". */
  listed: string[];
  /** An entity answer's parameters (order, limit, window), so "só os 3 primeiros" edits the ranking. */
  params: QueryParams | null;
  /** The date of the one value a measure answer found ("o pior mês foi novembro"): "nesse mês" points at it. */
  answered_date: string | null;
  /** A compound question's other parts, as answered: an edit of the question edits each ("e do HGLG11?"). */
  also_questions: StructuredQuestion[];
}

type Reading = Pick<PlanResponse, 'kind' | 'entity' | 'planner'>;

const funds = (subjects: StructuredQuestion['subjects']) => subjects.filter((s) => s.kind === 'fund').map((s) => s.id);

/** The funds an answer showed, in its order: a comparison best first, a list as its rows came. */
function listedFunds(reading: Reading, outcome: TurnOutcome, question: StructuredQuestion | null): string[] {
  if (reading.kind !== 'measure') return [...new Set(outcome.row_tickers.filter((t) => TICKER_RE.test(t)))].slice(0, 50);
  const compare = question?.compare;
  const byValue = compare ? outcome.values.filter((v) => v.value !== null).sort((a, b) => (compare === 'max' ? b.value! - a.value! : a.value! - b.value!)) : outcome.values;
  return [...new Set([...funds(byValue.map((v) => v.subject)), ...funds(question?.subjects ?? [])])].slice(0, 50);
}

/** The date of the only value a measure answer found, if it found one. */
function answeredDate(reading: Reading, outcome: TurnOutcome): string | null {
  const found = outcome.values.filter((v) => v.value !== null);
  return reading.kind === 'measure' && found.length === 1 ? (found[0].date ?? null) : null;
}

/** The funds the answer was about: what the next "dele" points at. */
function answeredFunds(reading: Reading, outcome: TurnOutcome, question: StructuredQuestion | null, listed: string[], classes: EntityClasses): string[] {
  if (reading.kind === 'measure') {
    // A comparison with a winner is about the winner now ("qual deles tem o maior dy?" → "vale a pena comprar mais dele?").
    if (outcome.winner?.kind === 'fund') return [outcome.winner.id];
    const asked = funds(question?.subjects ?? []);
    // The client's figure over the whole portfolio that one fund made ("eu vendi algum fii?": the HGCR11) is about it.
    const made = [...new Set(outcome.row_tickers)];
    return asked.length === 0 && made.length === 1 ? made : asked;
  }
  const params = outcome.params;
  if (params?.tickers.length) return params.tickers;
  if (params?.ticker) return [params.ticker];
  // A list across funds that came down to one fund ("qual fii de lajes tem o menor p/vp?") is about that fund; the client's
  // own list only when one row was asked for ("qual a minha maior posição?" → "quanto ela representa?").
  const own = !!reading.entity && classes[reading.entity] === 'client';
  return listed.length === 1 && (!own || params?.limit_asked === 1) ? listed : [];
}

/**
 * What a turn leaves behind, decided from the turn's reading and what its answer found: the one place
 * the conversation learns from an answer (the context service records it at commit).
 */
export function turnLeftBehind(reading: Reading, outcome: TurnOutcome, classes: EntityClasses): TurnLeftBehind {
  const answerKind = reading.kind === 'entity' || reading.kind === 'measure';
  const accepted = answerKind && reading.planner.accepted && outcome.status === 'ok' && outcome.problem === null;
  let question = outcome.question;
  // An entity answer that named a measure is editable like one, about the funds the query used
  // (a ranking across funds has none: "top 10 fiis por dy").
  const used = outcome.params?.tickers ?? [];
  // (or the market series its filters chose: "Índices da B3 em 23/12/2025: IFIX ..." is about the IFIX)
  const series = Object.entries(outcome.params?.filters ?? {}).flatMap(([kind, id]) => (isMarketKind(kind) ? [{ kind, id }] : []));
  if (reading.kind === 'entity' && question?.measure && question.subjects.length === 0 && (used.length || series.length)) {
    question = { ...question, subjects: used.length ? used.map((id) => ({ kind: 'fund' as const, id })) : series };
  }
  const listed = listedFunds(reading, outcome, question);
  // A question waiting for its fund ("de qual fundo?") is kept too: "o TRXF11" completes it; so is one asked of
  // a fund Cota does not know ("dividendos do XYZW11": "e do ABCP11?"). So is one with no data for the period
  // asked ("quanto o HGLG11 pagou em 2026?"): "e em 2024?" edits it.
  const emptyPeriod = outcome.problem === 'no_data' && reading.planner.accepted && !!question?.period && (question?.subjects.length ?? 0) > 0;
  const waitsForFund = outcome.problem === 'ticker_required' || outcome.problem === 'series_required' || outcome.problem === 'unknown_ticker';
  // A tool that measured a period leaves it ("minha carteira rendeu quanto em 2023?" → "e o IFIX no mesmo período?").
  const toolPeriod = reading.kind === 'tool' && outcome.status === 'ok' && !!question?.period;
  const keepQuestion = ((accepted || waitsForFund || emptyPeriod) && question && (question.measure || reading.kind === 'measure')) || toolPeriod;
  return {
    accepted,
    tickers: accepted ? answeredFunds(reading, outcome, question, listed, classes) : [],
    filters: answerKind && outcome.status === 'ok' ? (outcome.params?.filters ?? {}) : {},
    question: keepQuestion ? question : null,
    listed: accepted ? listed : [],
    // (so do rows a query found none of: "algum com risco provável?" → none → "e de risco possível?" edits that query)
    params: reading.kind === 'entity' && (accepted || (reading.planner.accepted && outcome.problem === 'no_data')) ? outcome.params : null,
    answered_date: accepted ? answeredDate(reading, outcome) : null,
    also_questions: accepted && keepQuestion ? outcome.also_questions : [],
  };
}
