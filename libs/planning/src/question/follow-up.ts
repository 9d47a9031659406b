import { MAX_QUESTION_SUBJECTS, type FollowUpMeta, type QueryParams, type QuestionSubject, type StructuredQuestion } from '@cota/contracts';
import { clientMeasureOf, defaultMeasureFor, MeasureCatalog, MeasureDef, sameFacts } from '@cota/catalog';
import { isOneDay, isSpan, resolvePeriod, shiftPeriod, yearOf } from '@cota/periods';
import { fold, normalize } from '@cota/text';
import { isMixedSeries } from './series';
import { chooseAgg, companionAggs, LISTED_REFERENCE, QuestionReading } from './structure';

export interface PreviousTurn {
  question: StructuredQuestion | null;
  /** The funds the previous answer was about (its rows), for "qual deles". */
  tickers: string[];
  /** The conversation's newest list of funds (two or more), kept while answers pick from it: "desses", "entre esses dois". */
  list?: string[];
  /** The subjects of the answer before it: "qual dos dois" after "X?" → "e o Y?" compares X and Y. */
  earlier?: QuestionSubject[];
  /** The period of the answer before it: "qual foi a variação nesse intervalo?" spans both. */
  earlierPeriod?: StructuredQuestion['period'];
  /** The measure of the answer before it: going back to its subjects asks it again. */
  earlierMeasure?: string | null;
  /** The date of the one value the previous answer found: "nesse mês" points at its month. */
  answeredDate?: string | null;
}

/**
 * The one place a follow-up is resolved: the new question is an edit of the previous structured
 * question. What the person says wins; what they leave out is kept ("e em abril?" changes the
 * period only; "e do HGLG11?" the subject; "e o dy?" the measure; "compara com o XPML11" adds a
 * subject; "no mesmo período" keeps the period; "qual deles" ranks the previous answer's funds).
 * Ticker inheritance by the last reference (CONTRACT: three layers) stays in the context service.
 */
export function applyFollowUp(read: QuestionReading, previous: PreviousTurn, catalog: MeasureCatalog): { question: StructuredQuestion; meta: FollowUpMeta } {
  const reading = withoutImpliedPortfolio(read, previous, catalog);
  const prev = previous.question;
  if (!prev) return followUpWithoutPrevious(reading, previous);
  const edit: FollowUpEdit = { reading: withAggOnlyWord(reading, prev, catalog), cur: reading.question, prev, previous, catalog, inherited: [], changed: [], ownFigure: null };
  edit.ownFigure = ownFigureOfPrevious(edit);
  // The steps run in this order: each one's choice feeds the next, and each logs what it kept or changed.
  const subjects = editSubjects(edit);
  const named = editMeasure(edit, subjects);
  const period = withoutPeriodOfCurrentOnlyMeasure(edit, named, editPeriod(edit));
  let measure = keptDating(edit, named, period);
  let { agg, also } = editAggregation(edit, measure, period);
  // (inside the month found, what the measure is there: its own reading, not the extreme searched for before)
  if (edit.drilled && !reading.aggNamed && reading.aggWanted.length === 0 && measure && agg === prev.agg && (!!prev.extreme_group || agg === 'max' || agg === 'min')) {
    agg = catalog.measures[measure].default_agg;
    also = [];
  }
  // Series that no one measure serves ("qual foi melhor?" after the Selic and then the IFIX): each
  // its own return over the period, or its own value at one date.
  if (isMixedSeries(subjects, catalog)) {
    measure = null;
    agg = isSpan(period) ? 'variation' : 'value';
    also = [];
  }
  // "e o de maior dy?" after the client's funds compared: one value each, so "maior" picks one of them.
  // ("e a menor?" after the client's largest position: the other end among the same funds)
  const several =
    subjects.length > 1 || (subjects[0]?.kind === 'portfolio' && ((!!measure && catalog.measures[measure]?.subject === 'fund') || (!!prev.compare && measure === prev.measure)));
  // (the end asked, whether or not the measure has it as an aggregation: "menor" of what was invested)
  const end = agg === 'max' || agg === 'min' ? agg : reading.aggWanted.includes('min') ? 'min' : reading.aggWanted.includes('max') ? 'max' : null;
  const picked = several && !!measure && end !== null && !isSpan(period) ? end : null;
  if (picked) agg = catalog.measures[measure!].default_agg;
  const { cur, inherited, changed } = edit;
  // "e no ano todo?" after the best month of a year: the span's own figure, not another of its months.
  const wholeSpan = reading.cues.includes('whole_span') && !!prev.extreme_group && !reading.aggNamed && reading.aggWanted.length === 0 && !!measure;
  if (wholeSpan) {
    agg = chooseAgg(catalog.measures[measure!], new Set(), period, false, '');
    also = [];
    changed.push('aggregation (the whole span)');
  }
  // "e o melhor?" after the worst month: the other end among the same groups ("quanto subiu no semestre todo?" asks the span's own).
  const keepsExtreme =
    !wholeSpan &&
    !edit.drilled &&
    !cur.extreme_group &&
    !!prev.extreme_group &&
    !cur.group_by &&
    (reading.extremeOrder !== null || (!reading.aggNamed && reading.aggWanted.length === 0));
  // (the months were grouped only to find the extreme: without it, the span is asked whole)
  const group_by = cur.group_by ?? (prev.extreme_group && !keepsExtreme ? null : prev.group_by);
  if (keepsExtreme) {
    agg = reading.extremeOrder ?? prev.agg;
    inherited.push('extreme group');
    if (agg !== prev.agg && inherited.includes('aggregation')) {
      inherited.splice(inherited.indexOf('aggregation'), 1);
      changed.push('aggregation');
    }
  } else if (cur.extreme_group) agg = cur.agg;
  const kept = keptAlong(edit, subjects, measure, keepsExtreme);
  return {
    question: {
      subjects: subjects.slice(0, MAX_QUESTION_SUBJECTS),
      measure,
      agg,
      also,
      period,
      group_by,
      compare: picked ?? editCompare(edit, subjects),
      condition: cur.condition ?? null,
      ...kept,
    },
    meta: {
      applied: true,
      inherited,
      changed,
      reason: `edited the previous question: kept ${inherited.join(', ') || 'nothing'}; changed ${changed.join(', ') || 'nothing'}`,
    },
  };
}

