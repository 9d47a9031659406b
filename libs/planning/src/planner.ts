import { FollowUpMeta, MAX_QUESTION_SUBJECTS, PlanResponse, PlannerMeta, QueryParams, QuestionSubject, StructuredQuestion, TOO_MANY_FUNDS } from '@cota/contracts';
import type { EntityClass, MeasureDef } from '@cota/catalog';
import type { LlmClient } from '@cota/llm';
import { AnalysedQuestion, analyseQuestion } from './analysis';
import { chooseEntityWithLlm } from './llm-fallback';
import { Candidate, Ontology } from './ontology';
import { PlanningPolicies } from './policies';
import { toolByArguments } from './tool-arguments';
import { extractArgs } from './tool-args';
import { resolveArgs } from '@cota/tool-gating';
import { EntityRouter, SEGMENT_LIST } from './entity-routing';
import { planResponse } from './plan-response';
import { MultiStepShapes, writePlanWithLlm } from './multi-step';
import { isMarketKind, validatePlan } from '@cota/contracts';
import { detectAdvice, detectConcept, detectConfirmation, detectOutOfScope, detectSmalltalk, detectTool } from './special';
import { TickerIndex } from './tickers';
import { FundNameIndex, NamedFund } from './fund-names';
import { ABBREVIATIONS, cnpjIn, fold, normalize, stem, STOPWORDS } from '@cota/text';
import { applyFollowUp, editEntityParams, pointsAtSeveral, refersToOne, withListedReference } from './question/follow-up';
import { isMeasurable, isReturnsPanel, measurePlan, measureFamily } from './question/measure-plan';
import { chooseAgg, QuestionReader, type QuestionReading } from './question/structure';
import { CompoundSplitter, type TopicWords } from './question/compound';
import { questionAfterContext } from './question/context-before';
import { extremeRowAsked, NamedOrdering, namedOrderings, oneRankedAsked, pickFromList } from './question/entity-pick';

export interface PlannerOptions {
  policies: PlanningPolicies;
  /** Known funds (tickers, with their registered names when known), or null until the warehouse's list arrives (pattern-only recognition). */
  funds: Iterable<string | NamedFund> | null;
  /** Model for the fallback; null (not configured) means deterministic only. */
  llm?: LlmClient | null;
}

/** The most rows "mostre todos" asks for (the contract's bound on a limit; each entity caps it at its max_rows). */
const MAX_LIST_ROWS = 1000;
/** Filters that say which funds a list holds (its segment, its type, the client's) or its date: not a value of the rows' own. */
const LIST_OF_FUNDS_FILTERS: ReadonlySet<string> = new Set(['sector', 'fund_type', 'held', 'date']);

export interface PlanOptions {
  /**
   * The entity of the conversation's previous answer (PlanRequest.previous_entity): an elliptic
   * question ("e o do XPML11?") keeps it as its subject.
   */
  previousEntity?: string | null;
  /** The previous answer's structured question and funds: a follow-up is an edit of them. */
  previousQuestion?: StructuredQuestion | null;
  previousTickers?: string[];
  /** The conversation's newest list of funds (two or more), which "desses" and "o terceiro" point at even after a pick from it. */
  conversationList?: string[];
  /** The subjects of the answer before the previous one ("qual dos dois" across two turns). */
  earlierSubjects?: QuestionSubject[];
  earlierPeriod?: StructuredQuestion['period'];
  /** The measure of the answer before it ("e do KNCR11 em 2023?" back to the fund asked then). */
  earlierMeasure?: string | null;
  /** The previous answer's parameters and the conversation's filters (PlanRequest.previous_params/_filters). */
  previousParams?: QueryParams | null;
  previousFilters?: Record<string, string>;
  /** The date of the one value the previous answer found: "nesse mês" after the worst month is that month. */
  previousAnsweredDate?: string | null;
  /** The question is a part of a compound one said in the client's voice ("quantas cotas eu tenho e qual o preço médio"). */
  ownVoice?: boolean;
  /** How the previous answer was made (entity, measure, tool...): "e do VILG11?" after an entity's answer asks it again. */
  previousKind?: string | null;
  /** The person's words the previous answer answered: an entity's answer asked again of another fund is worded for them. */
  previousAsked?: string | null;
  /** Read alone, the turn decided nothing ("quanto veio do HGRU11?"): read against the conversation, it edits the previous question. */
  undecidedAlone?: boolean;
}

/** Words of a share of the portfolio ("peso de cada fundo", "quanto por cento da carteira"). */
const SHARE_WORDS = /(?:^| )(?:peso|pesos|participacao|quanto por cento|percentual|porcentagem)(?= |$)/;

/**
 * Decides how a question is answered: entity (with parameters), tool, concept, small talk,
 * confirmation, or asks back. Deterministic first, every decision explained in `planner`;
 * the model is asked only when that decision is not confident enough.
 */
export class Planner {
  private tickers: TickerIndex;
  private names: FundNameIndex | null = null;
  private byCnpj = new Map<string, string>();
  private readonly ontology: Ontology;
  private readonly llm: LlmClient | null;
  private readonly shapes: MultiStepShapes | null;
  private readonly known: { tools: ReadonlySet<string>; measures: ReadonlySet<string> };
  private readonly reader: QuestionReader;
  private readonly measureFamily: Set<string>;
  /** Each measure's catalog words as stems (no stopwords), read once: which words name it. */
  private readonly measureStems: Map<string, Set<string>>;
  private readonly compound: CompoundSplitter;
  private readonly clauseOpeners: ReadonlySet<string>;
  private readonly router: EntityRouter;
  /** The catalog's words for the client's portfolio, longest first ("dos meus" after "dos meus fiis"). */
  private readonly portfolioWords: string[];
  /** The words of each entity's ordering columns ("o de maior valor" picks a row of its list by one). */
  private readonly orderings: Record<string, NamedOrdering[]>;

  constructor(private readonly opts: PlannerOptions) {
    this.ontology = opts.policies.ontology;
    this.orderings = namedOrderings(opts.policies.orderings ?? {}, opts.policies.params.spec.condition_words);
    this.portfolioWords = Object.values(opts.policies.measures.subjects.portfolio ?? {})
      .flat()
      .sort((a, b) => b.length - a.length);
    this.router = new EntityRouter(this.ontology, opts.policies.params, {
      classOf: (entity) => this.classOf(entity),
      namesMeasure: (q) => this.reader.read(q.original, [], undefined, { said: this.saysOwn(q), conversation: false }).measureNamed,
      analyse: (text) => analyseQuestion(text, this.recognizeTickers(text), this.ontology.vocabulary),
      heldFilter: (entity) => this.opts.policies.held?.[entity] ?? null,
      withoutPortfolioWords: (q) => {
        const text = this.portfolioWords.reduce((t, w) => t.split(` ${w} `).join(' '), ` ${q.normalized} `);
        return analyseQuestion(text.trim(), this.recognizeTickers(text), this.ontology.vocabulary);
      },
    });
    // (its prepositional forms, "dele", "nesse fundo": "ele" points at the conversation's subject of any kind, a cue of
    // its own, and a subject form, "esse fundo tem Sharpe bom?", is the last reference's to resolve, CONTRACT)
    this.reader = new QuestionReader(
      opts.policies.measures,
      this.ontology.wordsOf('fund_reference').filter((w) => /^[dn](?:el|ess|est)/.test(w)),
    );
    this.measureFamily = measureFamily(opts.policies.measures);
    this.measureStems = new Map(
      Object.entries(opts.policies.measures.measures).map(([name, m]) => [
        name,
        new Set(
          m.words
            .flatMap((w) => normalize(w).split(' '))
            .filter((w) => !STOPWORDS.has(w))
            .map(stem),
        ),
      ]),
    );
    this.tickers = new TickerIndex(null, this.ontology.tickerPrefixStopwords);
    if (opts.funds) this.setFunds(opts.funds);
    this.llm = opts.llm ?? null;
    this.shapes = opts.policies.plans ? new MultiStepShapes(opts.policies.plans) : null;
    this.known = {
      tools: new Set(Object.keys(opts.policies.tools?.tools ?? {})),
      measures: new Set(Object.keys(opts.policies.measures.measures)),
    };
    // (the catalog's aggregation words, "último", "maior", belong to the thing asked after them)
    const modifiers = Object.values(opts.policies.measures.aggregations).flat();
    this.compound = new CompoundSplitter(this.topicWords(), this.ontology.spec.compound, modifiers);
    this.clauseOpeners = new Set(this.ontology.spec.compound.clause_openers.map((w) => fold(w)));
  }

