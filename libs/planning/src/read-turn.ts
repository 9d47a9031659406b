import { ConversationState, PlanResponse, ToolReading } from '@cota/contracts';
import { ContextPolicy, Continuation, resolveLastReference, toolContinuation } from '@cota/dialogue';
import { todayInBrazil } from '@cota/periods';
import { isAbsent, ToolGatePolicy } from '@cota/tool-gating';
import { PlanOptions, Planner } from './planner';
import { extractArgs, extractRatioArgs } from './tool-args';
import { normalize, normalizeText } from '@cota/text';

/** The rules a turn is read under: the conversation's (policies/context.yaml) and the tools' contracts. */
export interface TurnReaderPolicies {
  context: Pick<ContextPolicy, 'enabled' | 'last_reference' | 'entity_classes'>;
  tools: ToolGatePolicy;
}

/** What the previous answers leave for a follow-up to edit. */
function followUpOptions(state: ConversationState): PlanOptions {
  return {
    previousEntity: state.last_entity,
    previousQuestion: state.last_question,
    previousTickers: (state.last_listed_tickers.length ? state.last_listed_tickers : state.last_tickers).slice(0, 50),
    conversationList: state.last_list,
    earlierSubjects: state.earlier_subjects,
    earlierPeriod: state.earlier_period,
    earlierMeasure: state.earlier_measure,
    previousParams: state.last_params,
    previousFilters: state.last_filters,
    previousAnsweredDate: state.last_answered_date,
    previousKind: state.last_kind,
    previousAsked: state.last_asked,
  };
}

/** A reading that edited the previous question ("e do HGLG11?", "e em 2023?"), answered from data. */
const editsPrevious = (p: PlanResponse) => answerable(p) && !!p.follow_up?.applied && (p.follow_up.inherited.length ?? 0) > 0;

/**
 * A question with nothing of Cota's vocabulary, no fund, no number and nothing it continues is about
 * another topic altogether ("vai chover amanhã?"): said plainly, with what Cota covers.
 */
function outsideTopic(question: string, plan: PlanResponse): PlanResponse {
  const nothing = plan.kind === 'unknown' && plan.planner.candidates.length === 0 && !plan.elliptic && !plan.follow_up_candidate;
  if (!nothing || plan.tickers_in_text.length > 0 || plan.unknown_tickers.length > 0 || /\d/.test(question)) return plan;
  const reason = `${plan.planner.reason}; out of scope (topic)`;
  return {
    ...plan,
    kind: 'smalltalk',
    intent: 'out_of_scope',
    smalltalk: 'out_of_scope',
    out_of_scope: { reason: 'topic', term: null },
    planner: { ...plan.planner, accepted: true, reason },
  };
}

/** Only a question answered from data is split: a tool, a plan or small talk reads the whole message. */
const compoundable = (whole: PlanResponse) => ['entity', 'measure', 'clarification', 'unknown'].includes(whole.kind);

const answerable = (p: PlanResponse) => (p.kind === 'entity' || p.kind === 'measure') && p.planner.accepted;
const targetOf = (p: PlanResponse) => `${p.entity}/${p.question?.measure ?? ''}`;

/**
 * Split only when every part is answered from data, each part asks something the others do not, and
 * the whole question read as one would not have answered them all (it asked back, or its one source
 * is not every part's).
 */
function splitPays(whole: PlanResponse, parts: PlanResponse[]): boolean {
  if (!parts.every(answerable) || new Set(parts.map(targetOf)).size < parts.length) return false;
  // (a measure question answers its one measure: "quantas cotas eu tenho e qual o meu pm" asks two of one source)
  const otherMeasure = (p: PlanResponse) => whole.kind === 'measure' && p.question?.measure !== whole.question?.measure;
  return !answerable(whole) || parts.some((p) => p.entity !== whole.entity || otherMeasure(p));
}

const present = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([, v]) => !isAbsent(v)));

/**
 * Reads one turn against what its conversation holds, once, into the reading every later step
 * acts on: a continued tool call with the arguments the message states, or the question planned
 * (as an edit of the previous one when it is a follow-up) with its funds decided under the
 * contract's last-reference rule.
 */