/** What the edited question keeps besides its parts: the extreme group, fund by fund, the holding, the close a yield divides by. */
function keptAlong(
  edit: FollowUpEdit,
  subjects: QuestionSubject[],
  measure: string | null,
  keepsExtreme: boolean,
): Pick<StructuredQuestion, 'extreme_group' | 'shares' | 'each_fund' | 'price_at'> {
  const { reading, cur, prev, catalog, changed } = edit;
  const kept: Pick<StructuredQuestion, 'extreme_group' | 'shares' | 'each_fund' | 'price_at'> = {};
  if (cur.extreme_group || keepsExtreme) kept.extreme_group = true;
  // ("e em 2023?" after "quanto recebi de cada fii em 2024?": still fund by fund, unless a total or a pick is asked now)
  const portfolioKept = subjects.length > 0 && subjects.every((s) => s.kind === 'portfolio');
  if (cur.each_fund || (prev.each_fund && portfolioKept && measure === prev.measure && !reading.aggNamed && !cur.compare)) kept.each_fund = true;
  // ("e em 2023?" after "se eu tivesse 500 cotas ...": the same holding, while the measure is per share)
  const shares = cur.shares ?? (measure && catalog.measures[measure]?.per_share ? prev.shares : undefined);
  if (shares) kept.shares = shares;
  // (the close a yield was divided by stays with the yield and its period: "faz a mesma conta pro XPML11")
  const priceAt = cur.price_at ?? (measure === prev.measure && !changed.some((c) => c.startsWith('period')) ? prev.price_at : undefined);
  if (priceAt) kept.price_at = priceAt;
  return kept;
}

type Period = StructuredQuestion['period'];
type RangePeriod = Extract<NonNullable<Period>, { kind: 'range' }>;

/** One follow-up's edit of the previous question: what both say, and the log of what was kept and what changed, in the order decided. */
interface FollowUpEdit {
  reading: QuestionReading;
  cur: StructuredQuestion;
  prev: StructuredQuestion;
  previous: PreviousTurn;
  catalog: MeasureCatalog;
  inherited: string[];
  changed: string[];
  /** "e pra mim, com as minhas cotas?": the client's own figure of the previous question's measure, read once. */
  ownFigure: MeasureDef | null;
  /** "nesse mês" after the worst month of a year: the period is the month of the value answered, asked on its own (no extreme kept). */
  drilled?: boolean;
}

/**
 * "e quanto entrou com essa venda?" after the result of the XPIN11's sale: the client's own figures
 * of the same fund, not the whole portfolio the measure defaulted to.
 */
function withoutImpliedPortfolio(read: QuestionReading, previous: PreviousTurn, catalog: MeasureCatalog): QuestionReading {
  const prevOwn = !!previous.question?.measure && catalog.measures[previous.question.measure]?.subject === 'portfolio';
  const prevOwnOfFund = prevOwn && previous.question!.subjects.some((s) => s.kind === 'fund');
  // ("e quantas cotas dele sobraram?" after a sale the whole portfolio's answer found in one fund)
  const ofItsFund = prevOwn && read.cues.includes('refers_fund') && previous.tickers.length === 1;
  return read.impliedPortfolio && (prevOwnOfFund || ofItsFund) ? { ...read, question: { ...read.question, subjects: [] } } : read;
}

/** "nele", "desse fundo", or "ele" said of what the conversation is about: one subject pointed at. */
export const refersToOne = (reading: Pick<QuestionReading, 'cues'>) => reading.cues.includes('refers_fund') || reading.cues.includes('refers_subject');

/** No previous structured question: only "qual deles" and "nele" still point at the previous answer's funds. */
function followUpWithoutPrevious(reading: QuestionReading, previous: PreviousTurn): { question: StructuredQuestion; meta: FollowUpMeta } {
  const cur = reading.question;
  const among = amongFunds(reading, previous, null);
  // ("quanto eles me pagaram?": the client's own figure of each of them, none picked)
  const ofEach = reading.cues.includes('refers_all') && cur.subjects.every((s) => s.kind === 'portfolio');
  if (among && (cur.subjects.length === 0 || ofEach)) {
    return {
      question: { ...cur, subjects: among.map((id) => ({ kind: 'fund', id })), compare: ofEach ? cur.compare : (cur.compare ?? 'max') },
      meta: { applied: true, inherited: ['subjects'], changed: [], reason: `"${ofEach ? 'eles' : 'qual deles'}": the ${among.length} funds of the conversation's list` },
    };
  }
  // "compara o p/vp dos dois" after answers that asked no measure ("cnpj do IRDM11" → "e do RBRF11?"): the fund asked before and the last one.
  const several = pointsAtSeveral(reading);
  const earlier = (previous.earlier ?? []).filter((e) => e.kind === 'fund' && !previous.tickers.includes(e.id));
  if (several && cur.measure && cur.subjects.length === 0 && previous.tickers.length === 1 && earlier.length > 0) {
    const subjects: QuestionSubject[] = [...earlier, { kind: 'fund', id: previous.tickers[0] }];
    const compare = cur.compare ?? (reading.cues.includes('among_previous') ? 'max' : null);
    return {
      question: { ...cur, subjects, compare },
      meta: { applied: true, inherited: ["subjects (the last two answers')"], changed: [], reason: '"dos dois": the funds of the last two answers' },
    };
  }
  if (refersToOne(reading) && previous.tickers.length === 1 && cur.subjects.every((s) => s.kind === 'portfolio') && cur.measure) {
    // "e qual o meu preço médio nele?", "quanto ele me pagou?" after an answer about one fund (its rows name it).
    return {
      question: { ...cur, subjects: [{ kind: 'fund', id: previous.tickers[0] }] },
      meta: { applied: true, inherited: ['subjects (the fund "nele" points at)'], changed: [], reason: `"nele": ${previous.tickers[0]}, the fund of the previous answer` },
    };
  }
  return { question: cur, meta: { applied: false, inherited: [], changed: [], reason: 'no previous structured question' } };
}