  /** What names a thing asked: every measure's words, and the words that weigh most in one entity. */
  private topicWords(): TopicWords[] {
    const { topic_weight } = this.ontology.spec.compound;
    const measures = Object.entries(this.opts.policies.measures.measures).flatMap(([name, m]) =>
      [...m.words, ...m.client_words].map((phrase) => ({ phrase, target: `measure:${name}` })),
    );
    const entities = Object.entries(this.ontology.spec.entities).flatMap(([name, e]) =>
      Object.entries({ ...e.tokens, ...e.phrases })
        .filter(([, w]) => w >= topic_weight)
        .map(([phrase]) => ({ phrase, target: `entity:${name}` })),
    );
    return [...measures, ...entities];
  }

  /** The questions a compound question is made of ("o cnpj e o p/vp do X" → two), or null. */
  compoundParts(question: string, tickers: readonly string[]): string[] | null {
    return this.compound.split(question, tickers);
  }

  /** The family a measure belongs to, whose words read its follow-ups (catalog `family`), or null. */
  familyOf(measure: string | null | undefined): string | null {
    return (measure && this.opts.policies.measures.measures[measure]?.family) || null;
  }

  /** "tava olhando o gráfico do KNRI11... qual foi a maior cotação dele em 2024?": the question after its context, or null. */
  questionAfterContext(question: string, tickers: readonly string[]): string | null {
    const c = this.ontology.spec.compound;
    return questionAfterContext(question, tickers, this.clauseOpeners, c.context_min_words);
  }

  /** Replaces the fund list (the service refreshes it from the warehouse). */
  setFunds(funds: Iterable<string | NamedFund>): void {
    const list = [...funds].map((f) => (typeof f === 'string' ? { ticker: f, name: null } : f));
    this.tickers = new TickerIndex(
      list.map((f) => f.ticker),
      this.ontology.tickerPrefixStopwords,
    );
    this.names = new FundNameIndex(list, (w) => this.ontology.vocabulary.has(w));
    this.byCnpj = new Map(list.filter((f) => f.cnpj).map((f) => [f.cnpj!.replace(/\D/g, ''), f.ticker]));
  }

  /**
   * "qual o ticker do Rio Bravo Renda Corporativa?": a fund named by its name is written as its ticker
   * (when the question names no ticker), so every later step reads it like any fund.
   */
  private withTickersForNames(question: string): { question: string; note: string } {
    if (!this.names?.size || this.recognizeTickers(question).tickers.length) return { question, note: '' };
    // "de qual fii é o CNPJ 12.005.956/0001-65?": a fund named by its CNPJ.
    const cnpj = cnpjIn(question);
    const byCnpj = cnpj ? this.byCnpj.get(cnpj.digits) : undefined;
    if (cnpj && byCnpj) return { question: question.replace(cnpj.written, byCnpj), note: `; fund named by its CNPJ (${cnpj.written} = ${byCnpj})` };
    const found = this.names.find(question);
    if (!found) return { question, note: '' };
    const folded = fold(question);
    const at = new RegExp(`(?<![a-z0-9])${found.phrase.split(' ').join('[^a-z0-9]+')}(?![a-z0-9])`).exec(folded);
    // Folding keeps one character per character for Portuguese text; the original keeps its other words.
    const source = folded.length === question.length ? question : folded;
    if (!at) return { question, note: '' };
    return {
      question: `${source.slice(0, at.index)}${found.ticker}${source.slice(at.index + at[0].length)}`,
      note: `; fund named by its name ("${found.phrase}" = ${found.ticker})`,
    };
  }

  get fundsLoaded(): boolean {
    return this.tickers.loaded;
  }

  get fundCount(): number {
    return this.tickers.size;
  }

  private recognizeTickers(question: string) {
    // A chat abbreviation ("qnts") is a word, never a fund's 4-letter prefix (QNTS11).
    return this.tickers.recognize(question, (w) => this.ontology.vocabulary.has(w) || Object.hasOwn(ABBREVIATIONS, w));
  }

  /** The deterministic decision, synchronous and cheap (no I/O). */
  planDeterministic(asked: string, opts: PlanOptions = {}): PlanResponse {
    const whole = this.wholeList(asked, opts);
    if (whole) return whole;
    const narrowed = this.entityPick(asked, opts) ?? this.rowsFiltered(asked, opts) ?? this.narrowing(asked, opts) ?? this.reRanking(asked, opts);
    if (narrowed) return narrowed;
    // "qual o p/vp do primeiro?" after a ranking: the fund at that place of the previous answer.
    const inOrder = fundsInOrder(opts);
    const listed = !this.recognizeTickers(asked).tickers.length ? withListedReference(asked, inOrder.funds, !inOrder.list) : null;
    const named = this.withTickersForNames(listed?.question ?? asked);
    const question = named.question;
    const nameNote = `${named.note}${listed ? `; "${listed.ticker}" is the fund at that place of the previous answer` : ''}`;
    const q = analyseQuestion(question, this.recognizeTickers(question), this.ontology.vocabulary);
    const tickerNote = q.tickers.mode === 'fund-list' ? '' : '; fund list not loaded yet: tickers recognised by pattern (AAAA11) only';
    const corrections = q.corrections.length ? `; corrected ${q.corrections.join(', ')}` : '';
    const suffix = tickerNote + corrections + nameNote;

    if (q.tickers.tickers.length > MAX_QUESTION_SUBJECTS) return this.tooManyFunds(q, suffix);
    const confirmation = detectConfirmation(q, this.ontology);
    if (confirmation) {
      return this.special(q, 'confirmation', 'confirmation', { confirmation: confirmation.value }, `whole message is a ${confirmation.value} ("${confirmation.phrase}")${suffix}`);
    }
    const smalltalk = detectSmalltalk(q, this.ontology);
    if (smalltalk) {
      return this.special(q, 'smalltalk', `smalltalk_${smalltalk.kind}`, { smalltalk: smalltalk.kind }, `small talk (${smalltalk.kind}): ${smalltalk.phrases.join(', ')}${suffix}`);
    }
    // Another asset, or a company measure FIIs do not report: said plainly, not asked back.
    const outside = detectOutOfScope(q, this.ontology);
    if (outside) {
      const res = this.special(q, 'smalltalk', 'out_of_scope', { smalltalk: 'out_of_scope' }, `out of scope (${outside.reason}: ${outside.term})${suffix}`);
      // ("vale a pena comprar bitcoin agora?": not covered, and a verdict Cota would not give anyway)
      return { ...res, out_of_scope: outside, advice: detectAdvice(q, this.ontology) !== null };
    }
    // Several steps: a comparison on several dimensions, a projection at a fund's yield, a screen
    // with several conditions, a fund against a benchmark rate.
    const multi = this.shapes?.plan(question, q.tickers.tickers) ?? null;
    if (multi) {
      const problems = validatePlan(multi, this.known);
      if (problems.length === 0) {
        const res = this.special(q, 'plan', 'plan', { plan: multi }, `multi-step ${multi.synthesis.shape}: ${multi.goal} (${multi.steps.length} steps)${suffix}`);
        return { ...res, advice: detectAdvice(q, this.ontology) !== null };
      }
    }
    // "Devo comprar o XPML11?": the fund's facts and a plain note that Cota does not recommend.
    const advice = detectAdvice(q, this.ontology);
    if (advice) return this.advicePlan(q, advice, suffix, opts);
    const byWords = detectTool(q, this.ontology, this.familyOf(opts.previousQuestion?.measure));
    // Definitions first: "o que são juros compostos?" asks for a concept, not a calculation; but a tool the
    // conversation leads to ("quanto de imposto isso dá?" after a sale's result) is that tool's.
    // (so is a tool whose every argument the message states: "vendi 50 cotas a 90 com PM de 100, tenho imposto pra pagar?")
    const concept = byWords?.inConversation ? null : detectConcept(q, this.ontology);
    if (concept && !(byWords && this.statesEveryArgument(byWords.name, question))) {
      return this.special(q, 'concept', 'concept', {}, `conceptual question (knowledge base): matched ${concept}${suffix}`);
    }
    const general = this.toolAskedInGeneral(q, byWords, opts, suffix);
    if (general) return general;
    const byArgs = this.opts.policies.tools
      ? toolByArguments(question, this.opts.policies.tools, { hasTicker: q.tickers.tickers.length > 0, aboutFunds: this.aboutFunds(q) })
      : null;
    // (by its arguments only when no rule named a tool, to confirm a calculator rule, or when it states every number)
    const tool = byArgs?.stated ? byArgs : (byWords ?? byArgs);
    // "ifix no ano, quanto acumula?" names a series and a measure: it asks for data, not a calculator.
    // A calculation whose arguments are all written out ("CDI de 10,65% ao ano, quanto é isso por mês?")
    // and the tools named for what they do (número mágico, IR de uma venda) stay tools.
    const certain = tool && (tool.name !== 'calcular_financas' || byArgs?.name === tool.name);
    const asksData = tool && !certain && this.reader.read(question, q.tickers.tickers, undefined, { said: this.saysOwn(q), conversation: false }).question;
    const route = () => this.router.route(q, suffix, opts.previousEntity ?? null, (opts.previousTickers?.length ?? 0) === 1);
    const dataAsked = asksData && asksData.measure && asksData.subjects.length > 0 && asksData.subjects.every((s) => s.kind !== 'portfolio');
    // (the question is routed for a tool only when a field of a fund could be what it asks)
    const fieldAsked = tool && !dataAsked && this.takesNoFund(tool.name) && q.tickers.tickers.length > 0 ? route() : null;
    if (tool && !dataAsked && !this.ownFiiData(tool.name, question, q, opts) && !(fieldAsked && this.asksFieldOfFund(fieldAsked))) {
      return this.special(q, 'tool', tool.name, { tool: { name: tool.name, args: {} } }, `tool ${tool.name}: matched ${tool.matched}${suffix}`);
    }
    const routed = fieldAsked ?? route();
    return this.withEditedParams(question, q, this.withExtremeRow(question, this.ofFundsReferredTo(question, this.withStructuredQuestion(q, routed, opts), opts)), opts);
  }

