import { MAX_QUESTION_SUBJECTS, type MeasureAgg, type PeriodSpec, type QuestionSubject, type StructuredQuestion } from '@cota/contracts';
import { clientMeasureOf, defaultMeasureFor, MeasureCatalog, MeasureDef, sameFacts } from '@cota/catalog';
import { isOneDay, isSpan, parsePeriod, type ParsedPeriod, PeriodShift, withinOneMonth } from '@cota/periods';
import { fold, normalize, STOPWORDS } from '@cota/text';

/** "quantos %", "quanto por cento": a percentage asked. */
const PERCENT_ASKED = /\bquant[oa]s?\s*(?:%|por\s*cento\b|porcento\b)/;
import { readNumericConditions } from '../conditions';
import { isMixedSeries } from './series';

/** A phrase of the measure catalog compiled once: matched on whole words of the normalised text. */
interface Phrase {
  text: string;
  /** The phrase normalised, padded with spaces: a cheap substring test before the regex. */
  padded: string;
}
const compile = (p: string): Phrase => ({ text: p, padded: ` ${normalize(p)} ` });
/**
 * "o resultado da minha venda" names the measure "resultado da venda" (a measure's own words may hold one: "meu preço
 * médio"); "quanto isso vale hoje", "quanto ele pagou", "quanto eu já vendi": a pronoun (or "já") between a measure's words does not part them either.
 */
const POSSESSIVES_AND_PRONOUNS = / (?:meu|minha|meus|minhas|nosso|nossa|nossos|nossas|isso|isto|ele|ela|eles|elas|eu|ja)(?= )/g;
const withoutPossessives = (padded: string) => padded.replace(POSSESSIVES_AND_PRONOUNS, '');
/** A two-word name also said with "de" between its words: "receita caixa" is "receita de caixa", "lucro caixa" "lucro de caixa". */
function withLinkingDe(words: string): string[] {
  const w = normalize(words).split(' ');
  return w.length === 2 && !STOPWORDS.has(w[0]) && !STOPWORDS.has(w[1]) ? [words, `${w[0]} de ${w[1]}`] : [words];
}
/** Words that count what follows them ("todos os", "cada"). */
const QUANTIFIER = /^(?:tod[oa]s(?: [oa]s)?|cada)$/;
/** First-person possessives, as said before a measure's words ("meus dividendos"). */
const OWNING = ['meu', 'minha', 'meus', 'minhas'];
/** A fund said as the client's: "meu <fundo>", "minhas cotas de <fundo>", "minha posição em <fundo>". */
const OWNED_FUND = / (?:meu|minha|meus|minhas)(?: (?:cotas|posicao|posicoes) (?:de|do|em|no))? <fundo> /;

/** What the question says, before any conversation is taken into account. */
export interface QuestionReading {
  question: StructuredQuestion;
  /** The period's words, the measure's and the aggregation's, for meta.planner.reason. */
  signals: string[];
  /** Whether the measure was named (not defaulted from a subject or an aggregation). */
  measureNamed: boolean;
  /** Whether the question asks when a flow happened ("quando foi pago?"), with no aggregation of its own. */
  datesAsked: boolean;
  aggNamed: boolean;
  /** Aggregations the words name, whatever the measure ("e a acumulada?" names one without a measure). */
  aggWanted: MeasureAgg[];
  /** "no mesmo período", "compara com", "qual deles": cues that the question edits the previous one. */
  cues: FollowUpCue[];
  /** "e no segundo?": an ordinal with no noun, the same kind of period as the previous one (1-4), else null. */
  ordinal: number | null;
  /** "e no mês seguinte?": the period next to the conversation's, else null. */
  shift: PeriodShift | null;
  /** The order a comparison phrase asks ("e o maior valor de mercado?"), even with one subject or none. */
  compareWanted: 'max' | 'min' | null;
  /** The direction of a group's extreme ("melhor", "mais caiu"), even with no group named ("e o melhor?" after the worst month). */
  extremeOrder: 'max' | 'min' | null;
  /** The portfolio subject was not said: the client's own measure defaulted to the whole portfolio. */
  impliedPortfolio: boolean;
  /**
   * The words read as the period or as an aggregation ("primeiro semestre de 2025", "maior"), normalised:
   * words that edit a question, whatever entity they also name.
   */
  editWords: string[];
  /** The words that named the measure ("ativo total"), normalised; empty when none did. */
  measureWords: string[];
}

const ORDINAL_WORDS: Record<string, number> = { primeiro: 1, segundo: 2, terceiro: 3, quarto: 4, '1o': 1, '2o': 2, '3o': 3, '4o': 4 };

export type FollowUpCue =
  | 'same_period'
  | 'whole_history'
  | 'whole_span'
  | 'between_answers'
  | 'add_subject'
  | 'include_subject'
  | 'among_previous'
  | 'among_list'
  | 'refers_all'
  | 'sum_both'
  | 'opener'
  | 'refers_fund'
  | 'refers_subject'
  | 'refers_listed'
  | 'per_share'
  | 'since_previous';

/** Counted or plural nouns after "entre esses ..." that name dates, not funds ("entre esses dois meses"). */
const NOT_FUNDS = '(?! (?:meses|datas|dias|anos|periodos|momentos|valores|pagamentos|dividendos)(?= |$))';

/** "do primeiro", "o segundo", "do último (da lista)": a fund of the previous answer's list, by its place. */
// (at the end of the question, "qual o p/vp do segundo?"; or as the subject it opens with, "o segundo é de papel
// ou tijolo?", "o último paga quanto?", where a verb follows: "o segundo semestre" names a period)
export const LISTED_REFERENCE =
  /(?:^|\s)(?:d?o|no|pro|pelo|ao)\s+(primeiro|segundo|terceiro|quarto|quinto|ultimo|penultimo)(?:\s+(?:colocado|lugar|da lista|fundo|fii))?(?=\s*[?!.]*\s*$|\s*,)|^(?:e\s+)?o\s+(primeiro|segundo|terceiro|quarto|quinto|ultimo|penultimo)(?:\s+(?:colocado|lugar|da lista|fundo|fii))?(?=\s+(?:eh|e(?!\s+(?:o|a|os|as|do|da|no|na)\s)|tem|ta|esta|seria|paga|pagou|rende|vale)\s)/;

/** "desde que comprei", "desde a compra": since the client's purchase, a span and not the purchase itself. */
const SINCE_BOUGHT = /(?:^| )desde (?:que (?:eu )?(?:comprei|entrei|investi)|a (?:minha )?(?:primeira )?compra)(?: (?:ele|ela|o <fundo>|<fundo>))?(?= |$)/;

/** "e no ano todo?" after the best month of a year: the span itself, not another of its months (read with the period's words). */
const WHOLE_SPAN = /(?:^| )(?:ano|semestre|trimestre|mes|periodo) (?:todo|inteiro|completo|cheio)(?= |$)|(?:^| )tod[oa] o (?:ano|semestre|trimestre|mes|periodo)(?= |$)/;