/**
 * "e a mínima?" after the IFIX's maximum: the word names an aggregation of the same series, not a
 * fund's intraday low, so the measure it read does not count as named.
 */
function withAggOnlyWord(reading: QuestionReading, prev: StructuredQuestion, catalog: MeasureCatalog): QuestionReading {
  const cur = reading.question;
  const prevDef = prev.measure ? catalog.measures[prev.measure] : null;
  // Also after the highest close: "mínima" then asks for the lowest close, not the intraday low (whose
  // measure falls back to the closes).
  const curDef = cur.measure ? catalog.measures[cur.measure] : null;
  const extremeOfCloses = !!curDef && curDef.fallback_measure === prev.measure && (prev.agg === 'max' || prev.agg === 'min');
  const aggOnly =
    reading.measureNamed &&
    reading.aggNamed &&
    !!cur.agg &&
    !!prevDef &&
    prevDef.aggregations.includes(cur.agg) &&
    cur.subjects.length === 0 &&
    !!cur.measure &&
    (catalog.measures[cur.measure]?.subject !== prevDef.subject || extremeOfCloses);
  return aggOnly ? { ...reading, measureNamed: false } : reading;
}

/**
 * The funds a choice among funds points at ("qual deles", "desses, qual", "entre esses dois"): the
 * previous answer's, when it listed several; else, unless "qual dos dois" compares the last two
 * answers' subjects, the conversation's newest list (still the list after a pick from it).
 */
function amongFunds(reading: QuestionReading, previous: PreviousTurn, prev: StructuredQuestion | null): string[] | null {
  if (reading.cues.includes('refers_all') && previous.tickers.length > 1) return previous.tickers;
  if (!reading.cues.includes('among_previous')) return null;
  if (previous.tickers.length > 1) return previous.tickers;
  const lastTwoAnswers = !!prev && prev.subjects.length === 1 && (previous.earlier ?? []).some((e) => !prev.subjects.some((p) => p.kind === e.kind && p.id === e.id));
  if (lastTwoAnswers && !reading.cues.includes('among_list')) return null;
  return (previous.list?.length ?? 0) > 1 ? previous.list! : null;
}

/** The subjects: the first rule that applies decides (a named measure's own kind, "nele", kept, added, replaced). */
function editSubjects(edit: FollowUpEdit): QuestionSubject[] {
  const { reading, cur, prev, previous, catalog, changed } = edit;
  const named = reading.measureNamed && cur.measure ? catalog.measures[cur.measure] : null;
  // "qual deles" after a list of the client's funds: those funds, whatever the previous measure's subject.
  const amongListed = amongFunds(reading, previous, prev) !== null;
  // (The client's own measure is asked of a fund too: "e quanto entrou com essa venda?" keeps the XPIN11; and a fund's
  // measure of the client's funds: "e o de maior dy?" after the lowest P/VP among them.)
  const foreign = (s: QuestionSubject) =>
    s.kind !== named!.subject && !(named!.subject === 'portfolio' && s.kind === 'fund') && !(named!.subject === 'fund' && s.kind === 'portfolio');
  // "e ele fechou o ano em quanto?" after the IFIX: a fund's level (its close) asked of a series with a level of its
  // own is that series' level, for the same subjects.
  const ownLevel = (x: QuestionSubject) => defaultMeasureFor(catalog, x.kind, x.id)?.kind === 'level';
  const levelOfKept = !!named && named.kind === 'level' && prev.subjects.length > 0 && prev.subjects.every((x) => foreign(x) && ownLevel(x));
  if (cur.subjects.length === 0 && named && !amongListed && prev.subjects.some(foreign) && !levelOfKept) {
    // "e o dy dele?" after the Selic: a fund's measure never takes a market subject; the fund comes
    // from the conversation's last reference (the context service decides, by the contract's rules).
    changed.push(`subjects (a ${named.subject} measure: from the last reference)`);
    return [];
  }
  // ("quando comprei ela?" after the client's funds compared: "ela" is the one the comparison picked)
  const afterComparison = !!prev.compare && prev.subjects.every((s) => s.kind === 'portfolio') && previous.tickers.length > 1;
  if (
    // ("quanto ele me pagou?" after the HGRU11's registry: "ele" is the one fund the conversation is about)
    (reading.cues.includes('refers_fund') || (reading.cues.includes('refers_subject') && (afterComparison || isOneFund(prev.subjects)))) &&
    cur.subjects.every((s) => s.kind === 'portfolio') &&
    // (after a list across funds that came down to one, or the whole portfolio's answer found in one fund, "dele" is that one;
    // after the client's funds compared, the one the comparison picked, listed first)
    (prev.subjects.some((s) => s.kind === 'fund') ||
      (prev.subjects.every((s) => s.kind === 'portfolio') && (previous.tickers.length === 1 || (!!prev.compare && previous.tickers.length > 1)))) &&
    (!named || named.subject === 'portfolio' || named.subject === 'fund')
  ) {
    return fundReferredTo(edit);
  }
  // "quanto eu tenho investido neles?" after a list of the client's funds: those funds, each the client's own figure.
  if (amongListed && reading.cues.includes('refers_all') && cur.subjects.every((s) => s.kind === 'portfolio')) return keptSubjects(edit, true);
  if (edit.ownFigure) {
    edit.inherited.push("subjects (the funds the client's own figure is asked of)");
    return prev.subjects;
  }
  if (cur.subjects.length === 0) return keptSubjects(edit, amongListed);
  if (reading.cues.includes('add_subject')) {
    changed.push('subjects (added)');
    // "valor de mercado do XPML11?" → "e do VISC11?" → "coloca o HSML11 também": the funds asked one after the other, and the new one.
    const before = reading.cues.includes('include_subject') && prev.subjects.length === 1 ? (previous.earlier ?? []).filter((e) => e.kind === prev.subjects[0].kind) : [];
    const kept = [...before, ...prev.subjects.filter((p) => !before.some((b) => b.kind === p.kind && b.id === p.id))];
    return [...kept, ...cur.subjects.filter((s) => !kept.some((p) => p.kind === s.kind && p.id === s.id))];
  }
  changed.push('subjects');
  return cur.subjects;
}