  /** A follow-up that stays with the previous answer's entity edits its parameters. */
  private withEditedParams(question: string, q: AnalysedQuestion, out: PlanResponse, opts: PlanOptions): PlanResponse {
    const hasPrevious = !!opts.previousParams || Object.keys(opts.previousFilters ?? {}).length > 0;
    if (out.kind !== 'entity' || !hasPrevious || out.entity !== opts.previousEntity) return out;
    // ("e a ocupação do DCC Cajamar?" after the property with the largest share: a row named is no longer that pick)
    const previous = opts.previousParams?.limit === 1 && namesARow(question, q.tickers.tickers) ? { ...opts.previousParams, limit: null, order_by: null } : opts.previousParams;
    return { ...out, params: editEntityParams(previous ?? null, opts.previousFilters ?? {}, out.params) };
  }

  /**
   * A tool asked in general, with nothing to run on, is its concept: the rule, from the knowledge base ("qual a alíquota
   * de IR na venda de cotas?"). "quanto de IR pago se vender minhas cotas?" is the client's own sale: the tool asks which fund.
   */
  private toolAskedInGeneral(q: AnalysedQuestion, tool: ReturnType<typeof detectTool>, opts: PlanOptions, suffix: string): PlanResponse | null {
    if (!tool?.conceptInGeneral || q.tickers.tickers.length || opts.previousTickers?.length || /\d/.test(q.normalized) || this.saysOwn(q)) return null;
    return this.special(q, 'concept', 'concept', {}, `conceptual question (knowledge base): ${tool.name} asked in general (${tool.matched})${suffix}`);
  }

  /** Whether the message states every argument a tool needs: the calculation asked, not the rule behind it. */
  private statesEveryArgument(tool: string, question: string): boolean {
    const policy = this.opts.policies.tools;
    const contract = policy?.tools[tool];
    if (!policy || !contract || !/\d/.test(question)) return false;
    const stated = extractArgs(question, contract.extractors, policy);
    return Object.keys(stated).length > 0 && resolveArgs(contract, stated, {}).missing.length === 0;
  }

  /** "quanto paguei no total?" right after the client's FII trades: its own figures, not a personal expense. */
  private ownFiiData(tool: string, question: string, q: AnalysedQuestion, opts: PlanOptions): boolean {
    if (!this.readsPersonalLedger(tool) || !this.conversationIsOwn(opts)) return false;
    return this.reader.read(question, q.tickers.tickers, undefined, { said: true, conversation: true }).measureNamed;
  }

  /** What a concept question asks about, the asking words it opens with left out ("o que é come-cotas?" → "come cotas"). */
  conceptSubject(question: string): string {
    const text = normalize(question);
    const asking = this.ontology.concept
      .flatMap((r) => r.all[0])
      .map((p) => p.words.join(' '))
      .filter((w) => text.startsWith(`${w} `))
      .sort((a, b) => b.length - a.length)[0];
    return asking ? text.slice(asking.length).trim() : text;
  }

  /**
   * The words of a tool's concept, when its topic has one (a rule `concept_in_general`: the tax of a sale is also the tax
   * rule): the longest phrase of the rule's first group ("imposto de renda"). Null otherwise.
   */
  conceptOfTool(tool: string): string | null {
    const rule = this.ontology.tools.find((t) => t.name === tool)?.rules.find((r) => r.conceptInGeneral);
    return rule ? ([...rule.all[0]].sort((a, b) => b.text.length - a.text.length)[0]?.text ?? null) : null;
  }

  /** A tool over the client's personal income and spending (not its FIIs): its words are the FII portfolio's too ("paguei", "recebi"). */
  readsPersonalLedger(tool: string): boolean {
    const extractors = this.opts.policies.tools?.tools[tool]?.extractors ?? [];
    return extractors.includes('transaction_query') || extractors.includes('transaction');
  }

  /** Whether a tool's contract takes no fund (no ticker argument): a fund named beside its words is asked of something else. */
  private takesNoFund(tool: string): boolean {
    const contract = this.opts.policies.tools?.tools[tool];
    return !!contract && !Object.entries(contract.args).some(([name, a]) => a.type === 'ticker' || name === 'tickers');
  }

  /**
   * "me passa o cnpj do MXRF11, preciso pra declarar o IR": beside a tool that takes no fund, named by why the
   * person asks, a field of the fund named by a word specific to it ("cnpj", not a word a tool's request shares:
   * "pagar imposto sobre a venda") is what is asked.
   */
  private asksFieldOfFund(routed: PlanResponse): boolean {
    if (routed.kind !== 'entity' || !routed.planner.accepted || this.classOf(routed.entity) !== 'fund') return false;
    const best = routed.planner.candidates[0];
    const own = best ? this.ontology.strongestOwnWord(best as Candidate, undefined) : null;
    return !!own && own.weight >= this.ontology.thresholds.field_word_weight;
  }

  /**
   * "mostre todos" after a list cut at its size: the same list (entity, filters, conditions, order), all
   * of it (the warehouse still caps it at the entity's max_rows). Null when the message asks something
   * else or the previous answer was no list.
   */
  private wholeList(asked: string, opts: PlanOptions): PlanResponse | null {
    const prev = opts.previousParams;
    if (!opts.previousEntity || !prev || prev.agg !== 'list' || !this.ontology.asksWholeList(normalize(asked))) return null;
    const q = analyseQuestion(asked, this.recognizeTickers(asked), this.ontology.vocabulary);
    const params = { ...prev, limit: MAX_LIST_ROWS, limit_asked: null };
    const reason = `the whole list of the previous answer (${opts.previousEntity}, same filters and order)`;
    return planResponse(q, 'entity', opts.previousEntity, opts.previousEntity, { params, ticker_sources: [], ticker_required: false, notes: [] }, this.decided(q, reason));
  }