const CUES: Array<[FollowUpCue, RegExp]> = [
  ['same_period', /(?:^| )(?:no|nesse|neste|o) mesmo (?:periodo|intervalo|ano|mes)(?= |$)|(?:^| )(?:nesse|neste) (?:periodo|intervalo)(?= |$)/],
  // "o maior dividendo que ele já pagou", "de todos os tempos": the whole history, never the previous question's period.
  ['whole_history', /(?:^| )(?:ja [a-z]+(?:ou|eu|iu|ei|ve|aram|eram|iram)|de todos os tempos|da historia|em toda a historia|desde sempre|desde o inicio|desde o comeco)(?= |$)/],
  // "entre esses dois meses", "nesse intervalo": from the one answer's date to the other's.
  // "de lá até 25/06", "dali até o fim do mês": from the previous answer's date on.
  ['since_previous', /(?:^| )(?:de la|dali|desde entao|desde aquele dia|daquele dia) (?:ate|pra|para)(?= |$)/],
  // ("acumulado desses dois meses", "nessas duas datas": the same span, said of the two answers)
  [
    'between_answers',
    /(?:^| )(?:nesse|neste) intervalo(?= |$)|(?:^| )(?:entre (?:esses|essas|estes|estas|as|os)|desses|dessas|destes|destas|nesses|nessas|nestes|nestas) (?:dois|duas) (?:meses|datas|dias|anos|periodos|momentos)(?= |$)/,
  ],
  // "qual o p/vp do primeiro?": a fund of the previous answer's list, by its place.
  ['refers_listed', LISTED_REFERENCE],
  // "quanto ele variou?": the subject the conversation is about, whatever its kind.
  ['refers_subject', /(?:^| )(?:ele|ela)(?= |$)/],
  ['add_subject', /(?:^| )(?:compar[ae]\w*|versus|vs|x|contra|frente a|em relacao a)(?= |$)/],
  // "coloca o BRCO11 também": one more subject for what the conversation has been comparing.
  ['include_subject', /(?:^| )(?:coloca|coloque|colocar|inclui|inclua|incluir|adiciona|adicione|adicionar|acrescenta|acrescente|bota|bote|poe|ponha)(?= |$)/],
  // "qual foi melhor?" with nothing else: the subjects the conversation just compared.
  // ("qual foi maior?", "qual pesa mais?": nothing else said, a pick among the answers just given)
  ['among_previous', /^(?:e )?(?:qual|quem) (?:foi |e |eh |esta |ta |se saiu |rendeu |performou )?(?:o |a )?(?:melhor|pior|maior|menor)$/],
  ['among_previous', /^(?:e )?(?:qual|quem) [a-z]+ (?:mais|menos)$/],
  [
    'among_previous',
    /(?:^| )(?:qual|quais|quem) (?:deles|delas|desses|dessas|destes|destas|entre eles|dos dois|das duas|dos tres|das tres|entre os dois|entre as duas)(?= |$)|(?:^| )(?:deles|delas|desses fundos|dos meus|dos dois|das duas|dos tres|das tres)(?= |$)/,
  ],
  // "soma os dois pra mim", "somando as duas?": the last two answers' subjects, summed (none picked).
  ['sum_both', /(?:^| )(?:soma|somando|somar|some|somados|junta|juntando|juntar|juntos)(?: (?:pra mim|para mim|ai|la))? (?:os|as) (?:dois|duas)(?= |$)/],
  // "quanto eu tenho investido neles?", "quanto eles me pagaram?", "quando cada um começou?": all the funds the previous
  // answer named, none picked.
  ['refers_all', /(?:^| )(?:neles|nelas|eles|elas|cada um|cada uma)(?= |$)/],
  // "desses", "entre esses dois", "dentre eles": the funds of the conversation's list (also after a pick from it).
  [
    'among_list',
    new RegExp(
      `(?:^| )(?:deles|delas|desses|dessas|destes|destas|(?:entre|dentre) (?:eles|elas|esses|essas|estes|estas|os listados))(?: (?:dois|duas|tres|quatro|cinco|fundos|fiis))?${NOT_FUNDS}(?= |$)`,
    ),
  ],
  ['opener', /^(?:e|e o|e a|e os|e as|e no|e na|e em|e do|e da|e pro|e para|e pra|e se|agora|tambem|mesmo)(?= |$)/],
  // Only a fund ("o TRXF11"): the answer to "de qual fundo?", or a change of subject.
  ['opener', /^(?:o|a|do|da|no|na|pro|pra|para o|e)\s+<fundo>(?:\s+(?:e|ou)\s+<fundo>)*$/],
];

/** Counts of a series' moves, read only next to a count ("quantas vezes ... subiu"). */
const MOVES = new Set<MeasureAgg>(['changes', 'rises', 'falls']);
/** Words of a return, which a measure's kind reads its own way: a flow totals, a rate compounds, a level varies. */
const RETURN_WORDS = new Set<MeasureAgg>(['total', 'accumulated', 'variation']);

/** Aggregations that can be asked together with another, and the pairs people ask. */
const ALSO = new Set<MeasureAgg>(['max', 'min', 'first', 'last', 'total', 'count', 'avg']);
const PAIRS: Record<string, MeasureAgg[]> = {
  max: ['min', 'avg'],
  min: ['max', 'avg'],
  first: ['last'],
  count: ['total', 'avg'],
  total: ['count', 'avg'],
  avg: ['max', 'min', 'total'],
};

/** "maior e menor", "primeiro e último": the other aggregations asked beside `agg` that the measure has and people ask with it. */
export function companionAggs(measure: MeasureDef, agg: MeasureAgg, wanted: Iterable<MeasureAgg>): MeasureAgg[] {
  return [...wanted].filter((a) => a !== agg && ALSO.has(a) && measure.aggregations.includes(a) && !(a === 'last' && agg === 'value') && !!PAIRS[agg]?.includes(a));
}

/** Where the measure's words are read: the client's scope, its measure family, and whether a period was named. */
interface MeasureScope {
  own: boolean;
  family: string | null;
  byConversation: boolean;
  periodless: boolean;
  /** A past month or a day of it is named ("em outubro de 2025", "nesse mês"): what happened in it, not over a longer span. */
  periodic: boolean;
}

/** Whether a question is about the client's own portfolio: by its own words, or by the conversation it continues. */
export interface OwnScope {
  said: boolean;
  conversation: boolean;
  /** The family of the previous question's measure (catalog `family`): its `family_words` name its measures. */
  family?: string | null;
}

/**
 * The trades themselves as nouns, in the client's voice ("quais vendas de fii eu já fiz?", "minhas compras"): the rows of the
 * measure that counts a trade's shares (its value is the trade's quantity), never one of a trade's prices.
 */
function tradeNouns(measure: MeasureDef): string[] {
  if (!measure.trade || !measure.row_noun || measure.value_column !== measure.trade.quantity_column) return [];
  return [measure.row_noun.one, measure.row_noun.many];
}

/** "dividido pelo fechamento de", "sobre o preço de fechamento de", "/ fechamento de": what a yield is divided by. */
const DIVIDED_BY_CLOSE = /(?:dividid[oa]s?|dividindo|divide|sobre|\/)\s+(?:(?:pel[oa]|o|a)\s+)?(?:(?:preco|valor)\s+de\s+)?(?:fechamento|cotacao)\b[^?!;)]*/;

/** The days whose last close a stated yield divides by, and the question without them; null when none are said. */
function closeDividedBy(question: string): { at: { from: string; to: string }; rest: string } | null {
  const text = fold(question);
  const m = DIVIDED_BY_CLOSE.exec(text);
  const said = m ? parsePeriod(m[0]) : null;
  if (!m || !said || said.spec.kind !== 'range') return null;
  return { at: { from: said.spec.from, to: said.spec.to }, rest: `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}` };
}

/**
 * The period a question asks over and, apart from it, the close a yield divides by ("os proventos de 2024 divididos pelo
 * fechamento de 25/06/2025").
 */
function periodsAsked(question: string): { period: ParsedPeriod | null; divisor: ReturnType<typeof closeDividedBy> } {
  const divisor = closeDividedBy(question);
  return { period: parsePeriod(divisor?.rest ?? question), divisor };
}

/** Compiled measure catalog vocabulary (built once per planner). */
export class QuestionReader {
  private readonly measureWords: Array<{ measure: MeasureDef; phrase: Phrase }>;
  /** Words that name a measure only in the client's scope ("preço médio ... na minha carteira"). */
  private readonly clientWords: Array<{ measure: MeasureDef; phrase: Phrase }>;
  /** The trades as nouns ("vendas", "compras"): in the client's scope, they name a measure when nothing else does. */
  private readonly tradeNouns: Array<{ measure: MeasureDef; phrase: Phrase }>;
  /** Groups of words that name a measure together, apart ("comprei" ... "a que preço"). */
  private readonly apartWords: Array<{ measure: MeasureDef; groups: Phrase[][] }>;
  /** Words that name a measure right after a question of its family ("a que preço?" after a sale). */
  private readonly familyWords: Array<{ measure: MeasureDef; phrase: Phrase }>;
  /** The client's words, then every measure's: the vocabulary of a question in the client's scope. */
  private readonly ownWords: Array<{ measure: MeasureDef; phrase: Phrase }>;
  /** The same vocabularies when no period is named, with the words that name a measure then ("preço médio do KNRI11"). */
  private readonly measureWordsNoPeriod: Array<{ measure: MeasureDef; phrase: Phrase }>;
  private readonly ownWordsNoPeriod: Array<{ measure: MeasureDef; phrase: Phrase }>;
  /** ... and when a past period is named, with the words that name a measure then ("pagou ... em outubro"). */
  private readonly measureWordsOfPeriod: Array<{ measure: MeasureDef; phrase: Phrase }>;
  private readonly ownWordsOfPeriod: Array<{ measure: MeasureDef; phrase: Phrase }>;
  /** Words that say which date a measure's facts go by ("pela data com"). */
  private readonly datingWords: Array<{ measure: MeasureDef; phrase: Phrase }>;
  private readonly datingWordsByFacts = new Map<string, Array<{ measure: MeasureDef; phrase: Phrase }>>();
  private readonly wordsOfFamily = new Map<string, Array<{ measure: MeasureDef; phrase: Phrase }>>();
  /** A fund measure's client counterpart: the portfolio measure counting the same facts ("dividendos" → what was received). */
  private readonly ownCounterparts = new Map<string, MeasureDef>();
  /** The words, padded, of each measure whose subjects are quoted over a span by what they accumulate. */
  private readonly rateWords = new Map<string, string[]>();
  private readonly subjectWords: Array<{ subject: QuestionSubject; phrase: Phrase }>;
  private readonly aggWords: Array<{ agg: MeasureAgg; phrase: Phrase }>;
  private readonly groupWords: Array<{ group: 'month' | 'year'; phrase: Phrase }>;
  private readonly movesByWords: Array<{ group: 'month' | 'year'; phrase: Phrase }>;
  private readonly compareWords: Array<{ order: 'max' | 'min'; phrase: Phrase }>;
  /** "qual mês", "melhor mês": a group asked for by its unit; and the words of the direction its figure is picked by. */
  private readonly groupAsked: Array<{ group: 'day' | 'month' | 'year'; re: RegExp }>;
  private readonly extremeWords: Array<{ order: 'max' | 'min'; phrase: Phrase }>;
  private readonly datesAsked: Phrase[];
  private readonly eachFundWords: Phrase[];
  private readonly perShareWords: Phrase[];
  private readonly listOrder: Array<{ order: 'max' | 'min'; phrase: Phrase }>;
  private readonly fundReference: Phrase[];