const isOneFund = (subjects: readonly QuestionSubject[]) => subjects.length === 1 && subjects[0].kind === 'fund';

/**
 * "e qual o meu preço médio nele?": the client's own figure, of the fund the conversation is about;
 * after a comparison, the fund it picked (the previous answer's first fund).
 * A fund compared with one added to it ("dy do HGLG11" → "compara com o XPML11") stays the one
 * the conversation is about.
 */
function fundReferredTo(edit: FollowUpEdit): QuestionSubject[] {
  const { prev, previous, inherited } = edit;
  // (a previous question of the whole portfolio points at the one fund its answer came from: "eu vendi algum fii?")
  const named = prev.subjects.filter((s) => s.kind === 'fund');
  const funds: QuestionSubject[] = named.length ? named : previous.tickers.map((id) => ({ kind: 'fund', id }));
  const earlier = previous.earlier ?? [];
  const own = funds.length > 1 && earlier.length === 1 && earlier[0].kind === 'fund' && funds.some((s) => s.id === earlier[0].id) ? earlier[0] : null;
  const picked = !own && prev.compare && funds.length > 1 && previous.tickers.length > 0 && funds.some((s) => s.id === previous.tickers[0]);
  inherited.push(
    own ? 'subjects (the fund the conversation was about before the comparison)' : picked ? 'subjects (the fund the comparison picked)' : 'subjects (the fund "nele" points at)',
  );
  return own ? [own] : picked ? [{ kind: 'fund', id: previous.tickers[0] }] : funds;
}

/**
 * "e pra mim, com as minhas cotas, deu quanto?" after what a fund paid per share: the client's own figure of those
 * funds (the catalog's client measure of the previous one), no measure named, the portfolio said only as whose.
 */
function ownFigureOfPrevious(edit: Omit<FollowUpEdit, 'ownFigure'>): MeasureDef | null {
  const { reading, cur, prev, catalog } = edit;
  if (reading.measureNamed || cur.subjects.length === 0 || !cur.subjects.every((s) => s.kind === 'portfolio')) return null;
  if (prev.subjects.length === 0 || !prev.subjects.every((s) => s.kind === 'fund')) return null;
  const was = prev.measure ? catalog.measures[prev.measure] : undefined;
  return was?.per_share ? (clientMeasureOf(catalog, was) ?? null) : null;
}

/** "qual dos dois", "soma os dois", "quantas cotas de cada um": the words point at several subjects the conversation named. */
export function pointsAtSeveral(reading: QuestionReading): boolean {
  return reading.cues.includes('among_previous') || reading.cues.includes('sum_both') || reading.cues.includes('refers_all');
}

/** No subject said: the previous answer's funds ("qual deles"), the last two answers' ("qual dos dois"), else the previous question's. */
function keptSubjects(edit: FollowUpEdit, amongListed: boolean): QuestionSubject[] {
  const { reading, prev, previous, inherited } = edit;
  const earlier = (previous.earlier ?? []).filter((e) => !prev.subjects.some((p) => p.kind === e.kind && p.id === e.id));
  if (amongListed) {
    inherited.push("subjects (the conversation's list)");
    return amongFunds(reading, previous, prev)!.map((id) => ({ kind: 'fund', id }));
  }
  if (listAskedOf(edit)) {
    // "top 5 de logística por valor de mercado" → "e o dy de cada um?", "e o de menor p/vp?": the funds the list showed.
    inherited.push('subjects (the funds the previous list showed)');
    return previous.tickers.map((id) => ({ kind: 'fund', id }));
  }
  if (pointsAtSeveral(reading) && prev.subjects.length === 1 && earlier.length > 0) {
    // "qual dos dois", "soma os dois", "quantas cotas de cada um": the subject asked before and the one asked last.
    inherited.push("subjects (the last two answers')");
    return [...earlier, ...prev.subjects];
  }
  inherited.push('subjects');
  return prev.subjects;
}

/** A fund's measure named, with no fund, right after a list across funds (which had no subjects of its own). */
function listAskedOf(edit: FollowUpEdit): boolean {
  const { reading, cur, prev, previous, catalog } = edit;
  return prev.subjects.length === 0 && previous.tickers.length > 1 && reading.measureNamed && !!cur.measure && catalog.measures[cur.measure]?.subject === 'fund';
}