  /**
   * "e por sortino?" after a ranking: the same ranking (its size, segment and type) by another of its
   * columns. Null when the previous answer was no ranking, or the words name no other rank column.
   */
  /**
   * "qual o de maior valor?", "qual o maior?" right after an entity's list (the processes of a fund, the client's
   * positions): the row of that list with the extreme of the column named (else of the one it was ordered by),
   * the same query otherwise. The rankings re-rank instead (`reRanking`).
   */
  private entityPick(asked: string, opts: PlanOptions): PlanResponse | null {
    const entity = opts.previousEntity;
    const prev = opts.previousParams;
    if (!entity || !prev || !['list', 'count', 'sum'].includes(prev.agg ?? '') || entity === this.opts.policies.params.spec.ranking.entity) return null;
    // (the cheap pattern first: most turns are no pick, and are read for their funds once, later)
    const pick = pickFromList(asked, this.orderings[entity] ?? [], prev.order_by);
    if (!pick) return null;
    const found = this.recognizeTickers(asked);
    if (found.tickers.length) return null;
    const q = analyseQuestion(asked, found, this.ontology.vocabulary);
    // (of the funds that list was about, as one row: a count's list too; the client's own list is all of the client's)
    const own = this.classOf(entity) === 'client';
    const funds = prev.tickers.length ? prev.tickers : prev.ticker ? [prev.ticker] : own ? [] : (opts.previousTickers ?? []);
    // (among several funds' rows, "e o de maior DY entre esses" compares the funds: the comparison names its winner)
    if (funds.length > 1) return null;
    const params = {
      ...prev,
      ticker: funds.length === 1 ? funds[0] : null,
      tickers: funds,
      agg: 'list' as const,
      order_by: pick.column,
      order: pick.order,
      limit: 1,
      limit_asked: 1,
    };
    const reason = `the row of the previous list with the ${pick.order === 'desc' ? 'greatest' : 'least'} ${pick.column}`;
    // (one fund is the conversation's reference, inherited under the contract's rules; several are the list's scope)
    const sources: Array<'context'> = funds.length === 1 ? ['context'] : [];
    return { ...planResponse(q, 'entity', entity, entity, { params, ticker_sources: sources, ticker_required: false, notes: [] }, this.decided(q, reason)), elliptic: true };
  }

  /**
   * "algum com risco provável?", "quantos são de risco remoto?" right after a fund's rows (its legal processes): the
   * same rows kept to the value of one of the entity's own filters the words name, counted when a count is asked.
   * The segment and type of fund narrow lists of funds instead (`narrowing`). Null when no such value is named.
   */
  private rowsFiltered(asked: string, opts: PlanOptions): PlanResponse | null {
    const prev = opts.previousParams;
    const named = this.rowFilterNamed(asked, opts.previousEntity ?? null, prev ?? null);
    if (!named || !prev) return null;
    const { entity, q, inferred, keys } = named;
    const filters = { ...prev.filters, ...Object.fromEntries(keys.map((k) => [k, inferred.filters[k]])) };
    const params = { ...prev, agg: inferred.agg === 'count' ? ('count' as const) : ('list' as const), filters };
    const reason = `the rows of the previous answer (${entity}) kept to ${keys.map((k) => `${k} = ${filters[k]}`).join(', ')}`;
    const sources: Array<'context'> = prev.ticker ? ['context'] : [];
    return { ...planResponse(q, 'entity', entity, entity, { params, ticker_sources: sources, ticker_required: false, notes: [] }, this.decided(q, reason)), elliptic: true };
  }

  /** Whether the message keeps the previous answer's rows to a value of one of its entity's own filters (`rowsFiltered`). */
  filtersPreviousRows(asked: string, previousEntity: string | null, previousParams: QueryParams | null): boolean {
    return this.rowFilterNamed(asked, previousEntity, previousParams) !== null;
  }

  private rowFilterNamed(asked: string, entity: string | null, prev: QueryParams | null) {
    if (!entity || !prev || !['list', 'count'].includes(prev.agg ?? '') || this.classOf(entity) !== 'fund') return null;
    const own = (this.opts.policies.params.entitySpec(entity)?.filters ?? []).filter((k) => !LIST_OF_FUNDS_FILTERS.has(k));
    if (!own.length) return null;
    const found = this.recognizeTickers(asked);
    if (found.tickers.length) return null;
    const q = analyseQuestion(asked, found, this.ontology.vocabulary);
    const inferred = this.opts.policies.params.infer(q, entity).params;
    const keys = own.filter((k) => inferred.filters[k] && inferred.filters[k] !== prev.filters[k]);
    return keys.length ? { entity, q, inferred, keys } : null;
  }

  private reRanking(asked: string, opts: PlanOptions): PlanResponse | null {
    const entity = this.opts.policies.params.spec.ranking.entity;
    const prev = opts.previousParams;
    // ("e por sortino?", "reordena pelo sharpe", "ordena eles por dy": a verb of ordering may say it)
    const by =
      /^(?:e |agora |entao )*(?:(?:re)?orden[ae]r? |classific[ae]r? |organiz[ae]r? )?(?:(?:os|as|eles|elas|esses|essas|a lista|isso) )?(?:por|pelo|pela|pelos|pelas) (.+)$/.exec(
        normalize(asked),
      );
    if (opts.previousEntity !== entity || !prev || !by || this.recognizeTickers(asked).tickers.length) return null;
    const again = this.planDeterministic(`ranking de fiis por ${by[1]}`);
    if (again.entity !== entity || !again.planner.accepted || !again.params.order_by || again.params.order_by === prev.order_by) return null;
    const params = { ...again.params, limit: prev.limit, limit_asked: prev.limit_asked ?? null, filters: prev.filters };
    return { ...again, params, planner: { ...again.planner, reason: `the previous ranking by another column ("${by[1]}"): ${again.planner.reason}` } };
  }

  /**
   * "só os de papel", "só os com p/vp abaixo de 0,8" after a list: the criterion read as a list across
   * funds ("fiis de papel"), with what the previous list asked (its segment, order and size) kept; said
   * of the funds shown ("desses, só os de logística"), or a threshold after a list of a size asked ("top 5"),
   * over those funds only. Null when the message
   * does not narrow a list, or its criterion is no segment, type or condition.
   */
  private narrowing(asked: string, opts: PlanOptions): PlanResponse | null {
    const list = (opts.conversationList?.length ?? 0) > 1 ? opts.conversationList! : (opts.previousTickers ?? []);
    if (list.length < 2 || this.recognizeTickers(asked).tickers.length) return null;
    const criterion = this.ontology.narrowingCriterion(normalize(asked));
    if (!criterion) return null;
    const across = this.planDeterministic(`fiis ${criterion}`);
    const { filters, conditions } = across.params;
    const criteria = !!filters.sector || !!filters.fund_type || (conditions?.length ?? 0) > 0;
    if (across.kind !== 'entity' || !across.planner.accepted || !criteria || across.params.ticker || across.params.tickers.length > 0) return null;
    // (so is a threshold after a list of a size asked, "top 5 ..." → "só os com P/VP abaixo de 1": across every fund
    // it would be another five; a segment, "e só os de papel?", asks that list again for the segment)
    const threshold = !!opts.previousParams?.limit_asked && (conditions?.length ?? 0) > 0 && !filters.sector && !filters.fund_type;
    // (after the client's own funds, "só os de shopping" keeps to them: the list is the client's; its view narrowed, where it can be)
    const ownList = this.classOf(opts.previousEntity ?? null) === 'client';
    const ownNarrowed = ownList ? this.ownListNarrowed(across, criterion, opts) : null;
    if (ownNarrowed) return ownNarrowed;
    if (this.reader.read(asked, []).cues.includes('among_list') || threshold || ownList) {
      const reason = `narrows the conversation's list of ${list.length} funds by "${criterion}": ${across.planner.reason}`;
      return { ...across, params: { ...across.params, tickers: [...list], limit: Math.max(across.params.limit ?? 0, list.length) }, planner: { ...across.planner, reason } };
    }
    const sameList = across.entity === opts.previousEntity ? opts.previousParams : null;
    // A segment's default order ("e só os de papel?" after a ranking by IFIX weight) gives way to the list's.
    const own = sameList && across.planner.reason.startsWith(SEGMENT_LIST) ? { ...across.params, order_by: null, limit: null } : across.params;
    const params = editEntityParams(sameList ?? null, opts.previousFilters ?? {}, own);
    const reason = `narrows the previous list by "${criterion}", keeping what it asked: ${across.planner.reason}`;
    return { ...across, params, planner: { ...across.planner, reason } };
  }