  constructor(
    readonly catalog: MeasureCatalog,
    /** The words that point back at a fund ("nele", "desse fundo"): the ontology's fund_reference. */
    fundReference: readonly string[] = [],
  ) {
    this.fundReference = fundReference.map(compile);
    this.measureWords = Object.values(catalog.measures)
      .filter((m) => m.subject === 'fund' || m.subject === 'portfolio')
      .flatMap((measure) => measure.words.flatMap(withLinkingDe).map((w) => ({ measure, phrase: compile(w) })));
    this.datingWords = Object.values(catalog.measures).flatMap((measure) => [...measure.dating_words, ...measure.dating_only_words].map((w) => ({ measure, phrase: compile(w) })));
    this.clientWords = Object.values(catalog.measures).flatMap((measure) => measure.client_words.map((w) => ({ measure, phrase: compile(w) })));
    this.tradeNouns = Object.values(catalog.measures).flatMap((measure) => tradeNouns(measure).map((w) => ({ measure, phrase: compile(w) })));
    this.familyWords = Object.values(catalog.measures).flatMap((measure) => measure.family_words.map((w) => ({ measure, phrase: compile(w) })));
    this.ownWords = [...this.clientWords, ...this.measureWords];
    const periodless = Object.values(catalog.measures).flatMap((measure) => measure.periodless_words.map((w) => ({ measure, phrase: compile(w) })));
    this.measureWordsNoPeriod = [...periodless, ...this.measureWords];
    this.ownWordsNoPeriod = [...periodless, ...this.ownWords];
    const ofPeriod = Object.values(catalog.measures).flatMap((measure) => measure.period_words.map((w) => ({ measure, phrase: compile(w) })));
    this.measureWordsOfPeriod = [...ofPeriod, ...this.measureWords];
    this.ownWordsOfPeriod = [...this.clientWords, ...ofPeriod, ...this.measureWords];
    // (each fund measure's client counterpart, and the words of the measures quoted over a span by what they accumulate, once)
    for (const m of Object.values(catalog.measures)) {
      const own = clientMeasureOf(catalog, m);
      if (own) this.ownCounterparts.set(m.name, own);
      if (m.span_accumulates.length)
        this.rateWords.set(
          m.name,
          [...m.words, ...m.rate_words].map((w) => ` ${normalize(w)} `),
        );
    }
    for (const w of this.familyWords) this.wordsOfFamily.set(w.measure.family!, [...(this.wordsOfFamily.get(w.measure.family!) ?? []), w]);
    this.apartWords = Object.values(catalog.measures).flatMap((measure) => (measure.words_apart ? [{ measure, groups: measure.words_apart.map((g) => g.map(compile)) }] : []));
    this.subjectWords = (['index', 'indicator', 'currency', 'portfolio'] as const).flatMap((kind) =>
      Object.entries(catalog.subjects[kind]).flatMap(([id, words]) => words.map((w) => ({ subject: { kind, id }, phrase: compile(w) }))),
    );
    this.aggWords = (Object.entries(catalog.aggregations) as Array<[MeasureAgg, string[]]>).flatMap(([agg, words]) => words.map((w) => ({ agg, phrase: compile(w) })));
    this.groupWords = (Object.entries(catalog.group_by) as Array<['month' | 'year', string[]]>).flatMap(([group, words]) => words.map((w) => ({ group, phrase: compile(w) })));
    this.movesByWords = (Object.entries(catalog.moves_by) as Array<['month' | 'year', string[]]>).flatMap(([group, words]) => words.map((w) => ({ group, phrase: compile(w) })));
    const ge = catalog.group_extreme;
    // ("qual o mês", "o dia em que", and an adjective after the move: "a maior alta diária")
    this.groupAsked = (['day', 'month', 'year'] as const).flatMap((group) =>
      ge.units[group].map((u) => ({
        group,
        re: new RegExp(`(?:^| )(?:(?:qual|que|melhor|pior)(?: foi)?(?: o)? ${u}|o ${u}(?: em)? que|(?:alta|queda|baixa|subida|variacao|valorizacao|desvalorizacao) ${u})(?= |$)`),
      })),
    );
    this.extremeWords = (['max', 'min'] as const)
      .flatMap((order) => ge[order].map((w) => ({ order, phrase: compile(w) })))
      .sort((a, b) => b.phrase.text.length - a.phrase.text.length);
    this.datesAsked = catalog.dates_asked.map(compile);
    this.eachFundWords = catalog.each_fund.map(compile).sort((a, b) => b.text.length - a.text.length);
    this.perShareWords = catalog.per_share_words.map(compile);
    this.listOrder = (['max', 'min'] as const).flatMap((order) => catalog.list_order[order].map((w) => ({ order, phrase: compile(w) })));
    this.compareWords = (Object.entries(catalog.compare) as Array<['max' | 'min', string[]]>)
      .flatMap(([order, words]) => words.map((w) => ({ order, phrase: compile(w) })))
      .sort((a, b) => b.phrase.text.length - a.phrase.text.length);
  }

  /**
   * Reads subjects, measure, period, aggregation, grouping and comparison from one question.
   * `tickers` are the funds the ticker index found in it, in order. `own` says where the question is
   * about the client's own portfolio, so the client's words count ("quantas cotas de HGLG11 eu tenho",
   * "preço médio dele?" after "quantas cotas de BTAL11 eu tenho?"): `said` by its own words (the
   * ontology's client scope), or by the `conversation` when the turn names no market subject or period.
   */
  read(question: string, tickers: string[], corrected?: string, own: OwnScope = { said: false, conversation: false }): QuestionReading {
    const signals: string[] = [];
    const { period, divisor } = periodsAsked(question);
    const { text, fullText } = this.wordsToRead(question, tickers, corrected, period, signals);
    // Each step reads one part, in this order: the subjects pick the measure's vocabulary, the
    // measure the aggregation, the subjects and cues the comparison.
    const subjects = this.readSubjects(tickers, text, signals);
    const measureHit = this.measureAsked(question, tickers, subjects, text, period, signals, measureScope(own, subjects, period, text));
    const measureNamed = measureHit !== null;
    this.dropSubjectsNamingTheMeasure(subjects, measureHit, text);
    const periodWords = period ? ` ${normalize(period.matched)} ` : '';
    const each = this.eachFundSaid(text);
    const { ordered, aggHits, groupHit, compareHit } = this.readAsked(text, fullText, periodWords, measureHit, subjects.length, each);

    const { aggWanted, extremeOrder, extremeGroup, datesAsked } = this.readWanted(aggHits, measureHit?.measure ?? null, period, text, fullText, question);
    const spanned = isSpan(period?.spec ?? null);
    const settled = this.settleSubjectsAndMeasure(subjects, measureHit?.measure ?? null, aggWanted, compareHit !== null, spanned);
    const { mixed } = settled;
    const { measure, impliedPortfolio, shares } = this.perShareOfHolding(settled, subjects, text, signals);
    const cues = this.cuesOf(text, fullText, measureNamed);
    const { agg, also, periodSpec, quoted } = this.readAggregation({
      measure,
      measureNamed: measureHit !== null && measureHit.measure.name === measure?.name,
      subjects,
      mixed,
      spanned,
      period,
      aggWanted,
      hasGroup: groupHit !== null,
      hasCompare: compareHit !== null,
      cues,
      text,
      fullText,
      periodWords,
      signals,
    });
    if (agg && aggHits.length) signals.push(`aggregation ${agg} (${aggHits.map((h) => `"${h.phrase.text}"`).join(', ')})`);
    const moreOrLess = moreOrLessAsked(text);
    // (a list of the client's funds in the measure's order is one figure per fund, compared)
    const multi = this.picksOne(subjects, measure, cues, text) || (ordered !== null && isOwnOfPortfolio(measure, subjects));
    const compare = multi ? (compareHit?.order ?? moreOrLess ?? (cues.includes('among_previous') ? 'max' : null)) : null;
    const finalAgg = finalAggregation(agg, measure, subjects.length, spanned, extremeGroup ? extremeOrder : null);
    if (extremeGroup) signals.push(`the ${extremeGroup} of the ${finalAgg} own figure`);
    const { condition, endAgg } = conditionAsked(agg, finalAgg, aggWanted, measure, fullText, signals, multi);
    // "quanto recebi de cada fii": the client's own figure, fund by fund.
    const eachFund = isOwnOfPortfolio(measure, subjects) && !compare && each !== null;
    if (eachFund) signals.push('each fund held, one figure each');
    const picked = compare ? aggOfFundsCompared(endAgg, measure, period) : endAgg;
    return {
      question: {
        condition,
        subjects: subjects.slice(0, MAX_QUESTION_SUBJECTS),
        measure: measure?.name ?? null,
        agg: picked,
        also: also.length && also.some((a) => PAIRS[agg as string]?.includes(a)) ? also.filter((a) => PAIRS[agg as string]?.includes(a)) : [],
        period: periodSpec,
        group_by: extremeGroup ?? groupHit?.group ?? (MOVES.has(endAgg as MeasureAgg) ? this.movesBy(text) : null),
        // (a screen of several subjects lists those that pass; it picks none unless asked)
        compare: condition && multi && !compareHit ? null : compare,
        ...(extremeGroup ? { extreme_group: true } : {}),
        ...(eachFund ? { each_fund: true } : {}),
        ...(shares && measure?.per_share ? { shares } : {}),
        ...(divisor && measure?.kind === 'yield' ? { price_at: divisor.at } : {}),
      },
      signals,
      measureNamed,
      aggNamed: quoted || this.aggSaid(agg, aggHits, measure, periodSpec, datesAsked),
      datesAsked,
      aggWanted: [...aggWanted],
      shift: period?.shift ?? null,
      compareWanted: compareHit?.order ?? moreOrLess,
      extremeOrder,
      impliedPortfolio,
      cues,
      // (only while the measure named is the one kept: "beta do XPLG11 em relação ao IFIX" keeps none)
      measureWords: measureHit && measure?.name === measureHit.measure.name ? normalize(measureHit.phrase.text).split(' ') : [],
      editWords: [...periodWords.trim().split(' '), ...aggHits.map((h) => normalize(h.phrase.text)), ...(compareHit ? [normalize(compareHit.phrase.text)] : [])].filter(Boolean),
      ordinal: period ? null : (ORDINAL_WORDS[/^(?:e )?(?:n?[oa] |e )?(primeiro|segundo|terceiro|quarto|[1-4]o)$/.exec(fullText)?.[1] ?? ''] ?? null),
    };
  }