export class TurnReader {
  constructor(
    private readonly planner: Planner,
    private readonly policies: TurnReaderPolicies,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async read(question: string, state: ConversationState | null): Promise<PlanResponse> {
    const whole = await this.readOne(question, state);
    // A message that tells its context first is read by its question, when that question is answered from data.
    const core = compoundable(whole) ? this.planner.questionAfterContext(question, whole.tickers_in_text) : null;
    if (core) {
      const focused = await this.compound(core, await this.readOne(core, state), state);
      if (answerable(focused)) return { ...focused, planner: { ...focused.planner, reason: `${focused.planner.reason}; the question after its context: "${core}"` } };
    }
    return this.editOfEachPart(question, await this.compound(question, whole, state), state);
  }

  /**
   * "e do HGLG11?" right after a compound question ("o VP por cota e o patrimônio do HGRU11"): the edit applies
   * to each thing it asked, each read against its own question, and is answered as the parts of one question.
   */
  private async editOfEachPart(question: string, reading: PlanResponse, state: ConversationState | null): Promise<PlanResponse> {
    const also = state?.last_also_questions ?? [];
    if (!state || also.length === 0 || reading.parts?.length || !editsPrevious(reading)) return reading;
    const edits = await Promise.all(
      also.map(async (previousQuestion) => this.withFunds(await this.planner.plan(question, { ...followUpOptions(state), previousQuestion }), state)),
    );
    if (!edits.every(editsPrevious)) return reading;
    const reason = `${reading.planner.reason}; the edit applies to each of the ${also.length + 1} things the previous question asked`;
    return { ...reading, parts: edits.map((e) => ({ ...e, asked: question })), planner: { ...reading.planner, reason } };
  }

  /**
   * "quanto eu vendi de HGCR11 e a que preço?": after a part of a measure family (a sale), the others are read as its
   * family's, as they would be right after it in the conversation ("a que preço" is the sale's price).
   */
  private async inFamilyOfFirst(parts: PlanResponse[], state: ConversationState | null, ownVoice: boolean): Promise<PlanResponse[]> {
    const [first, ...rest] = parts;
    if (!first.question?.measure || this.planner.familyOf(first.question.measure) === null) return parts;
    const after = ConversationState.parse({
      ...(state ?? {}),
      turn_index: state?.turn_index ?? 1,
      last_entity: first.entity,
      last_tickers: first.params.tickers,
      last_question: first.question,
      last_params: first.params,
      last_kind: first.kind,
      last_reference: state?.last_reference ?? null,
    });
    const reread = await Promise.all(rest.map(async (p) => ({ ...(await this.readOne(p.asked!, after, ownVoice)), asked: p.asked })));
    return [first, ...reread];
  }

  /** A compound question ("o CNPJ e o P/VP do X") as its parts, each read as if asked alone; else the whole reading. */
  private async compound(question: string, whole: PlanResponse, state: ConversationState | null): Promise<PlanResponse> {
    // (the funds the whole reading found: a clause without them is asked of them)
    const asked = this.planner.compoundParts(question, whole.tickers_in_text);
    if (!asked || !compoundable(whole)) return whole;
    // (a question in the client's voice is asked so in each part: "quantas cotas eu tenho e qual o preço médio")
    const ownVoice = this.planner.isOwn(whole);
    const alone = await Promise.all(asked.map(async (part) => ({ ...(await this.readOne(part, state, ownVoice)), asked: part })));
    const parts = await this.inFamilyOfFirst(alone, state, ownVoice);
    if (!splitPays(whole, parts)) return whole;
    const [first, ...rest] = parts;
    const reason = `${first.planner.reason}; compound question: ${parts.length} things asked, each read on its own`;
    return { ...first, parts: rest, planner: { ...first.planner, reason } };
  }

  private async readOne(question: string, state: ConversationState | null, ownVoice = false): Promise<PlanResponse> {
    const first = await this.planner.plan(question, { ownVoice });
    const continued = state ? this.continuedCall(question, first, state) : null;
    if (continued) return this.withFunds(continued, state);
    // A turn not decided alone ("quantas cotas de HGLG11?": the position or the fund's issued shares) is read
    // against the conversation too, which may decide it (after "quais fundos eu tenho", the position).
    // (nor is one read as nothing alone: "qual tem mais cotas?" after the client's positions, "quanto foi por cota?" after what it received)
    const undecided = (first.kind === 'clarification' && !first.planner.accepted) || first.kind === 'unknown';
    // After a question of a measure family, its words read as the family's ("a que preço?", "lucro ou prejuízo?" after a sale).
    const inFamily = this.planner.familyOf(state?.last_question?.measure) !== null && first.kind !== 'tool';
    // A narrowing after a list of funds answered ("filtra só os de shopping") narrows that list, whatever tool its verb names.
    const narrowsList = !!state && state.last_list.length > 1 && state.last_kind !== 'tool' && this.planner.opensNarrowing(question);
    // ("algum com risco provável?" after a fund's processes keeps those rows to a value of their own)
    const filtersRows = !!state && this.planner.filtersPreviousRows(question, state.last_entity, state.last_params);
    // (and one read as the personal ledger right after the client's FII figures: "quanto paguei no total?" after a purchase)
    const ownFiiWords =
      first.kind === 'tool' && !!first.tool && this.planner.readsPersonalLedger(first.tool.name) && !!state?.last_question && this.planner.isOwnQuestion(state.last_question);
    const followUp =
      (first.elliptic || first.follow_up_candidate || undecided || inFamily || narrowsList || filtersRows || ownFiiWords || this.planner.asksWholeList(question)) &&
      state &&
      (state.last_entity || state.last_question);
    const plan = followUp ? await this.planner.plan(question, { ...followUpOptions(state), ownVoice, undecidedAlone: undecided }) : first;
    const concept = state && undecided ? this.conceptContinued(question, plan, state) : null;
    if (concept) return concept;
    return this.withToolArgs(question, this.withFunds(outsideTopic(question, plan), state), state);
  }

  /**
   * "e fundo imobiliário tem isso?" after what come-cotas is, "e se eu tivesse tido prejuízo, pago algo?" after a sale's tax: a
   * turn that decides nothing, no fund named, right after a concept or a tool that has one, asks the same topic; it is read
   * with the words it continues.
   */
  private conceptContinued(question: string, plan: PlanResponse, state: ConversationState): PlanResponse | null {
    const undecided = plan.kind === 'unknown' || (plan.kind === 'clarification' && !plan.planner.accepted);
    // (a tool's topic is said by its concept's words, not by the numbers its call was asked with)
    const topic =
      state.last_kind === 'concept' && state.last_asked
        ? this.planner.conceptSubject(state.last_asked)
        : state.last_kind === 'tool' && state.last_call
          ? this.planner.conceptOfTool(state.last_call.tool)
          : null;
    if (!undecided || !topic || plan.tickers_in_text.length > 0 || plan.unknown_tickers.length > 0) return null;
    // ("isso" is the topic: "e fundo imobiliário tem isso?" asks whether FIIs have come-cotas)
    const pointed = normalize(question).replace(/(?:^| )(?:isso|isto|disso|nisso|dele|dela|ele|ela)(?= |$)/g, ` ${topic}`);
    const asked = pointed.includes(topic) ? pointed.trim() : `${question} ${topic}`;
    const reason = `${plan.planner.reason}; continues the topic of the previous answer (${state.last_kind}): read with its words`;
    return { ...plan, kind: 'concept', intent: 'concept', entity: null, tool: null, question: null, asked, planner: { ...plan.planner, accepted: true, reason } };
  }

  /** The message continues the call waiting for an argument, or edits the last one, when it brings something that call can use. */
  private continuedCall(question: string, first: PlanResponse, state: ConversationState): PlanResponse | null {
    const renames = this.namesCalculationOfLastCall(question, state);
    const c: Continuation = toolContinuation(first, state, this.planner.opensToolEdit(question) || renames);
    const call = c?.mode === 'edit' ? state.last_call : state.pending_call;
    if (!c || !call || !this.policies.tools.tools[c.tool]) return null;
    // The tool is the message's own only when the planner read it as that tool: then it may be a whole new request.
    // (so it is when it names another calculation of the call it edits: its operation is the message's)
    const readAsIt = first.kind === 'tool' && first.tool?.name === c.tool ? first.tool : null;
    const editing = c.mode === 'edit';
    const own = !!readAsIt || (renames && editing);
    const args = this.statedArgs(question, c.tool, readAsIt?.args ?? {}, { expecting: editing ? [] : call.missing, editing: editing ? Object.keys(call.args) : [] });
    const added = Object.keys(args).filter((k) => editing || isAbsent(call.args[k]));
    // An edit that changes nothing, or a question of its own that answers none of the missing arguments, is not a continuation.
    if (editing && added.length === 0) return null;
    if (c.mode === 'try_complete' && !own && !added.some((k) => call.missing.includes(k))) return null;
    const tool: ToolReading = { name: c.tool, args, continuation: editing ? 'edit' : 'complete', own, context_ticker: this.conversationFund(state) };
    const reason = `${first.planner.reason}; continues the ${editing ? 'last' : 'pending'} call of ${c.tool}`;
    return { ...first, kind: 'tool', intent: c.tool, entity: null, tool, confirmation: null, question: null, plan: null, planner: { ...first.planner, reason } };
  }

  /**
   * "e o p/vp se o VP for 162,22?" right after a calculation: the message names another of a fund's ratios with a
   * number for it, so it edits that call (the price already stated is kept).
   */
  private namesCalculationOfLastCall(question: string, state: ConversationState): boolean {
    const call = state.last_call;
    if (!call || state.last_kind !== 'tool' || !this.policies.tools.tools[call.tool]?.args.operacao) return false;
    // (only a ratio named with its number: a bare rate, "e a 1% ao mês?", changes the rate of the same calculation)
    const ratio = extractRatioArgs(normalizeText(question));
    return !!ratio.operacao && ratio.operacao !== call.args.operacao && Object.keys(ratio).length > 1;
  }

  /** A tool read from the message gets every argument the message states. */
  private withToolArgs(question: string, plan: PlanResponse, state: ConversationState | null): PlanResponse {
    if (plan.kind !== 'tool' || !plan.tool || !this.policies.tools.tools[plan.tool.name]) return plan;
    const args = this.statedArgs(question, plan.tool.name, plan.tool.args, { expecting: [], editing: [] });
    return { ...plan, tool: { name: plan.tool.name, args, continuation: 'none', own: true, context_ticker: state ? this.conversationFund(state) : null } };
  }

  /** What the text states for the tool's contract, with the planner's own arguments on top. */
  private statedArgs(question: string, tool: string, own: Record<string, unknown>, ctx: { expecting: string[]; editing: string[] }): Record<string, unknown> {
    const contract = this.policies.tools.tools[tool];
    const fromText = extractArgs(question, contract.extractors, this.policies.tools, { today: todayInBrazil(this.now()), ...ctx });
    return present({ ...fromText, ...present(own) });
  }

  /** The conversation's one fund, for tools that take a ticker ("e o número mágico dele?"). */
  private conversationFund(state: ConversationState): string | null {
    return state.last_tickers.length === 1 ? state.last_tickers[0] : null;
  }

  /** The turn's funds: written in the question, or inherited under the contract's three layers. */
  private withFunds(plan: PlanResponse, state: ConversationState | null): PlanResponse {
    const entity = plan.kind === 'entity' || plan.kind === 'measure' ? plan.entity : null;
    const decided = resolveLastReference({
      policy: this.policies.context,
      entity,
      tickersInText: plan.tickers_in_text,
      unknownInText: plan.unknown_tickers,
      tickerSources: plan.ticker_sources,
      reference: state?.last_reference ?? null,
      currentTurn: state?.turn_index ?? 1,
      unansweredTurns: state?.unanswered_since_reference ?? 0,
    });
    // A list narrowed to the conversation's funds ("desses, só os de logística") keeps them: a scope, not a reference.
    const scoped = decided.tickers.length === 0 && plan.tickers_in_text.length === 0 && plan.params.tickers.length > 1;
    const params = scoped ? plan.params : { ...plan.params, ticker: decided.ticker, tickers: decided.tickers };
    // A fund measure asked of "esse fundo": its subject is the fund the conversation points at.
    const q = plan.question;
    const question = plan.kind === 'measure' && q && q.subjects.length === 0 ? { ...q, subjects: decided.tickers.map((id) => ({ kind: 'fund' as const, id })) } : q;
    return { ...plan, params, question, context: decided.context };
  }
}