  /**
   * "e o cnpj deles?", "e quando cada um começou?": a fund's field asked of every fund the previous answer named
   * (the conversation's list), written in as if named; a single last reference cannot carry several funds.
   */
  private ofFundsReferredTo(question: string, out: PlanResponse, opts: PlanOptions): PlanResponse {
    if (out.kind !== 'entity' || this.classOf(out.entity) !== 'fund' || out.params.ticker || out.params.tickers.length) return out;
    if (!this.opts.policies.params.entitySpec(out.entity!)?.ticker.source.includes('text')) return out;
    const list = (opts.previousTickers?.length ?? 0) > 1 ? opts.previousTickers! : (opts.conversationList?.length ?? 0) > 1 ? opts.conversationList! : [];
    const cues = this.reader.read(question, []).cues;
    if (list.length === 0 || !(cues.includes('refers_all') || cues.includes('among_list'))) return out;
    const tickers = list.slice(0, 20);
    return {
      ...out,
      tickers_in_text: tickers,
      funds_named: tickers.length,
      params: { ...out.params, ticker: null, tickers },
      ticker_required: false,
      planner: { ...out.planner, reason: `${out.planner.reason}; "deles": the ${tickers.length} funds of the previous answer (${tickers.join(', ')})` },
    };
  }

  /**
   * "qual a minha maior posição?", "qual imóvel do HGLG11 tem a maior área?": one row of an entity's list, the one with the
   * extreme of the column named (`extremeRowAsked`); the rankings across funds order their own way.
   */
  private withExtremeRow(question: string, out: PlanResponse): PlanResponse {
    if (out.kind !== 'entity' || !out.planner.accepted || out.params.agg !== 'list' || out.params.limit_asked) return out;
    if (out.entity === this.opts.policies.params.spec.ranking.entity) {
      // ("qual o fundo com maior peso no ifix?": the ranking's first, which "dele" then points at; asked of every fund,
      // never of the conversation's)
      if (!oneRankedAsked(question) || out.params.tickers.length > 0) return out;
      return {
        ...out,
        params: { ...out.params, limit: 1, limit_asked: 1 },
        ticker_sources: ['text'],
        planner: { ...out.planner, reason: `${out.planner.reason}; one fund asked: the ranking's first` },
      };
    }
    // (among several funds named or listed, "o de maior DY entre esses" compares them: the comparison names its winner)
    if (out.params.tickers.length > 1) return out;
    const pick = extremeRowAsked(question, this.orderings[out.entity!] ?? []);
    if (!pick) return out;
    const params = { ...out.params, order_by: pick.column, order: pick.order, limit: 1, limit_asked: 1 };
    return { ...out, params, planner: { ...out.planner, reason: `${out.planner.reason}; the row with the ${pick.order === 'desc' ? 'greatest' : 'least'} ${pick.column}` } };
  }

  /** "só os de shopping" after the client's funds: the same view of the client's, by a segment or type it filters on. Null otherwise. */
  private ownListNarrowed(across: PlanResponse, criterion: string, opts: PlanOptions): PlanResponse | null {
    const entity = opts.previousEntity!;
    const accepted = this.opts.policies.params.entitySpec(entity)?.filters ?? [];
    const { filters, conditions } = across.params;
    const keys = Object.keys(filters);
    if (conditions?.length || keys.length === 0 || !keys.every((k) => (accepted as readonly string[]).includes(k))) return null;
    const kept = opts.previousParams ?? across.params;
    return {
      ...across,
      intent: entity,
      entity,
      params: { ...kept, ticker: null, tickers: [], filters: { ...(opts.previousFilters ?? {}), ...kept.filters, ...filters } },
      planner: { ...across.planner, reason: `narrows the client's own list by "${criterion}": ${entity} filtered by ${keys.join(', ')}` },
    };
  }

  /**
   * Reads the structured question (subjects × measure × period × aggregation) and, when the
   * question asks for a measure over a period, a comparison or an aggregate the catalog entities
   * cannot give as rows, answers it as a measure plan. A follow-up edits the previous question.
   */
  private withStructuredQuestion(q: AnalysedQuestion, routed: PlanResponse, opts: PlanOptions): PlanResponse {
    const family = this.familyOf(opts.previousQuestion?.measure);
    const reading = this.reader.read(q.original, q.tickers.tickers, q.corrected, { said: this.saysOwn(q) || !!opts.ownVoice, conversation: this.conversationIsOwn(opts), family });
    if (q.corrections.length) reading.signals.push(`corrected ${q.corrections.join(', ')}`);
    const previousFunds = opts.previousTickers?.length ?? 0;
    const amongList = reading.cues.includes('among_previous') && (opts.conversationList?.length ?? 0) > 1;
    // ("compara o p/vp dos dois" after two answers of one fund each that asked no measure: the funds of both)
    const bothAnswers = previousFunds === 1 && (opts.earlierSubjects?.length ?? 0) > 0 && pointsAtSeveral(reading);
    const hasPrevious = !!opts.previousQuestion || previousFunds > 1 || amongList || bothAnswers || (previousFunds === 1 && refersToOne(reading));
    // "top 10 fiis por dy" names its own universe (every fund): not a subject left out for the previous answer to fill.
    const fundList = /(?:^| )(?:fiis|fundos|top \d+|ranking)(?= |$)/.test(q.normalized);
    // (an aggregation alone, "qual foi o maior do ano?", is asked of something the conversation names; so is
    // the client's own measure whose portfolio no word named, "a que preço?" after a sale)
    const subjectsSaid = reading.impliedPortfolio ? 0 : reading.question.subjects.length;
    // ("e o melhor?" after the worst month of a year picks the other end)
    const otherEnd = reading.extremeOrder !== null && !!opts.previousQuestion?.extreme_group;
    const cue =
      reading.cues.length > 0 ||
      routed.elliptic ||
      !!opts.undecidedAlone ||
      otherEnd ||
      (subjectsSaid === 0 && !fundList && (reading.question.period !== null || reading.measureNamed || reading.aggWanted.length > 0));
    let question = reading.question;
    let followUp: FollowUpMeta | null = null;
    if (hasPrevious && cue && !this.namesOwnTopic(routed, reading, opts)) {
      const edited = applyFollowUp(
        reading,
        {
          question: opts.previousQuestion ?? null,
          tickers: opts.previousTickers ?? [],
          list: opts.conversationList ?? [],
          earlier: opts.earlierSubjects ?? [],
          earlierPeriod: opts.earlierPeriod ?? null,
          earlierMeasure: opts.earlierMeasure ?? null,
          answeredDate: opts.previousAnsweredDate ?? null,
        },
        this.opts.policies.measures,
      );
      question = edited.question;
      followUp = edited.meta;
    }
    question = this.withImpliedMeasure(question, routed, reading);
    // A market series asked over a period or with an aggregate is the measure's, whatever entity the words leaned to.
    // "top 5 fiis com maior peso no ifix" ranks funds: the index there is a criterion, not the subject.
    const marketOnly = question.subjects.length > 0 && question.subjects.every((s) => isMarketKind(s.kind));
    const again = this.asksEntityAgain(routed, reading, followUp, opts);
    const routedFits = !again && this.measureOverridesRoute(question, routed, reading, followUp, fundList, marketOnly);
    const measurable = this.measurability(q, question, routed, reading, followUp);
    // (asked again, it is worded for the words it repeats: "qnts cotistas tem o hglg11" → "e o knri11" says the KNRI11's shareholders)
    const repeated = again && opts.previousAsked ? { asked: askedOf(opts.previousAsked, opts.previousTickers ?? [], routed.params.tickers) } : {};
    const out: PlanResponse = { ...routed, ...repeated, question, follow_up: followUp, follow_up_candidate: !hasPrevious && cue };
    if (!measurable.ok || !routedFits || routed.kind === 'smalltalk') return this.answeredAsRouted(out, measurable, followUp, fundList, marketOnly);
    // (once it is answered as a measure: a fund's figure per share of the whole portfolio is what the client's shares got)
    const ownFigure = this.reader.clientFigureOfPortfolio(question, q.normalized);
    if (ownFigure) reading.signals.push(ownFigure.signal);
    return measurePlan({ ...out, question: ownFigure?.question ?? question }, ownFigure?.question ?? question, this.opts.policies, reading.signals, measurable.why, followUp);
  }