  /** Measures named by words apart, one of each group: the hit's phrase is those words, as long as they are together. */
  private apartHits(text: string): Array<{ measure: MeasureDef; phrase: Phrase }> {
    const padded = ` ${text} `;
    return this.apartWords.flatMap(({ measure, groups }) => {
      const found = groups.map((g) => g.filter((p) => padded.includes(p.padded)).sort((a, b) => b.text.length - a.text.length)[0]);
      return found.every(Boolean) ? [{ measure, phrase: compile(found.map((p) => p!.text).join(' ')) }] : [];
    });
  }

  /** A market subject's word inside the measure's own name ("peso no IFIX") names the measure, not a subject (`subjects` is edited in place). */
  private dropSubjectsNamingTheMeasure(subjects: QuestionSubject[], measureHit: { measure: MeasureDef; phrase: Phrase } | null, text: string): void {
    if (measureHit?.measure.subject !== 'fund') return;
    for (const m of this.longestMatches(this.subjectWords, text)) {
      const at = subjects.findIndex((s) => s.kind === m.subject.kind && s.id === m.subject.id);
      if (at >= 0 && measureHit.phrase.padded.includes(m.phrase.padded)) subjects.splice(at, 1);
    }
  }

  /** The aggregations the words ask for, and whether a group's extreme ("o pior mês") or the dates ("quando") are asked. */
  private readWanted(aggHits: Array<{ agg: MeasureAgg; phrase: Phrase }>, measure: MeasureDef | null, period: ParsedPeriod | null, text: string, fullText: string, asked: string) {
    const padded = ` ${text} `;
    const extremeOrder = this.extremeWords.find((w) => padded.includes(w.phrase.padded))?.order ?? null;
    // "qual foi o pior mês do IFIX em 2024?": each month's own figure, then the extreme one.
    const extremeGroup = extremeOrder ? (this.groupAsked.find((g) => g.re.test(text))?.group ?? null) : null;
    const aggWanted = new Set(aggHits.map((h) => h.agg));
    // (a fund's month is judged by how its price did, as "quanto rendeu")
    if (extremeGroup) aggWanted.add('variation');
    // A count of moves ("quantas vezes a Selic subiu") reads the move's word though it also names a variation.
    if (aggWanted.has('count')) for (const h of this.aggWords) if (MOVES.has(h.agg) && ` ${fullText} `.includes(h.phrase.padded)) aggWanted.add(h.agg);
    // "quantos %" asks a percentage, not a count ("o XPLG11 subiu ou caiu em 2021? quantos %")
    if (PERCENT_ASKED.test(fold(asked))) {
      for (const counted of ['count', 'rises', 'falls', 'changes'] as const) aggWanted.delete(counted);
      aggWanted.add('variation');
    }
    // "quando eu comprei o HGLG11?": a flow asked when, nothing else asked of it, is its rows with their dates.
    // (a day named is already the date: "o dividendo com data-com em 30/12/2024 e quando pagou?")
    const datesAsked = aggWanted.size === 0 && measure?.kind === 'flow' && !isOneDay(period?.spec ?? null) && this.datesAsked.some((p) => padded.includes(p.padded));
    if (datesAsked) aggWanted.add('list');
    return { aggWanted, extremeOrder, extremeGroup, datesAsked };
  }

  /**
   * The aggregation words said, but for those that say something else: "últimos 6 meses" is a period, not the
   * aggregation "last" ("acumulado no ano" keeps its "acumulado"); an aggregation word inside the measure's own
   * name that the measure has no use for names the measure ("ativo total"); "cada um" after several funds
   * distributes over them ("quanto X, Y e Z pagaram em 2024, cada um?") and asks no list.
   */
  private readAggHits(fullText: string, text: string, periodWords: string, measureHit: { measure: MeasureDef; phrase: Phrase } | null, subjects: number, each: Phrase | null) {
    const measurePhrase = measureHit?.phrase.padded ?? '';
    const namesTheMeasure = (h: { agg: MeasureAgg; phrase: Phrase }) => measurePhrase.includes(h.phrase.padded) && !measureHit!.measure.aggregations.includes(h.agg);
    // "cada fii" of several subjects, or of the client's own measure, asks one figure per subject, not the values' list.
    const eachSubject = !!each && (subjects > 1 || measureHit?.measure.subject === 'portfolio');
    // "e de todos os meus fundos?": a quantifier before the subject counts the subjects, not the values
    // ("me lista meus fiis" still lists).
    const padded = ` ${fullText} `;
    const beforeSubject = (h: { phrase: Phrase }) => {
      if (!QUANTIFIER.test(h.phrase.text)) return false;
      const at = padded.indexOf(h.phrase.padded);
      const rest = at < 0 ? '' : padded.slice(at + h.phrase.padded.length - 1);
      return (
        at >= 0 && (this.subjectWords.some((w) => w.subject.kind === 'portfolio' && rest.startsWith(w.phrase.padded)) || /^ (?:os |as )?(?:fundos|fiis|<fundo>)(?= )/.test(rest))
      );
    };
    return this.longestMatches(this.aggWords, fullText).filter(
      (h) =>
        !((h.agg === 'last' || h.agg === 'first') && periodWords.includes(` ${normalize(h.phrase.text)} `)) &&
        !namesTheMeasure(h) &&
        !(eachSubject && h.agg === 'list' && each!.padded.includes(h.phrase.padded)) &&
        !(h.agg === 'list' && beforeSubject(h)),
    );
  }

  /** What is asked of the measure: the aggregations' words, a grouping, a comparison (a list's order is one too). */
  private readAsked(text: string, fullText: string, periodWords: string, measureHit: { measure: MeasureDef; phrase: Phrase } | null, subjects: number, each: Phrase | null) {
    const padded = ` ${text} `;
    // ("do maior pro menor" orders a list: its "maior"/"menor" name no aggregation)
    const ordered = this.listOrder.find((o) => padded.includes(o.phrase.padded)) ?? null;
    const aggHits = this.readAggHits(fullText, text, periodWords, measureHit, subjects, each).filter((h) => !ordered?.phrase.padded.includes(h.phrase.padded));
    // (a group word inside the measure's own name, "dividend yield mensal", names the measure)
    const measurePhrase = measureHit?.phrase.padded ?? '';
    const groupHit = this.groupWords.find((g) => padded.includes(g.phrase.padded) && !measurePhrase.includes(g.phrase.padded)) ?? null;
    return { ordered, aggHits, groupHit, compareHit: ordered ?? this.readCompareHit(text) };
  }

  /** The follow-up cues the words give: the fixed phrases, the words that point back at a fund, a per-share figure asked with no measure. */
  private cuesOf(text: string, fullText: string, measureNamed: boolean): FollowUpCue[] {
    const padded = ` ${text} `;
    const cues = readCues(text);
    if (WHOLE_SPAN.test(fullText)) cues.push('whole_span');
    // "nele", "desse fundo": the fund the conversation is about, even in "o meu preço médio nele".
    if (this.fundReference.some((p) => padded.includes(p.padded))) cues.push('refers_fund');
    // ("quanto foi por cota?" after what the client received: the fund's own figure per share)
    if (!measureNamed && this.perShareWords.some((p) => padded.includes(p.padded))) cues.push('per_share');
    return cues;
  }