/** The measure follows the subjects: a fund's measure cannot be asked of the IFIX. */
function editMeasure(edit: FollowUpEdit, subjects: QuestionSubject[]): string | null {
  const { reading, cur, prev, catalog, inherited, changed } = edit;
  const kind = subjects[0]?.kind ?? null;
  const fits = (name: string | null) => {
    const m = name ? catalog.measures[name] : null;
    // A client's own measure is asked of one of its funds too ("quanto eu recebi dele").
    return (
      !!m &&
      (kind === null || m.subject === kind || (kind === 'portfolio' && m.subject === 'fund') || (kind === 'fund' && m.subject === 'portfolio')) &&
      (!m.subject_ids || subjects.every((s) => m.subject_ids!.includes(s.id)))
    );
  };
  if (reading.measureNamed && fits(cur.measure)) {
    if (cur.measure !== prev.measure) changed.push('measure');
    return cur.measure;
  }
  if (edit.ownFigure) {
    changed.push("measure (the client's own figure of it)");
    return edit.ownFigure.name;
  }
  // "quanto foi por cota?" after what the client received of a fund: that fund's own figure per share.
  const perShare = prev.measure ? catalog.measures[prev.measure]?.per_share_measure : undefined;
  if (reading.cues.includes('per_share') && perShare && subjects.every((s) => s.kind === 'fund')) {
    changed.push('measure (per share: the fund’s own)');
    return perShare;
  }
  // "e quanto ele variou de 09/06 a 25/06?" after its P/VP: a fund's move, asked of a measure that has none, is its price's.
  const moves = (m: MeasureDef | null | undefined) => !!m?.aggregations.includes('variation');
  const series = kind === 'fund' ? defaultMeasureFor(catalog, 'fund', subjects[0].id) : null;
  if (fits(prev.measure) && reading.aggWanted.includes('variation') && !moves(catalog.measures[prev.measure!]) && moves(series)) {
    changed.push("measure (a fund's move is its price's)");
    return series!.name;
  }
  if (fits(prev.measure)) {
    inherited.push('measure');
    return prev.measure;
  }
  // "dividendos do KNCR11 em 2024" → "e o dólar em 14/11?" → "e do KNCR11 em 2023?": back to the subjects asked
  // before, their measure again.
  const { earlier, earlierMeasure } = edit.previous;
  const back = subjects.length > 0 && subjects.every((s) => earlier?.some((e) => e.kind === s.kind && e.id === s.id));
  if (back && earlierMeasure && earlierMeasure !== prev.measure && fits(earlierMeasure)) {
    changed.push('measure (the one asked of them before)');
    return earlierMeasure;
  }
  // "e o XPML11 no mesmo período?" after the IFIX's variation: the new subject's own series (a fund's price).
  // After returns compared (no one measure: "compara com o ifix"), "e o BTLG11?" asks the new subject's return.
  const returns = !prev.measure && prev.agg === 'variation';
  const measure = cur.measure ?? ((prev.measure || returns) && subjects[0] ? (defaultMeasureFor(catalog, subjects[0].kind, subjects[0].id)?.name ?? null) : null);
  if (measure) changed.push("measure (the new subject's)");
  return measure;
}

/**
 * "qual dos dois pagou mais nesse ano?" after the two funds' payments in 2023 by payment date: a word of
 * the same facts by their other date ("pagou": the distributions by data-com) over the same period
 * compares the answers given, so they keep their dating. A new period, or another measure, reads as said.
 */
function keptDating(edit: FollowUpEdit, measure: string | null, period: Period): string | null {
  const { prev, catalog, inherited, changed } = edit;
  const [was, now] = [prev.measure ? catalog.measures[prev.measure] : null, measure ? catalog.measures[measure] : null];
  if (!was || !now || was === now || !sameFacts(was, now) || was.date_column === now.date_column || !samePeriod(period, prev.period)) return measure;
  // ("e se eu considerar a data com em vez da data de pagamento?": the dating said is the one asked)
  const said = edit.reading.measureWords.join(' ');
  if (said && [...now.dating_words, ...now.dating_only_words].some((w) => normalize(w) === said)) return measure;
  const at = changed.indexOf('measure');
  if (at >= 0) changed.splice(at, 1);
  inherited.push(`measure (${was.name}: the same facts over the same period, dated as the answers compared)`);
  return was.name;
}

const samePeriod = (a: Period, b: Period) =>
  !!a && !!b && (a === b || (a.kind === 'range' && b.kind === 'range' ? a.from === b.from && a.to === b.to : JSON.stringify(a) === JSON.stringify(b)));

/**
 * "e qual foi o fechamento nesse mês?" after "em 2022, qual mês o IFIX caiu mais?": the month (or the day) of the one
 * value the previous answer found, inside the period it was asked over. Null otherwise.
 */
function answeredUnit(reading: QuestionReading, prev: StructuredQuestion, date: string | null): RangePeriod | null {
  const shift = reading.shift;
  if (!date || !shift || shift.offset !== 0 || shift.lastDay || prev.period?.kind !== 'range' || date < prev.period.from || date > prev.period.to) return null;
  if (shift.unit === 'day') return { kind: 'range', from: date, to: date, grain: 'day' };
  if (shift.unit !== 'month') return null;
  const [y, m] = date.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { kind: 'range', from: `${date.slice(0, 7)}-01`, to: `${date.slice(0, 7)}-${String(last).padStart(2, '0')}`, grain: 'month' };
}