  /** The question's own words put it in the client's portfolio ("meu", "eu tenho", "recebi": the ontology's client scope). */
  private saysOwn(q: AnalysedQuestion): boolean {
    return this.ontology.activeFeatures(q).has('client_scope');
  }

  /** Funds or their data are talked about, or a word points back at a fund (the ontology's fund_talk and fund_reference). */
  private aboutFunds(q: AnalysedQuestion): boolean {
    const features = this.ontology.activeFeatures(q);
    return features.has('fund_talk') || features.has('fund_reference');
  }

  /** A structured question of the client's own figures (its measure is the portfolio's). */
  isOwnQuestion(question: StructuredQuestion): boolean {
    return !!question.measure && this.opts.policies.measures.measures[question.measure]?.subject === 'portfolio';
  }

  /** A reading of the client's own figures: its measure is the portfolio's, or its entity is one of the client's. */
  isOwn(plan: PlanResponse): boolean {
    const measure = plan.question?.measure;
    return measure ? this.opts.policies.measures.measures[measure]?.subject === 'portfolio' : this.classOf(plan.entity) === 'client';
  }

  /** The previous answer was about the client's own portfolio: its own measure, or one of its entities. */
  private conversationIsOwn(opts: PlanOptions): boolean {
    const prev = opts.previousQuestion;
    if (prev?.measure) return this.opts.policies.measures.measures[prev.measure]?.subject === 'portfolio';
    return !!prev?.subjects.some((s) => s.kind === 'portfolio') || this.classOf(opts.previousEntity ?? null) === 'client';
  }

  /**
   * A question that names its own topic ("e o overview dele?" after a Sharpe) is not an edit of the
   * previous measure: its entity answers it, and the fund comes from the last reference.
   */
  private namesOwnTopic(routed: PlanResponse, reading: QuestionReading, opts: PlanOptions): boolean {
    return (
      routed.kind === 'entity' &&
      routed.planner.accepted &&
      !routed.elliptic &&
      !reading.measureNamed &&
      !!routed.entity &&
      // (with a fund of its own too: "e o cnpj do segundo?" after a P/VP asks the registry of that fund)
      reading.question.subjects.every((s) => s.kind === 'fund') &&
      !!opts.previousQuestion?.measure &&
      // (another field of the entity that holds the previous measure counts too: "e o cnpj do segundo?" after the IFIX weights)
      (this.opts.policies.measures.measures[opts.previousQuestion.measure]?.entity !== routed.entity || !this.routedByMeasureWords(routed, opts.previousQuestion.measure)) &&
      !reading.cues.includes('among_previous') &&
      // "e o menor?" after the highest close: an aggregation alone edits the previous measure, whatever entity its word leans to.
      !(reading.cues.includes('opener') && (reading.aggNamed || reading.compareWanted !== null || reading.extremeOrder !== null)) &&
      !reading.cues.includes('add_subject') &&
      // ("ela" of the Selic edits its question; "quem administra ele?" after funds asks the fund's own topic)
      !(reading.cues.includes('refers_subject') && !opts.previousQuestion.subjects.every((s) => s.kind === 'fund')) &&
      !reading.cues.includes('between_answers') &&
      !this.namedOnlyByEditWords(routed, reading)
    );
  }

  /**
   * "e no primeiro semestre de 2025?", "qual foi o maior do ano?": the entity was reached only by words the
   * reading took as the period or an aggregation ("primeiro", "maior" are a ranking's words too), so the turn
   * names no topic of its own: it edits the previous question.
   */
  private namedOnlyByEditWords(routed: PlanResponse, reading: QuestionReading): boolean {
    return this.namedOnlyBy(routed, reading.editWords);
  }

  /** Whether a word of `measure` (its catalog words) is among those that scored the routed entity. */
  private routedByMeasureWords(routed: PlanResponse, measure: string): boolean {
    const best = routed.planner.candidates[0];
    const own = this.measureStems.get(measure);
    return !!best && !!own && this.ontology.matchedStems(best).some((s) => own.has(s));
  }

  /** Whether every word that scored the routed entity is one of `words` (the reading took them as something else). */
  private namedOnlyBy(routed: PlanResponse, words: string[]): boolean {
    const best = routed.planner.candidates[0];
    return !!best && this.candidateNamedOnlyBy(best, words);
  }

  /** Every entity the words leaned to, but the measure's own, leaned only on these words. */
  private rivalsNamedOnlyBy(routed: PlanResponse, measure: string | null, words: string[]): boolean {
    const own = measure ? this.opts.policies.measures.measures[measure]?.entity : undefined;
    return routed.planner.candidates.filter((c) => c.entity !== own).every((c) => this.candidateNamedOnlyBy(c, words));
  }

  private candidateNamedOnlyBy(candidate: PlanResponse['planner']['candidates'][number], words: string[]): boolean {
    const own = new Set(words.flatMap((w) => w.split(' ')).map(stem));
    const said = this.ontology.matchedStems(candidate);
    return own.size > 0 && said.length > 0 && said.every((s) => own.has(s));
  }

  /** The measure a question implies without naming it: a yield for funds compared on payouts, a price for a fund at a date. */
  private withImpliedMeasure(question: StructuredQuestion, routed: PlanResponse, reading: QuestionReading): StructuredQuestion {
    const signals = reading.signals;
    // Funds compared on what they pay, with no period, are compared by yield (R$ per share depends on the price);
    // one payment named ("no último dividendo") is compared as it was paid.
    const onePayment = reading.aggNamed && (question.agg === 'last' || question.agg === 'first');
    if (question.compare && question.measure === 'dividend' && !question.period && !onePayment && this.opts.policies.measures.measures.dy) {
      question = { ...question, measure: 'dy', agg: 'value' };
      signals.push('compared by dividend yield (payouts of funds with different prices)');
    }
    // A fund and a date but no measure ("brcr11 em 10/06/2019, qto tava?"), and no entity that reads it:
    // the fund's price is what a date asks of a fund.
    const price = this.opts.policies.measures.measures.price;
    if (
      !question.measure &&
      price &&
      question.period &&
      question.subjects.length > 0 &&
      question.subjects.every((s) => s.kind === 'fund') &&
      (!routed.planner.accepted || routed.kind !== 'entity')
    ) {
      question = { ...question, measure: price.name, agg: chooseAgg(price, new Set(), question.period, question.group_by !== null, '') };
      signals.push('measure price (a fund and a date, no other measure)');
    }
    return question;
  }

  /**
   * "e do VILG11?" right after "o p/vp e o valor patrimonial por cota do BRCO11" answered by one entity: the same
   * answer of the other fund (every field it gave), not the one measure the question was remembered by.
   */
  private asksEntityAgain(routed: PlanResponse, reading: QuestionReading, followUp: FollowUpMeta | null, opts: PlanOptions): boolean {
    if (opts.previousKind !== 'entity' || routed.kind !== 'entity' || !routed.elliptic || routed.entity !== opts.previousEntity) return false;
    if (reading.measureNamed || reading.aggNamed) return false;
    if (followUp?.applied) return followUp.changed.length > 0 && followUp.changed.every((c) => c.startsWith('subjects'));
    // (an answer no measure of the catalog stands for, "a vacância do XPML11": the other funds named are the whole edit)
    const now = routed.params.tickers.length ? routed.params.tickers : routed.params.ticker ? [routed.params.ticker] : [];
    return !opts.previousQuestion?.measure && now.length > 0 && now.some((t) => !(opts.previousTickers ?? []).includes(t));
  }