  /** The groups a count of moves is made by ("em quantos meses ... caiu"), if said. */
  private movesBy(text: string): 'month' | 'year' | null {
    const padded = ` ${text} `;
    return this.movesByWords.find((w) => padded.includes(w.phrase.padded))?.group ?? null;
  }

  /** The longest "cada fii", "por fundo" phrase said, if any. */
  private eachFundSaid(text: string): Phrase | null {
    const padded = ` ${text} `;
    return this.eachFundWords.find((p) => padded.includes(p.padded)) ?? null;
  }

  /**
   * Whether the words said the aggregation read: "o último" of a level over a period is its value at the period's
   * end; a return's word the measure's kind turns into its own ("acumulado" of a monthly rate compounds); a flow's
   * dates asked are its list.
   */
  private aggSaid(agg: MeasureAgg | null, hits: Array<{ agg: MeasureAgg }>, measure: MeasureDef | null, period: PeriodSpec | null, datesAsked: boolean): boolean {
    if (agg === null) return false;
    return hits.some((h) => h.agg === agg || (h.agg === 'last' && agg === 'value') || this.returnWordFor(h.agg, agg, measure, period)) || (datesAsked && agg === 'list');
  }

  /** A return's word ("total", "acumulado", "rendeu") that the measure's kind reads as `agg` (a rate compounds, a level varies). */
  private returnWordFor(word: MeasureAgg, agg: MeasureAgg, measure: MeasureDef | null, period: PeriodSpec | null): boolean {
    return !!measure && RETURN_WORDS.has(word) && RETURN_WORDS.has(agg) && chooseAgg(measure, new Set([word]), period, false, '') === agg;
  }

  /** "se eu tivesse 500 cotas de HGLG11, quanto teria recebido em 2024?": what one share paid, for that many shares. */
  private perShareOfHolding(
    settled: { measure: MeasureDef | null; impliedPortfolio: boolean },
    subjects: QuestionSubject[],
    text: string,
    signals: string[],
  ): { measure: MeasureDef | null; impliedPortfolio: boolean; shares: number | null } {
    const shares = holdingSaid(text);
    const perShare = shares && subjects.some((s) => s.kind === 'fund') && settled.measure?.per_share_measure ? this.catalog.measures[settled.measure.per_share_measure] : null;
    if (!perShare) return { ...settled, shares };
    signals.push(`a holding of ${shares} shares: ${perShare.name} per share`);
    return { measure: perShare, impliedPortfolio: false, shares };
  }

  /**
   * "quanto a minha carteira pingou de dividendos?": a fund's figure per share asked of the client's whole portfolio is
   * what the client's shares got, the catalog's client measure of it, unless it is asked per share. Read of the question
   * as it stands after the conversation's edits.
   */
  clientFigureOfPortfolio(question: StructuredQuestion, normalized: string): { question: StructuredQuestion; signal: string } | null {
    const measure = question.measure ? this.catalog.measures[question.measure] : undefined;
    // (of funds named, "e quanto ele pagou de dividendos em 2024?" is what the fund paid per share, even in the client's conversation)
    if (!measure?.per_share || question.subjects.length === 0 || !question.subjects.every((s) => s.kind === 'portfolio')) return null;
    // (what came in over time, summed or counted: "a última distribuição" of a whole portfolio is no one payment)
    if (!question.agg || !SUMMED.has(question.agg)) return null;
    const padded = ` ${normalized} `;
    const own = this.ownCounterparts.get(measure.name);
    if (!own || this.perShareWords.some((p) => padded.includes(p.padded))) return null;
    return { question: { ...question, measure: own.name }, signal: `${measure.name} of the whole portfolio: what the client's shares got, ${own.name}` };
  }

  /** "qual deles tem o menor", "qual dos meus fundos caiu mais": the comparison phrase without whom it picks from. */
  private readCompareHit(said: string): { order: 'max' | 'min'; phrase: Phrase } | null {
    const compareText = ` ${asWhichOne(said)
      .replace(
        /(?:^| )(qual|quem) (?:deles|delas|dos dois|das duas|dos tres|das tres|dos meus (?:fundos|fiis)|das minhas cotas|dos fundos|dos fiis|desses(?: fundos| fiis)?|dessas|entre eles|fii|fundo)(?= |$)/,
        ' $1',
      )
      .trim()} `;
    return this.compareWords.find((c) => compareText.includes(c.phrase.padded)) ?? null;
  }

  /**
   * The text words are read from, funds written as <fundo>: `fullText` whole, `text` without the
   * period's words. Words are read with misspellings corrected ("divdendos"); the period from the
   * text as written ("marco/24").
   */
  private wordsToRead(question: string, tickers: string[], corrected: string | undefined, period: ParsedPeriod | null, signals: string[]): { text: string; fullText: string } {
    let text = corrected ?? normalize(question);
    for (const t of tickers) text = text.replace(new RegExp(`(?:^| )${t.toLowerCase()}(?= |$)`, 'g'), ' <fundo> ');
    const fullText = text.replace(/\s+/g, ' ').trim();
    if (period) {
      signals.push(`period "${period.matched}"`);
      // The period's words are not measure or aggregation words ("últimos" is not "last").
      const words = normalize(period.matched);
      if (words) text = text.replace(words, ' ');
    }
    // ("total que recebi do BTAL11 desde que comprei": the holding's whole history, not the purchase asked)
    if (SINCE_BOUGHT.test(text)) {
      text = text.replace(SINCE_BOUGHT, ' ');
      signals.push('since the purchase: the whole holding');
    }
    return { text: text.replace(/\s+/g, ' ').trim(), fullText };
  }

  /** The funds found, then the market subjects the words name (the IFIX, the Selic, the portfolio). */
  private readSubjects(tickers: string[], text: string, signals: string[]): QuestionSubject[] {
    const subjects: QuestionSubject[] = tickers.map((id) => ({ kind: 'fund', id }));
    for (const m of this.longestMatches(this.subjectWords, text)) {
      if (!subjects.some((s) => s.kind === m.subject.kind && s.id === m.subject.id)) subjects.push(m.subject);
      signals.push(`subject ${m.subject.id} ("${m.phrase.text}")`);
    }
    return subjects;
  }