/** The period: the first rule that applies decides (shifted, the nth part of the year, between answers, kept, counted from the previous one). */
function editPeriod(edit: FollowUpEdit): Period {
  const { reading, cur, prev, previous, catalog, inherited, changed } = edit;
  const period = cur.period;
  const between =
    !period || reading.cues.includes('same_period') || reading.cues.includes('between_answers')
      ? betweenTurns(prev, previous.earlierPeriod ?? null, reading, cur.subjects.length === 0, catalog)
      : null;
  const ordinal =
    reading.ordinal !== null && !period && prev.period?.kind === 'range' && (prev.period.grain === 'quarter' || prev.period.grain === 'semester') ? prev.period : null;
  const answered = answeredUnit(reading, prev, previous.answeredDate ?? null);
  if (answered) {
    changed.push(`period (the ${reading.shift!.unit} of the value answered)`);
    edit.drilled = true;
    return answered;
  }
  if (reading.shift && prev.period?.kind === 'range') {
    const where = reading.shift.offset === 0 ? 'of' : reading.shift.offset > 0 ? 'after' : 'before';
    changed.push(`period (the ${reading.shift.unit} ${where} the previous question's)`);
    return shiftPeriod(prev.period, reading.shift);
  }
  if (ordinal && reading.ordinal !== null && (ordinal.grain === 'semester' ? reading.ordinal <= 2 : true)) {
    // "e no segundo?" after the first semester of 2024: the second semester of 2024.
    const y = Number(ordinal.from.slice(0, 4));
    changed.push(`period (the ${reading.ordinal}º ${ordinal.grain === 'semester' ? 'semester' : 'quarter'} of ${y})`);
    return nthPartOfYear(ordinal, reading.ordinal);
  }
  if (between) {
    // "VP por cota em dez/2021" → "e em dez/2023?" → "qual foi a variação nesse intervalo?": from the one to the other.
    changed.push("period (from the earlier answer's date to the previous one's)");
    return between;
  }
  if (period?.kind === 'day_of_month' && prev.period?.kind === 'range') {
    // "e no dia 20?" after the close of 13/06/2025: the 20th of that month; "e em 10/06?": of that year.
    const day = resolvePeriod(period, prev.period, Number(prev.period.to.slice(0, 4)));
    if (reading.cues.includes('since_previous') && prev.period.from < day.from) {
      // "e o maior fechamento de lá até 25/06?" after the close of 09/06: from that day to this one.
      changed.push(`period (from the previous question's ${prev.period.from} to ${day.to})`);
      return { kind: 'range', from: prev.period.from, to: day.to, grain: 'days' };
    }
    changed.push(
      `period (day ${period.day}${period.month ? `/${period.month}` : ''}${period.to ? ` to ${period.to.day}/${period.to.month}` : ''} of the previous question's ${period.month ? 'year' : 'month'})`,
    );
    return { kind: 'range', ...day, grain: period.to ? 'days' : 'day' };
  }
  if (!period && prev.period && reading.aggNamed && cur.agg === 'last' && !reading.cues.includes('same_period')) {
    // "e qual o último dividendo dele?" after the largest of 2023: the latest one, not the last of that year.
    changed.push('period (the latest: "último")');
    return null;
  }
  if (!period && reading.cues.includes('whole_history')) {
    if (prev.period) changed.push('period (the whole history: "já", "de todos os tempos")');
    return null;
  }
  if (!period || reading.cues.includes('same_period')) {
    if (prev.period) inherited.push('period');
    return prev.period;
  }
  if (reading.cues.includes('since_previous') && period.kind === 'range' && prev.period?.kind === 'range' && prev.period.from < period.from) {
    changed.push(`period (from the previous question's ${prev.period.from} to ${period.to})`);
    return { kind: 'range', from: prev.period.from, to: period.to, grain: 'custom' };
  }
  if ((period.kind === 'relative_year' || period.kind === 'relative_month') && period.offset < 0 && prev.period?.kind === 'range') {
    // "e no ano anterior?" after "ifix em 2023": a year before the previous question's, not before today.
    changed.push("period (counted from the previous question's period)");
    return countedFromPrevious(period, prev.period);
  }
  if (period.kind === 'months_of_year') {
    // "e em abril?" after "março de 2024": the month of the same year.
    const y = yearOf(prev.period);
    if (y === null) {
      changed.push('period');
      return period;
    }
    changed.push(`period (month of ${y}, the previous question's year)`);
    return monthsOfYear(period, y);
  }
  changed.push('period');
  return period;
}

/** The nth quarter or semester (1-based) of the year of a quarter or semester. */
function nthPartOfYear(ordinal: RangePeriod, n: number): RangePeriod {
  const months = ordinal.grain === 'semester' ? 6 : 3;
  const y = Number(ordinal.from.slice(0, 4));
  const m1 = (n - 1) * months + 1;
  const m2 = m1 + months - 1;
  return {
    kind: 'range',
    from: `${y}-${String(m1).padStart(2, '0')}-01`,
    to: `${y}-${String(m2).padStart(2, '0')}-${new Date(Date.UTC(y, m2, 0)).getUTCDate()}`,
    grain: ordinal.grain,
  };
}

/** A past year or month ("ano anterior", "mês passado") counted from the previous question's range, not from today. */
function countedFromPrevious(period: Extract<NonNullable<Period>, { kind: 'relative_year' | 'relative_month' }>, prevRange: RangePeriod): RangePeriod {
  const grain = period.kind === 'relative_year' ? 'year' : 'month';
  const from = new Date(`${prevRange.from}T00:00:00Z`);
  if (grain === 'year') from.setUTCFullYear(from.getUTCFullYear() + period.offset);
  else from.setUTCMonth(from.getUTCMonth() + period.offset);
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + 1;
  const endMonth = grain === 'year' ? 12 : m;
  const last = new Date(Date.UTC(y, endMonth, 0)).getUTCDate();
  return { kind: 'range', from: `${y}-${String(grain === 'year' ? 1 : m).padStart(2, '0')}-01`, to: `${y}-${String(endMonth).padStart(2, '0')}-${last}`, grain };
}