  /** Whether the measure answers rather than the entity routed to: any of these cases says so. */
  private measureOverridesRoute(
    question: StructuredQuestion,
    routed: PlanResponse,
    reading: QuestionReading,
    followUp: FollowUpMeta | null,
    fundList: boolean,
    marketOnly: boolean,
  ): boolean {
    const measures = this.opts.policies.measures.measures;
    return (
      !routed.planner.accepted ||
      routed.kind !== 'entity' ||
      (routed.entity !== null && this.measureFamily.has(routed.entity) && this.sameScope(question.measure, routed.entity)) ||
      // "ativo total do KNRI11 em 2022": the entity, of the measure's scope, was reached only by the words that named the measure.
      (routed.entity !== null && this.sameScope(question.measure, routed.entity) && this.namedOnlyBy(routed, reading.measureWords)) ||
      // ...but a panorama (several series, "o cenário") stays the panorama's.
      // Several series at one date: the panel answers the panorama's question with each series' value.
      (question.measure === null && marketOnly && (!routed.planner.accepted || this.classOf(routed.entity) === 'market')) ||
      // "Qual dos meus fundos tem o maior DY?": a fund measure over the client's funds.
      (this.classOf(routed.entity) === 'client' && question.subjects.some((s) => s.kind === 'portfolio') && measures[question.measure ?? '']?.subject === 'fund') ||
      // An edit of the previous structured question stays one ("qual deles pagou mais?").
      (followUp?.applied === true && followUp.inherited.length > 0) ||
      // "entre HGLG11, KNRI11 e VISC11 qual tá com o menor P/VP? ordena": the funds named, compared by the measure named, not a ranking of every fund.
      (reading.measureNamed &&
        question.compare !== null &&
        question.subjects.filter((s) => s.kind === 'fund').length > 1 &&
        routed.entity === this.opts.policies.params.spec.ranking.entity) ||
      // A holding the question supposes ("se eu tivesse 500 cotas"): what one share paid, not the client's own income.
      question.shares !== undefined ||
      // A fund against an index over a period ("ABCP11 x IFIX em 2024, quem foi melhor?"): each one's return, whatever the words leaned to.
      (!fundList && isReturnsPanel(question, this.opts.policies.measures)) ||
      // "o que subiu mais em 2021, IPCA ou IGP-M?": one measure serves every series asked; the panorama shows levels only.
      (marketOnly &&
        !fundList &&
        (routed.entity !== 'macro_consolidada' || question.measure !== null) &&
        ((question.period !== null && question.period.kind !== 'latest') || reading.aggNamed)) ||
      // The client's own measure named ("quanto recebi", "rendeu pra mim") while the words leaned to a
      // fund or market entity (dividends, news): the client's figure.
      (reading.measureNamed && measures[question.measure ?? '']?.subject === 'portfolio' && this.classOf(routed.entity) !== 'client') ||
      // ...or to one of the client's entities whose rows are not the measure's ("o que eu vendi da minha carteira?": the
      // sales, not the portfolio's view of its positions; "o valor investido em cada um" is the view's own).
      (reading.measureNamed && measures[question.measure ?? '']?.subject === 'portfolio' && !this.holdsFiguresOf(routed.entity, measures[question.measure ?? '']))
    );
  }

  /** Whether an entity's rows are a measure's figures: its own table, or a view declared broader than that table's entity. */
  private holdsFiguresOf(entity: string | null, m: MeasureDef): boolean {
    return entity !== null && (entity === m.table || this.ontology.isBroaderThan(entity, m.table));
  }

  /** Whether a measure plan can answer the question, and why (or why not). */
  private measurability(
    q: AnalysedQuestion,
    question: StructuredQuestion,
    routed: PlanResponse,
    reading: QuestionReading,
    followUp: FollowUpMeta | null,
  ): { ok: boolean; why: string } {
    const measurable = isMeasurable(question, reading, followUp, this.opts.policies.measures);
    // "peso de cada fundo pelo valor investido", "quanto % da carteira é cada fundo": a share of the
    // portfolio, which the portfolio entity lists per fund; the measure named is what the share is of.
    // (unless that word is the measure's own name: "qual dos meus fiis tem mais peso no IFIX" asks each fund's IFIX weight)
    if (
      measurable.ok &&
      routed.kind === 'entity' &&
      this.classOf(routed.entity) === 'client' &&
      SHARE_WORDS.test(q.normalized) &&
      !SHARE_WORDS.test(reading.measureWords.join(' '))
    ) {
      return { ok: false, why: 'a share of the portfolio: the portfolio entity lists it per fund' };
    }
    // No entity reads it ("market cap do mxrf11"), or two lean to it equally ("numero de cotas do cpts11 hoje"), but the
    // measure catalog names it: the measure answers.
    // (the tie only of words the measure and its period took: "qual o preço e o cnpj" still asks which)
    const tieOfItsWords = () => routed.kind === 'clarification' && this.rivalsNamedOnlyBy(routed, question.measure, [...reading.measureWords, ...reading.editWords]);
    if (!measurable.ok && reading.measureNamed && question.measure && question.subjects.length > 0 && (routed.kind === 'unknown' || tieOfItsWords())) {
      return { ok: true, why: `${routed.kind === 'unknown' ? 'no entity reads it' : 'the entities tie'}; the measure catalog names it` };
    }
    return measurable;
  }

  /** The routed answer kept, with the question remembered so that a follow-up can edit it. */
  private answeredAsRouted(out: PlanResponse, measurable: { ok: boolean; why: string }, followUp: FollowUpMeta | null, fundList: boolean, marketOnly: boolean): PlanResponse {
    if (!measurable.ok && followUp?.applied) out.planner = { ...out.planner, reason: `${out.planner.reason}; follow-up not answered as a measure: ${measurable.why}` };
    // An entity answer is remembered as its entity's measure ("cotação do ABCP11" → price), so
    // "e ontem?" can edit it.
    // A ranking across funds ("top 5 fiis com maior peso no ifix") is not a question about the index it ranks by.
    if (out.kind === 'entity' && fundList && out.question && marketOnly) out.question = null;
    // "número de cotas do KNRI11", "quantos cotistas": the fund's figure the reading names, not a count of its
    // entity's rows (one registry row: "Quantidade de registros: 1").
    const named = out.question?.measure ? this.opts.policies.measures.measures[out.question.measure] : null;
    if (out.kind === 'entity' && out.params.agg === 'count' && out.params.tickers.length > 0 && named?.entity === out.entity && out.question?.agg === 'value') {
      out.params = { ...out.params, agg: 'latest' };
    }
    if (out.kind === 'entity' && out.question && !out.question.measure && out.entity) {
      const m = this.opts.policies.measures.entity_defaults[out.entity];
      if (m) out.question = { ...out.question, measure: m, agg: chooseAgg(this.opts.policies.measures.measures[m], new Set(), out.question.period, false, '') };
    }
    return out;
  }

  /** The entity's class, as the catalog declares it (null: no entity, or not one of the catalog). */
  private classOf(entity: string | null): EntityClass | null {
    return entity ? (this.opts.policies.entities[entity] ?? null) : null;
  }

  /** Whether a measure and a routed entity speak of the same kind of thing (a fund, the market, the client). */
  private sameScope(measure: string | null, entity: string): boolean {
    const def = measure ? this.opts.policies.measures.measures[measure] : null;
    if (!def) return false;
    const own = def.subject === 'fund' ? 'fund' : def.subject === 'portfolio' ? 'client' : 'market';
    return this.classOf(entity) === own;
  }