  /**
   * The measure the question names. ("o custo total das cotas que eu ainda tenho (preço de compra das posições abertas)":
   * words in parentheses explain what is asked; a measure named outside them is the one asked, and the dating said
   * inside them still dates it: "quanto pagou em 2024? (pela data de pagamento)".)
   */
  private measureAsked(
    question: string,
    tickers: string[],
    subjects: QuestionSubject[],
    text: string,
    period: ParsedPeriod | null,
    signals: string[],
    scope: MeasureScope,
  ): { measure: MeasureDef; phrase: Phrase } | null {
    const outside = question.includes('(') ? this.wordsToRead(question.replace(/\([^)]*\)/g, ' '), tickers, undefined, period, []).text : null;
    return (outside !== null ? this.readMeasure(subjects, outside, signals, scope, text) : null) ?? this.readMeasure(subjects, text, signals, scope);
  }

  /**
   * The most specific measure named wins ("VPA no fechamento de 2022" asks for the VPA), then the longest words.
   * "ponderado pelo valor de mercado" says how to weigh, not what to measure.
   */
  private readMeasure(subjects: QuestionSubject[], text: string, signals: string[], scope: MeasureScope, datingText = text): { measure: MeasureDef; phrase: Phrase } | null {
    const { own, family, byConversation: ownByConversation } = scope;
    const clientScope = own || ownByConversation || subjects.some((s) => s.kind === 'portfolio');
    // (the client's words first: where both name the same words, the client's own figure is meant)
    const vocabulary = scope.periodless
      ? clientScope
        ? this.ownWordsNoPeriod
        : this.measureWordsNoPeriod
      : scope.periodic
        ? clientScope
          ? this.ownWordsOfPeriod
          : this.measureWordsOfPeriod
        : clientScope
          ? this.ownWords
          : this.measureWords;
    // (what a measure is weighted by, or left out of it, "sem dividendos", names no measure)
    const measureText = text
      .replace(/(?:^| )ponderad[oa]s? (?:pel[oa]s?|por|com base n[oa]s?)(?: [a-z0-9]+){1,4}/, ' ')
      .replace(/(?:^| )sem (?:(?:contar|considerar|incluir|os|as|o|a) )*[a-z0-9]+/g, ' ')
      // ("pela data com em vez da data de pagamento": the alternative set aside names nothing)
      .replace(/(?:^| )(?:em vez|ao inves|no lugar) d[aeo]s?(?: [a-z0-9]+){1,4}$/, ' ')
      .trim();
    const texts = [...new Set([measureText, withoutPossessives(` ${measureText} `).trim(), verbAfterQuestionWord(measureText)])];
    const byPriority = (list: Array<{ measure: MeasureDef; phrase: Phrase }>) =>
      texts.flatMap((t) => this.longestMatches(list, t)).sort((a, b) => b.measure.priority - a.measure.priority || b.phrase.text.length - a.phrase.text.length);
    // Right after a question of a family, its words name its measures ("a que preço?" after a sale), unless
    // other words name a measure of their own ("quanto recebi de dividendos do BTAL11?"), or the same words do
    // ("quantas cotas de BTAL11 eu tenho?" after a sale: the client's word for the shares held).
    const familyHit = family ? byPriority(this.wordsOfFamily.get(family) ?? [])[0] : undefined;
    const saidOf = [...byPriority(vocabulary), ...this.apartHits(measureText)].sort(
      (a, b) => b.measure.priority - a.measure.priority || b.phrase.text.length - a.phrase.text.length,
    );
    // ("quais vendas de fii eu já fiz?": the trades themselves, when no other word names what is asked of them)
    const ordinary = saidOf.length === 0 && clientScope ? byPriority(this.tradeNouns) : saidOf;
    // (the same words name the family's measure over a fund's: "por qual preço?" after a sale is the sale's price)
    const within = (h: { measure: MeasureDef; phrase: Phrase }) =>
      familyHit!.phrase.padded.includes(h.phrase.padded) &&
      (familyHit!.phrase.text.length > h.phrase.text.length || (familyHit!.phrase.text === h.phrase.text && h.measure.subject === 'fund'));
    const hits = familyHit && ordinary.every(within) ? [familyHit, ...ordinary] : ordinary;
    // "máxima de fechamento": the series an extreme falls back to, named beside it, is what is measured (the
    // highest close); the extreme's word is then the aggregation.
    // (levels only: "pagou em" and "dividendos" together still ask by payment date)
    const fallback = hits[0]?.measure.kind === 'level' ? hits.find((h) => h.measure.kind === 'level' && h.measure.name === hits[0].measure.fallback_measure) : undefined;
    // ("o DY ... somando os proventos pagos em 2024": a yield named beside the distributions it divides is what is asked)
    const yieldOfNamed = hits.find(
      (h) => h.measure.kind === 'yield' && hits.some((o) => o !== h && o.measure.table === h.measure.table && o.measure.value_column === h.measure.value_column),
    );
    const named = yieldOfNamed ?? fallback ?? hits[0] ?? null;
    // "quanto pagou em 2024 pela data com?": the dating said chooses among the same facts dated otherwise.
    const dated = named ? this.longestMatches(this.datingWordsOfFacts(named.measure), datingText === text ? measureText : datingText)[0] : undefined;
    const measureHit = this.ownCounterpart(dated ?? named, measureText, clientScope, ownByConversation);
    if (measureHit) signals.push(`measure ${measureHit.measure.name} ("${measureHit.phrase.text}")`);
    return measureHit;
  }

  /**
   * "meus dividendos de BTLG11": a fund's figure said with a possessive, in the client's scope, is the
   * client's own figure of it, the portfolio measure that counts the same facts (`per_share_measure`).
   * So is one asked with nothing of its own right after the client's figures ("qual fundo pagou mais?").
   */
  private ownCounterpart(
    hit: { measure: MeasureDef; phrase: Phrase } | null,
    text: string,
    clientScope: boolean,
    byConversation: boolean,
  ): { measure: MeasureDef; phrase: Phrase } | null {
    const own = clientScope ? this.ownCounterparts.get(hit?.measure.name ?? '') : undefined;
    if (!hit || !own) return hit;
    const padded = ` ${text} `;
    // ("meus dividendos de BTLG11", or the fund possessed: "meu BTAL11 rendeu quanto em proventos?", "minhas cotas de HGLG11")
    // (unless asked per share: "meu HGLG11 pagou quanto por cota?" is the fund's figure)
    const possessed = OWNING.some((p) => padded.includes(` ${p}${hit.phrase.padded}`)) || (OWNED_FUND.test(padded) && !this.perShareWords.some((p) => padded.includes(p.padded)));
    return byConversation || possessed ? { measure: own, phrase: hit.phrase } : hit;
  }

  /**
   * The subjects and the measure made to fit each other (`subjects` is edited in place): the client's
   * own measure implies the portfolio, a market subject brings its own measure, a return of funds is
   * their price's.
   */
  private settleSubjectsAndMeasure(
    subjects: QuestionSubject[],
    named: MeasureDef | null,
    aggWanted: Set<MeasureAgg>,
    hasCompare: boolean,
    spanned: boolean,
  ): { measure: MeasureDef | null; impliedPortfolio: boolean; mixed: boolean } {
    let measure = named;
    // The client's own measure ("quanto recebi") is about the whole portfolio unless funds are named
    // ("preço médio do KNIP11 na minha carteira": the carteira is where, the fund is what).
    const impliedPortfolio = measure?.subject === 'portfolio' && !subjects.some((s) => s.kind === 'fund' || s.kind === 'portfolio');
    if (impliedPortfolio) subjects.push({ kind: 'portfolio', id: 'PORTFOLIO' });
    if (measure?.subject === 'portfolio' && subjects.some((s) => s.kind === 'fund')) {
      const at = subjects.findIndex((s) => s.kind === 'portfolio');
      if (at >= 0) subjects.splice(at, 1);
    }
    // A market subject brings its own measure (IFIX → points, IPCA → monthly rate) unless a fund is asked too.
    const first = subjects[0];
    if (first && first.kind !== 'fund' && first.kind !== 'portfolio' && (!measure || measure.subject !== first.kind)) {
      measure = defaultMeasureFor(this.catalog, first.kind, first.id);
    }
    // Several market series that no one measure serves (the IFIX with the Selic): a panel, each its own.
    const mixed = isMixedSeries(subjects, this.catalog);
    if (mixed) measure = null;
    // "quanto rendeu", "subiu": a fund's return is its price's variation.
    // "qual dos meus fundos caiu mais": the same, fund by fund of the portfolio.
    const fundsCompared = subjects.some((s) => s.kind === 'fund') || (hasCompare && subjects.some((s) => s.kind === 'portfolio'));
    // Funds compared over a period with no measure named ("knri11 x hgru11, qual se saiu melhor em 2021?"): how their prices did.
    const comparedOverTime = hasCompare && spanned && subjects.length > 1;
    if (!measure && !mixed && (aggWanted.has('variation') || comparedOverTime) && fundsCompared) measure = this.catalog.measures.price ?? null;
    return { measure, impliedPortfolio, mixed };
  }

  /** The aggregation, the ones asked with it, and the period they are read over (two dates read as the span's ends). */
  private readAggregation(r: {
    measure: MeasureDef | null;
    measureNamed: boolean;
    subjects: QuestionSubject[];
    mixed: boolean;
    spanned: boolean;
    period: ParsedPeriod | null;
    aggWanted: Set<MeasureAgg>;
    hasGroup: boolean;
    hasCompare: boolean;
    cues: FollowUpCue[];
    text: string;
    fullText: string;
    periodWords: string;
    signals: string[];
  }): { agg: MeasureAgg | null; also: MeasureAgg[]; periodSpec: PeriodSpec | null; quoted: boolean } {
    const { measure, period, aggWanted, signals } = r;
    // Series that no one measure serves, asked how they did ("rendeu", "subiu", "bateu"): each one's return.
    // "compara o XPIN11 com o IFIX em 2023", "ABCP11 x IFIX em 2024": compared over a period, by how each did.
    const returns = r.mixed && r.spanned && (aggWanted.has('variation') || aggWanted.has('accumulated') || r.hasCompare || r.cues.includes('add_subject'));
    let agg: MeasureAgg | null = measure ? chooseAgg(measure, aggWanted, period?.spec ?? null, r.hasGroup, r.text) : returns ? 'variation' : null;
    // (said as much as a word would: a follow-up does not keep the previous question's aggregation over it)
    const quoted = agg === 'value' && !!measure && !r.measureNamed && this.accumulatesOverSpan(measure, r.subjects, period?.spec ?? null, r.text);
    if (quoted) {
      agg = 'accumulated';
      signals.push('a span of a subject quoted by what it accumulated');
    }
    // "maior e menor", "primeiro e último", "quantos pagamentos e quanto no total": every aggregation asked.
    let also = measure && agg ? companionAggs(measure, agg, aggWanted) : [];
    // "quanto pagou em 2024 e qual foi a média por mês?": each question joined by "e" asks its own aggregation.
    const clauses = measure ? this.clauseAggs(measure, r.fullText, r.periodWords, period?.spec ?? null) : [];
    if (clauses.length > 1) {
      agg = clauses[0];
      also = clauses.slice(1).filter((a) => ALSO.has(a));
      signals.push(`one aggregation per clause (${clauses.join(', ')})`);
    }
    // "quantos cotistas em dez/2020 e em dez/2023?": a level or stock read at both dates (the span's ends).
    if (
      period?.span &&
      measure &&
      (measure.kind === 'level' || measure.kind === 'stock') &&
      agg === 'value' &&
      measure.aggregations.includes('first') &&
      measure.aggregations.includes('last')
    ) {
      signals.push('two dates: the value at each');
      return { agg: 'first', also: ['last'], periodSpec: period.span, quoted };
    }
    return { agg, also, periodSpec: period?.spec ?? null, quoted };
  }

  /** "o CDI de março de 2023": a subject the catalog quotes over a span by what it accumulated there (`span_accumulates`). */
  private accumulatesOverSpan(m: MeasureDef, subjects: readonly QuestionSubject[], period: PeriodSpec | null, text: string): boolean {
    const words = this.rateWords.get(m.name);
    if (!words || !subjects.length || !subjects.every((s) => m.span_accumulates.includes(s.id)) || !isSpan(period)) return false;
    // ("a taxa do CDI em agosto": the measure's own word asks the rate)
    const padded = ` ${text} `;
    return !words.some((w) => padded.includes(w));
  }

  /** Whether the question picks one of several: several subjects, "qual deles", a fund's measure of the portfolio, the client's own measure fund by fund. */
  private picksOne(subjects: QuestionSubject[], measure: MeasureDef | null, cues: FollowUpCue[], text: string): boolean {
    const ofPortfolio = measure?.subject === 'fund' && subjects.some((s) => s.kind === 'portfolio');
    // "em qual fii eu coloquei mais": the client's own measure, fund by fund.
    const ownPerFund = measure?.subject === 'portfolio' && asksWhichFund(text);
    return subjects.length > 1 || cues.includes('among_previous') || ofPortfolio || ownPerFund;
  }

  /** The aggregation of each question joined by "e" ("quanto pagou ... e qual a média"), when there are several. */
  private clauseAggs(measure: MeasureDef, fullText: string, periodWords: string, period: PeriodSpec | null): MeasureAgg[] {
    const parts = fullText.split(/ e (?=(?:qual|quais|quanto|quantos|quantas|qto|qnto|quando)(?: |$))/);
    if (parts.length < 2) return [];
    const aggs: MeasureAgg[] = [];
    for (const part of parts) {
      const wanted = this.longestMatches(this.aggWords, part)
        .filter((h) => !((h.agg === 'last' || h.agg === 'first') && periodWords.includes(` ${normalize(h.phrase.text)} `)))
        .map((h) => h.agg);
      const grouped = this.groupWords.some((g) => ` ${part} `.includes(g.phrase.padded));
      const a = chooseAgg(measure, new Set(wanted), period, grouped, part);
      if (!aggs.includes(a)) aggs.push(a);
    }
    return aggs;
  }

  /** Every phrase that matches, leaving out those inside a longer match ("valor patrimonial" in "valor patrimonial por cota"). */
  /** The dating words of the measures counting the same facts as `measure` (two may share a phrase: "pela data com"). */
  private datingWordsOfFacts(measure: MeasureDef): Array<{ measure: MeasureDef; phrase: Phrase }> {
    let list = this.datingWordsByFacts.get(measure.name);
    if (!list) this.datingWordsByFacts.set(measure.name, (list = this.datingWords.filter((h) => sameFacts(h.measure, measure))));
    return list;
  }

  private longestMatches<T extends { phrase: Phrase }>(list: T[], text: string): T[] {
    // Compiled once per question: a padded text lets the substring test stand for the word-bounded regex.
    const padded = ` ${text} `;
    // Only the phrases whose first word the text has are tested (in the list's order, which breaks ties).
    const index = byFirstWord(list);
    const candidates = new Set<number>();
    for (const word of new Set(text.split(' '))) for (const i of index.get(word) ?? []) candidates.add(i);
    const hits = [...candidates]
      .sort((a, b) => a - b)
      .map((i) => list[i])
      .filter((h) => padded.includes(h.phrase.padded))
      .sort((a, b) => b.phrase.text.length - a.phrase.text.length);
    const kept: T[] = [];
    for (const h of hits) if (!kept.some((k) => k.phrase.padded.includes(h.phrase.padded))) kept.push(h);
    return kept;
  }
}