/** Months named without a year, in year y (a span across the new year starts the year before). */
function monthsOfYear(period: Extract<NonNullable<Period>, { kind: 'months_of_year' }>, y: number): RangePeriod {
  const y1 = period.from_month <= period.to_month ? y : y - 1;
  const last = new Date(Date.UTC(y, period.to_month, 0)).getUTCDate();
  return {
    kind: 'range',
    from: `${y1}-${String(period.from_month).padStart(2, '0')}-01`,
    to: `${y}-${String(period.to_month).padStart(2, '0')}-${last}`,
    grain: period.from_month === period.to_month ? 'month' : period.from_month === 1 && period.to_month === 12 ? 'year' : 'custom',
  };
}

/**
 * A measure with only today's published value (P/VP, market cap) cannot keep "ontem" or a past period it did not ask.
 * Nor does the client's own position ("e qual meu preço médio nele?" after what the fund paid in 2024), unless asked "nesse período".
 */
function withoutPeriodOfCurrentOnlyMeasure(edit: FollowUpEdit, measure: string | null, period: Period): Period {
  const { reading, cur, prev, catalog, inherited, changed } = edit;
  const own = catalog.measures[measure ?? ''];
  // (the positions held now, the catalog's portfolio table: "e quantas cotas dele eu tenho?" after his 2024 income)
  const heldNow = own?.table === catalog.portfolio.table;
  const ownPosition = own?.subject === 'portfolio' && (own.kind !== 'flow' || heldNow) && !reading.cues.includes('same_period');
  // (a figure asked of its current value only, like the P/VP or a fund's beta, is one too: "e o p/vp dos dois?" after
  // the closes of a day; "e o hglg11, qual o beta dele?" after a dividend of October)
  const currentOnly = own?.table === 'wh_snapshots' || (own?.aggregations.length === 1 && own.aggregations[0] === 'value');
  if (measure && measure !== prev.measure && (currentOnly || ownPosition) && inherited.includes('period') && !cur.period) {
    inherited.splice(inherited.indexOf('period'), 1);
    changed.push('period (the measure has only its current value)');
    return null;
  }
  return period;
}

/** Aggregations that answer one value among many, with its date. */
const ONE_OF_MANY = new Set<string>(['last', 'first', 'max', 'min']);
/** Aggregations over a span of values, which the latest value alone does not have. */
const SPAN_AGGS = new Set<string>(['max', 'min', 'avg', 'total', 'count', 'variation', 'accumulated', 'first']);

/** The aggregation (and its companions): the words' wins, else the previous one's when it still fits the measure and the period. */
function editAggregation(edit: FollowUpEdit, measure: string | null, period: Period): Pick<StructuredQuestion, 'agg' | 'also'> {
  const { reading, cur, prev, catalog, inherited, changed } = edit;
  const def = measure ? catalog.measures[measure] : null;
  const also = cur.also ?? [];
  if (!def) return { agg: cur.agg, also };
  const grouped = (cur.group_by ?? prev.group_by) !== null;
  // An aggregation chosen for "no period" (the last dividend) does not survive a period being named.
  const periodless = (p: Period) => !p || p.kind === 'latest';
  const spanNamed = periodless(prev.period) && !periodless(period);
  // "e quando foi pago?" after the last dividend: the dates of the one value just answered, not every payment.
  if (reading.datesAsked && measure === prev.measure && !spanNamed && prev.agg && ONE_OF_MANY.has(prev.agg) && def.aggregations.includes(prev.agg)) {
    inherited.push('aggregation (the dates of the value answered)');
    return { agg: prev.agg, also: [] };
  }
  // A return kept across series of another kind: a rate's compounded return is a level's variation, and back.
  const prevAgg =
    prev.agg && !def.aggregations.includes(prev.agg) && (prev.agg === 'accumulated' || prev.agg === 'variation')
      ? chooseAgg(def, new Set([prev.agg]), period, grouped, '')
      : prev.agg;
  // "e o último fechamento disponível?" after the lowest: the latest value, not an extreme over it.
  // (a shift, "no trimestre seguinte", is read as 'latest' until it is moved from the previous period)
  const latestNamed = cur.period?.kind === 'latest' && !reading.shift && !!prevAgg && SPAN_AGGS.has(prevAgg);
  // "quantos pagamentos foram?" → "e a cotação dele em 25/06/2025?": another measure at one day has no span to count.
  const oneDay = isOneDay(period) && measure !== prev.measure && !!prevAgg && SPAN_AGGS.has(prevAgg);
  const keepAgg = !reading.aggNamed && !spanNamed && !latestNamed && !oneDay && prevAgg && def.aggregations.includes(prevAgg) && (measure === prev.measure || prevAgg !== 'value');
  if (!reading.aggNamed && reading.aggWanted.length && !cur.measure) {
    // "e a acumulada de 2024?" after the Selic's mean: the words name an aggregation of the kept measure.
    changed.push('aggregation');
    return { agg: chooseAgg(def, new Set(reading.aggWanted), period, grouped, ''), also };
  }
  if (keepAgg) {
    inherited.push('aggregation');
    return { agg: prevAgg, also: (prev.also ?? []).filter((a) => def.aggregations.includes(a)) };
  }
  // The words' aggregation, read for the new measure ("e a selic rendeu quanto?" compounds the rate).
  if (!reading.aggNamed) return { agg: chooseAgg(def, new Set(reading.aggWanted), period, grouped, ''), also };
  changed.push('aggregation');
  // ("e em 2023, máxima e mínima?": the words read "máxima" as the intraday high; the kept measure has both ends)
  return { agg: cur.agg, also: measure !== cur.measure && cur.agg ? companionAggs(def, cur.agg, reading.aggWanted) : also };
}