  private advicePlan(q: AnalysedQuestion, phrase: string, suffix: string, opts: PlanOptions): PlanResponse {
    // "esse fundo", "nele" point at a fund; "esse mês" does not. "Vale a pena comprar mais?" after
    // talking about a fund is about that fund, unless it asks which fund ("qual fii comprar?").
    const conversationFund = (opts.previousTickers?.length ?? 0) > 0 || !!opts.previousQuestion?.subjects.some((s) => s.kind === 'fund');
    const asksWhich = /(?:^| )(?:qual|quais|onde|em que|em qual|algum|alguma|fii|fiis|fundos)(?= |$)/.test(q.normalized);
    // ("meus fiis de shopping", "minha carteira" are several funds, "meu dinheiro" none: the note, not one fund's overview)
    const severalFunds = /(?:^| )(?:fundos|fiis)(?= |$)/.test(q.normalized);
    const pointsAtFund =
      q.tickers.tickers.length > 0 ||
      (!severalFunds && /(?:^| )(?:dele|dela|nele|nela|desse|deste|esse|este)(?= |$)(?! (?:mes|ano|semestre|trimestre|momento|dia|semana|carteira)(?: |$))/.test(q.normalized)) ||
      (!severalFunds && /(?:^| )(?:meu|minha|minhas) (?:fundo|fii|posicao|cota|cotas)(?= |$)/.test(q.normalized)) ||
      (conversationFund && !asksWhich);
    if (!pointsAtFund) {
      const res = this.special(q, 'smalltalk', 'advice', { smalltalk: 'advice' }, `request for a recommendation ("${phrase}"), no fund named: Cota does not recommend${suffix}`);
      // Without the conversation at hand, "vale a pena comprar mais?" may still be about its fund: ask again with it.
      return { ...res, advice: true, follow_up_candidate: !conversationFund && !asksWhich };
    }
    const entity = 'fii_overview';
    const inferred = this.opts.policies.params.infer(q, entity);
    const res = planResponse(
      q,
      'entity',
      entity,
      entity,
      { ...inferred, ticker_sources: ['text', 'context'], ticker_required: true },
      {
        normalized: q.normalized,
        score: 0,
        gap: 0,
        thresholds: { min_score: this.ontology.thresholds.min_score, min_gap: this.ontology.thresholds.min_gap },
        candidates: [{ entity, score: 0, signals: ['advice'], label: this.ontology.labelOf(entity) }],
        llm_used: false,
        accepted: true,
        reason: `request for a recommendation ("${phrase}"): the fund's overview, and Cota says it does not recommend${suffix}`,
      },
    );
    return { ...res, advice: true };
  }

  /** Whether the message asks for the whole list just shown: only the conversation can say which. */
  asksWholeList(question: string): boolean {
    return this.ontology.asksWholeList(normalize(question));
  }

  /** Whether a message opens like an edit of the tool call that just ran (ontology.yaml `elliptic.edit_openers`). */
  opensToolEdit(question: string): boolean {
    return this.ontology.opensEdit(normalize(question), question);
  }

  /** Whether a message opens like a narrowing of a list ("filtra só os de shopping"): only the conversation has the list. */
  opensNarrowing(question: string): boolean {
    return this.ontology.narrowingCriterion(normalize(question)) !== null;
  }

  /** Full decision: deterministic, then the model when configured and the decision was not accepted. */
  async plan(asked: string, opts: PlanOptions = {}): Promise<PlanResponse> {
    const plan = this.planDeterministic(asked, opts);
    const { question } = this.withTickersForNames(asked);
    if (plan.kind === 'plan' && plan.plan && this.llm) {
      // With a model configured, the model writes the plan; an invalid one leaves the deterministic plan.
      const written = await writePlanWithLlm(this.llm, question, plan.plan, this.known, { timeoutMs: this.ontology.spec.llm_fallback.timeout_ms });
      return written.plan
        ? { ...plan, plan: written.plan, planner: { ...plan.planner, llm_used: true, reason: `${plan.planner.reason}; plan written by the model` } }
        : { ...plan, planner: { ...plan.planner, llm_used: true, reason: `${plan.planner.reason}; model plan not used: ${written.failure}` } };
    }
    const undecided = (plan.kind === 'clarification' || plan.kind === 'unknown') && !plan.planner.accepted;
    const fallback = this.ontology.spec.llm_fallback;
    if (!undecided || !this.llm || !fallback.enabled) return plan;
    // An elliptic question has no subject the model could find: it comes from the conversation
    // (the gateway re-plans it with the previous entity), so the model's time would be wasted.
    if (plan.elliptic) return { ...plan, planner: { ...plan.planner, reason: `${plan.planner.reason}; elliptic follow-up: llm fallback not asked` } };
    const choice = await chooseEntityWithLlm(this.llm, this.ontology, question, plan.planner.candidates, {
      timeoutMs: fallback.timeout_ms,
      maxCandidates: fallback.max_candidates,
    });
    if (!choice.entity) {
      return { ...plan, planner: { ...plan.planner, llm_used: true, reason: `${plan.planner.reason}; llm fallback not used: ${choice.failure}` } };
    }
    const q = analyseQuestion(question, this.recognizeTickers(question), this.ontology.vocabulary);
    const inferred = this.opts.policies.params.infer(q, choice.entity);
    return {
      ...plan,
      kind: 'entity',
      intent: choice.entity,
      entity: choice.entity,
      params: inferred.params,
      ticker_sources: inferred.ticker_sources,
      ticker_required: inferred.ticker_required,
      planner: {
        ...plan.planner,
        // Accepted by the fallback (score and gap still show the deterministic miss): callers
        // treat kind 'entity' without acceptance as "ask back", which would waste the model's answer.
        accepted: true,
        llm_used: true,
        reason: `${plan.planner.reason}; accepted by the llm fallback, which chose ${choice.entity}`,
      },
    };
  }

  private special(
    q: AnalysedQuestion,
    kind: 'confirmation' | 'smalltalk' | 'tool' | 'concept' | 'plan',
    intent: string,
    extra: Partial<Pick<PlanResponse, 'tool' | 'smalltalk' | 'confirmation' | 'plan'>>,
    reason: string,
  ): PlanResponse {
    const res = planResponse(q, kind, intent, null, null, this.decided(q, reason));
    return { ...res, ...extra };
  }

  /** The planner meta of a reading decided by a rule, not by scoring entities. */
  private decided(q: AnalysedQuestion, reason: string): PlannerMeta {
    return {
      normalized: q.normalized,
      score: 0,
      gap: 0,
      accepted: true,
      thresholds: { min_score: this.ontology.thresholds.min_score, min_gap: this.ontology.thresholds.min_gap },
      candidates: [],
      llm_used: false,
      reason,
    };
  }

  /** More funds named than one question compares: nothing is read further, the answer asks for fewer. */
  private tooManyFunds(q: AnalysedQuestion, suffix: string): PlanResponse {
    const named = q.tickers.tickers.length;
    return planResponse(q, 'clarification', TOO_MANY_FUNDS, null, null, {
      normalized: q.normalized,
      score: 0,
      gap: 0,
      accepted: false,
      thresholds: { min_score: this.ontology.thresholds.min_score, min_gap: this.ontology.thresholds.min_gap },
      candidates: [],
      llm_used: false,
      reason: `${named} funds named, more than the ${MAX_QUESTION_SUBJECTS} one question compares${suffix}`,
    });
  }
}

/**
 * A row of a list named in the question by its proper name ("o DCC Cajamar", "do Edifício Jatobá"): a capitalised word after
 * an article or "de", not the message's first word, not a fund's code.
 */
function namesARow(question: string, tickers: readonly string[]): boolean {
  const codes = new Set(tickers.map((t) => t.toUpperCase()));
  for (const m of question.matchAll(/(?:^|\s)(?:d?[oa]s?|n[oa]s?|de)\s+(\p{Lu}[\p{L}\d]*)/gu)) if (!codes.has(m[1].toUpperCase())) return true;
  return false;
}

/** The previous question's words asked of other funds: its funds replaced by them, or them added when it named none. */
function askedOf(previous: string, before: readonly string[], now: readonly string[]): string {
  const funds = now.join(' e ');
  const said = before.filter((t) => new RegExp(`\\b${t}\\b`, 'i').test(previous));
  if (!said.length) return `${previous} do ${funds}`;
  return said
    .reduce((text, t, i) => text.replace(new RegExp(`\\b${t}\\b`, 'gi'), i === 0 ? funds : ''), previous)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The funds an ordinal points at ("qual o cnpj do segundo?", "voltando ao primeiro fundo, ..."): the conversation's
 * list, else the previous answer's funds, else the funds asked one after the other (the answer before, then the last).
 */
function fundsInOrder(opts: PlanOptions): { funds: string[]; list: boolean } {
  if ((opts.conversationList?.length ?? 0) > 1) return { funds: opts.conversationList!, list: true };
  if ((opts.previousTickers?.length ?? 0) > 1) return { funds: opts.previousTickers!, list: true };
  const asked = [...(opts.earlierSubjects ?? []).filter((s) => s.kind === 'fund').map((s) => s.id), ...(opts.previousTickers ?? [])];
  return { funds: [...new Set(asked)], list: false };
}