const firstWordIndexes = new WeakMap<ReadonlyArray<{ phrase: Phrase }>, Map<string, number[]>>();

/** Each phrase's place in `list` by its first word, built once per list. */
function byFirstWord(list: ReadonlyArray<{ phrase: Phrase }>): Map<string, number[]> {
  let index = firstWordIndexes.get(list);
  if (!index) {
    index = new Map();
    list.forEach((h, i) => {
      const first = h.phrase.padded.trim().split(' ')[0];
      index!.set(first, [...(index!.get(first) ?? []), i]);
    });
    firstWordIndexes.set(list, index);
  }
  return index;
}

/**
 * Two indices or funds compared over a period are compared by how they did, not by their points; a
 * group's extreme ("o pior mês") is the extreme of the groups' own figures.
 */
function finalAggregation(agg: MeasureAgg | null, measure: MeasureDef | null, subjects: number, spanned: boolean, groupExtreme: 'max' | 'min' | null): MeasureAgg | null {
  if (groupExtreme) return groupExtreme;
  if (measure && subjects > 1 && spanned && agg === 'value' && measure.kind === 'level' && measure.aggregations.includes('variation')) return 'variation';
  return agg;
}

/** The cues that the question edits the previous one; a list pointed at is also a choice among the previous funds. */
function readCues(text: string): FollowUpCue[] {
  const cues = CUES.filter(([, re]) => re.test(text)).map(([c]) => c);
  if (cues.includes('among_list') && !cues.includes('among_previous')) cues.push('among_previous');
  if (cues.includes('include_subject') && !cues.includes('add_subject')) cues.push('add_subject');
  return cues;
}

/** "se eu tivesse 500 cotas", "com 1.000 cotas", "tendo 80 cotas": the holding a question supposes, else null. */
function holdingSaid(text: string): number | null {
  const m = /(?:^| )(?:se eu tivesse|se tivesse|se eu tiver|se tiver|tendo|com|quem tem|pra quem tem|para quem tem) (\d{1,3}(?:\.\d{3})+|\d+) cotas(?= |$)/.exec(text);
  const n = m ? Number(m[1].replace(/\./g, '')) : NaN;
  return Number.isInteger(n) && n > 0 && n <= 100_000_000 ? n : null;
}

/**
 * A first-person verb said before its question word ("vendi quantas cotas de <fundo>", "investi quanto")
 * reads in the catalog's order too ("quantas cotas vendi de <fundo>").
 */
function verbAfterQuestionWord(text: string): string {
  return text.replace(/^((?:e )?)([a-z]+(?:ei|i)) (quant[oa]s? cotas|quant[oa]s?)(?= |$)/, '$1$3 $2');
}

/** "passou de 1%", "acima de 15", "abaixo de 0,5", "negativo": the level values are counted against. */
export function readCondition(text: string): { op: 'gt' | 'lt'; value: number } | null {
  const first = readNumericConditions(text)[0];
  if (first) return { op: first.op, value: first.value };
  if (/(?:^| )(?:negativo|negativa|negativos|negativas|deflacao)(?= |$)/.test(text)) return { op: 'lt', value: 0 };
  if (/(?:^| )(?:positivo|positiva|positivos|positivas)(?= |$)/.test(text)) return { op: 'gt', value: 0 };
  return null;
}

/** Without a comparison phrase, "qual ... mais/menos" ("em qual fii eu coloquei mais dinheiro") still picks one. */
/** "e o que pagou menos?", "aquele que rendeu mais": "the one that", said of more or less, asks which one ("qual"). */
function asWhichOne(text: string): string {
  return text.replace(/^(e )?(?:o|a|aquele|aquela) que (?=(?:\S+ )+?(?:mais|menos)(?: |$))/, '$1qual ');
}

function moreOrLessAsked(said: string): 'max' | 'min' | null {
  const text = asWhichOne(said);
  if (!/(?:^| )(?:qual|quem)(?= |$)/.test(text)) return null;
  if (/(?:^| )menos(?= |$)/.test(text)) return 'min';
  return /(?:^| )mais(?! (?:recente|recentes|novo|nova|antigo|antiga)(?: |$))(?= |$)/.test(text) ? 'max' : null;
}

/** A count next to "últimos"/"primeiros" (either side): how many of the newest or oldest values. */
const COUNTED_ENDS = /(?:^| )(?:(?:ultim|primeir)[oa]s \d+|\d+ (?:ultim|primeir)[oa]s)(?= |$)/;

/**
 * Where the question is in the client's scope. The client's words name a figure of one of its funds ("quantas cotas de
 * HGLG11 eu tenho"), or, said with no subject at all, of the whole portfolio ("qual foi minha última compra?"); the
 * conversation's scope holds for a turn of funds alone at no period of its own ("hoje" is none: "quanto vale hj?" after
 * what the client invested), and picks among the client's funds with nothing else said ("qual fundo pagou mais?").
 */