/** "e o maior valor de mercado?" after "qual deles tem o menor p/vp?": the new words' order wins. */
function editCompare(edit: FollowUpEdit, subjects: QuestionSubject[]): StructuredQuestion['compare'] {
  const { reading, cur, prev } = edit;
  // (the portfolio alone is compared fund by fund: "qual fundo pagou mais?" after what the client received)
  if (subjects.length <= 1 && !(subjects[0]?.kind === 'portfolio' && cur.compare)) return null;
  // ("quanto eu tenho investido neles somando os dois?": a sum of them picks none)
  if (!cur.compare && reading.aggWanted.includes('total')) return null;
  // After a list across funds, "o de menor p/vp" picks one of them.
  const picks = prev.compare || prev.subjects.length === 0;
  return cur.compare ?? (picks ? reading.compareWanted : null) ?? prev.compare ?? (reading.cues.includes('add_subject') ? 'max' : null);
}

/**
 * A change asked across the last two answers' dates (one subject asked at two dates, then its
 * variation): the span whose variation runs from the earlier value to the later one (a daily
 * level's starts from the value before the period: right after the earlier date). Null when the last two answers were not two such dates.
 */
function betweenTurns(
  prev: StructuredQuestion,
  earlier: StructuredQuestion['period'],
  reading: QuestionReading,
  sameSubjects: boolean,
  catalog: MeasureCatalog,
): StructuredQuestion['period'] {
  const variation = reading.aggWanted.includes('variation');
  // ("acumulado desses dois meses" after the IPCA of April, then of May: both months, whole)
  const accumulated = reading.aggWanted.includes('accumulated') || reading.aggWanted.includes('total');
  if (!sameSubjects || !(variation || accumulated) || prev.period?.kind !== 'range' || earlier?.kind !== 'range') return null;
  const point = (g: string) => g === 'day' || g === 'month';
  // ("e no fim do ano?" after a day asked the value at the period's end: that day is the answer's date)
  const atEnd = prev.period.grain !== 'day' && (prev.agg === 'value' || prev.agg === 'last') && earlier.grain === 'day';
  const p = atEnd ? { ...prev.period, from: prev.period.to, grain: 'day' as const } : prev.period;
  if (!point(p.grain) || p.grain !== earlier.grain || p.from === earlier.from) return null;
  const [a, b] = earlier.from < p.from ? [earlier, p] : [p, earlier];
  // A monthly report's variation starts at the period's first report (measure-query): the span starts there; so does a sum.
  if (!variation || (prev.measure && catalog.measures[prev.measure]?.kind === 'stock')) return { kind: 'range', from: a.from, to: b.to, grain: 'custom' };
  const next = new Date(`${a.to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { kind: 'range', from: next.toISOString().slice(0, 10), to: b.to, grain: 'custom' };
}

/** Filters that say one thing, what kind of fund: a follow-up naming one replaces them all ("e os de logística?" after "fundos de papel"). */
const EXCLUSIVE_FILTERS: ReadonlyArray<ReadonlyArray<string>> = [['sector', 'fund_type']];

/**
 * A follow-up answered by the previous answer's entity edits its parameters: what the previous
 * answer filtered on (the indicator, the currency, the segment) still holds unless the follow-up
 * names another ("IPCA em 2024" → "e em 2023?"); its aggregation, window, size and order too.
 */
export function editEntityParams(prev: QueryParams | null, prevFilters: Record<string, string>, cur: QueryParams): QueryParams {
  const kept = { ...prevFilters };
  for (const group of EXCLUSIVE_FILTERS) if (group.some((k) => k in cur.filters)) for (const k of group) delete kept[k];
  const filters = { ...kept, ...cur.filters };
  if (!prev) return { ...cur, filters };
  return {
    ...cur,
    agg: cur.agg === 'latest' && prev.agg !== 'latest' ? prev.agg : cur.agg,
    window: cur.window ?? prev.window,
    limit: cur.limit ?? prev.limit,
    order_by: cur.order_by ?? prev.order_by,
    order: cur.order_by ? cur.order : (prev.order ?? cur.order),
    filters,
  };
}

const PLACES: Record<string, number> = { primeiro: 0, segundo: 1, terceiro: 2, quarto: 3, quinto: 4 };

/**
 * "qual o p/vp do primeiro?" after a ranking: the question with the fund it points at written in
 * (the previous answer's funds in their order), or null when it points at none.
 */
export function withListedReference(question: string, listed: readonly string[], nounRequired = false): { question: string; ticker: string } | null {
  if (listed.length < 2) return null;
  const folded = fold(question);
  const m = LISTED_REFERENCE.exec(folded);
  // (funds asked one after the other are no list: "o primeiro fundo" points at one of them, "o último" may be a payment)
  if (!m || (nounRequired && !/\b(?:fundo|fii)$/.test(m[0]))) return null;
  const place = m[1] ?? m[2];
  const i = place === 'ultimo' ? listed.length - 1 : place === 'penultimo' ? listed.length - 2 : PLACES[place];
  const ticker = listed[i];
  if (!ticker) return null;
  const source = folded.length === question.length ? question : folded;
  const start = m.index + m[0].indexOf(place);
  return { question: `${source.slice(0, start)}${ticker}${source.slice(m.index + m[0].length)}`, ticker };
}