function measureScope(own: OwnScope, subjects: readonly QuestionSubject[], period: ParsedPeriod | null, text: string): MeasureScope {
  const now = !period || period.spec.kind === 'latest';
  // ("e quanto valiam essas cotas no fechamento de 25/06?", "quanto valia essa posição em dez/2022?" after the client's
  // purchase or holding: its shares, at any date)
  const theseShares = own.conversation && /(?:^| )(?:(?:essas|estas|dessas|destas|nessas|nestas) cotas|(?:essa|esta|dessa|desta|nessa|nesta) posicao)(?= |$)/.test(text);
  return {
    own: (own.said && (subjects.length === 0 || subjects.some((s) => s.kind === 'fund'))) || (own.conversation && (now || theseShares) && subjects.every((s) => s.kind === 'fund')),
    family: own.family ?? null,
    // ("qual fundo pagou mais nesse mês?": "nesse mês" is the conversation's own period, not a new one)
    byConversation: own.conversation && !own.said && (!period || period.shift?.offset === 0) && subjects.length === 0 && asksWhichFund(text),
    // (no period and no market subject: "preço médio do KNRI11" is what the client paid)
    // ("hoje", "agora" name no past period either: "quanto vale minha carteira hoje" is the positions at the last close)
    periodless: (!period || period.spec.kind === 'latest') && subjects.every((s) => s.kind === 'fund' || s.kind === 'portfolio'),
    periodic: !!period && (withinOneMonth(period.spec) || period.shift?.unit === 'month' || period.shift?.unit === 'day'),
  };
}

/** "qual tem o maior patrimônio entre esses": the extreme picks among the funds, each at its current value (not each one's own peak). */
function aggOfFundsCompared(agg: MeasureAgg | null, measure: MeasureDef | null, period: ParsedPeriod | null): MeasureAgg | null {
  return !period && measure && measure.kind !== 'flow' && (agg === 'max' || agg === 'min') ? measure.default_agg : agg;
}

/**
 * A level the values are measured against: "quantas vezes ... acima de 1%" counts the values beyond it; "a primeira
 * (última) vez que ... acima de 3500" finds the first (last) of them, not the value now.
 */
function conditionAsked(
  agg: MeasureAgg | null,
  finalAgg: MeasureAgg | null,
  wanted: Set<MeasureAgg>,
  measure: MeasureDef | null,
  fullText: string,
  signals: string[],
  among: boolean,
): { condition: StructuredQuestion['condition']; endAgg: MeasureAgg | null } {
  const crossing = agg === 'first' || agg === 'last' || wanted.has('first') || wanted.has('last');
  // ("quais dos meus fundos estão com P/VP abaixo de 0,95?": among several subjects' values, those beyond the level)
  const screen = among && finalAgg === 'value';
  const condition = agg === 'count' || wanted.has('count') || crossing || screen ? readCondition(fullText) : null;
  if (condition) signals.push(`condition ${condition.op} ${condition.value}`);
  const endAgg = condition && crossing && finalAgg === 'value' && measure?.aggregations.includes('last') ? 'last' : finalAgg;
  return { condition, endAgg };
}

/** The client's own measure of the whole portfolio (not of one of its funds). */
const isOwnOfPortfolio = (measure: MeasureDef | null, subjects: readonly QuestionSubject[]) => measure?.subject === 'portfolio' && subjects.every((s) => s.kind === 'portfolio');

/** "qual fundo", "quem ... fii": the question picks one fund. */
function asksWhichFund(said: string): boolean {
  const text = asWhichOne(said);
  if (/(?:^| )(?:qual|quem)(?= |$)/.test(text) && /(?:^| )(?:fii|fiis|fundo|fundos|posicao|posicoes)(?= |$)/.test(text)) return true;
  // "em qual coloquei mais?", "de qual recebi menos?": which one, said of a place (not of a month or a day)
  if (
    /(?:^| )(?:em|de|no|na|com|pra|para) (?:qual|quais)(?! (?:mes|meses|ano|anos|dia|dias|data|datas|semestre|trimestre|periodo|epoca|momento|vez|vezes)(?: |$))(?= |$)/.test(text)
  )
    return true;
  // "qual pagou mais?", "quem rendeu menos?": which one did more, a verb right after "qual" (not "qual foi o maior ...")
  return /^(?:e )?(?:qual|quem) (?!(?:o|a|os|as|foi|e|eh|era|sera|seria|mes|ano|dia|data|valor|periodo|total)(?: |$))/.test(text) && moreOrLessAsked(text) !== null;
}

/**
 * The aggregation a measure's kind gives the words that were said: "acumulado" compounds a monthly
 * rate and sums a flow; "rendeu" is a level's variation; a multi-month period of a monthly rate
 * accumulates; a flow over a period totals.
 */
/** Aggregations of what came in over time: a client's income sums them the same way a fund's payments do. */
const SUMMED: ReadonlySet<MeasureAgg> = new Set(['total', 'avg', 'count', 'list']);

/** Trades named as such: their plural ("minhas compras"), one asked whether any ("alguma venda"), or what they were ("o que eu comprei"). */
function tradesNamed(noun: { one: string; many: string }, text: string): boolean {
  const padded = ` ${text} `;
  const one = normalize(noun.one);
  return padded.includes(` ${normalize(noun.many)} `) || padded.includes(` alguma ${one} `) || padded.includes(` algum ${one} `) || padded.includes(' o que ');
}

export function chooseAgg(m: MeasureDef, wanted: Set<MeasureAgg>, period: PeriodSpec | null, grouped: boolean, text: string): MeasureAgg {
  const allowed = (a: MeasureAgg) => m.aggregations.includes(a);
  const has = (a: MeasureAgg) => wanted.has(a) && allowed(a);
  // "últimos 12 dividendos", "as 5 primeiras cotações": the last (first) N values are a list of N, not one.
  if ((wanted.has('last') || wanted.has('first')) && allowed('list') && COUNTED_ENDS.test(text)) return 'list';
  // "quantas vezes a Selic mudou (subiu, caiu) em 2022": a count of the series' moves, not of its values.
  if (wanted.has('count')) for (const move of ['rises', 'falls', 'changes'] as const) if (has(move)) return move;
  // (a rate asked as it is now, "a Selic atual ... tava alta", is its value: a word of a move accumulates nothing in one day)
  const now = period?.kind === 'latest';
  if ((m.kind === 'monthly_rate' || m.compounding) && (wanted.has('accumulated') || wanted.has('total') || (!now && m.kind === 'monthly_rate' && wanted.has('variation'))))
    return 'accumulated';
  // "quanto rendeu a Selic em 2023": an annual rate "yields" what it accumulates.
  if (!now && m.compounding && wanted.has('variation')) return 'accumulated';
  // "acumulado no ano" of a level (an index, a price) is its variation.
  if ((m.kind === 'level' || m.kind === 'stock') && allowed('variation') && (wanted.has('accumulated') || (wanted.has('total') && !wanted.has('count')))) return 'variation';
  if (has('variation')) return 'variation';
  // "ifix últimos 6 meses": a level over a trailing window, nothing else asked, is how it moved.
  // So is "ifix ytd" or "o ifix desde 2020": a window that runs to the latest data.
  const toLatest = period?.kind === 'trailing' || period?.kind === 'since' || (period?.kind === 'relative_year' && period.to_date);
  if (m.kind === 'level' && allowed('variation') && toLatest && wanted.size === 0 && !grouped) return 'variation';
  // "ibov no 2º tri de 2024", "como foi o IFIX entre abril e julho": an index or a currency over a stretch of time is how it moved
  // (the answer still gives both ends). A fund's price over a month stays its price.
  const spanOfMonths = period?.kind === 'range' ? period.grain !== 'day' && period.grain !== 'month' : period?.kind === 'months_of_year' && period.from_month !== period.to_month;
  if (m.kind === 'level' && (m.subject === 'index' || m.subject === 'currency') && allowed('variation') && spanOfMonths && wanted.size === 0 && !grouped) return 'variation';
  if (has('avg')) return 'avg';
  if (has('max')) return 'max';
  if (has('min')) return 'min';
  // "quantas cotas comprei" asks for the total of a count, not how many purchases.
  if (wanted.has('count') && m.unit === 'count' && m.kind === 'flow' && allowed('total') && !/quantas vezes|quantas compras/.test(text)) return 'total';
  if (wanted.has('count') && allowed('count') && readCondition(text)) return 'count';
  if (wanted.has('count') && allowed('count') && (m.kind === 'flow' || /quantas vezes|quantos pagamentos|quantos dividendos|quantas distribuicoes/.test(text))) return 'count';
  if (has('total')) return 'total';
  if (grouped || has('list')) return allowed('list') ? 'list' : m.default_agg;
  if (has('first')) return 'first';
  if (has('last') && m.kind === 'flow') return 'last';
  const span = isSpan(period);
  if (m.kind === 'monthly_rate' && span && !(period?.kind === 'range' && period.grain === 'month') && !(period?.kind === 'months_of_year' && period.from_month === period.to_month))
    return 'accumulated';
  // "minhas compras em 2022", "ja fiz alguma venda?": trades named by their noun, nothing counted or summed, are listed
  // ("quanto lucrei com vendas?" asks an amount: their total).
  if (m.trade && m.row_noun && allowed('list') && wanted.size === 0 && tradesNamed(m.row_noun, text) && !/(?:^| )quant[oa]s?(?= |$)/.test(text)) return 'list';
  // "quanto já recebi do BTAL11?", "desde que comprei": the client's own flow without a period is all of it.
  if (m.kind === 'flow') return span || m.subject === 'portfolio' ? 'total' : 'last';
  return m.default_agg;
}
