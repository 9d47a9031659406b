import {
  ContextSubjects,
  CotaError,
  Events,
  ExecutorSubjects,
  NarrateRequest,
  NarratorSubjects,
  PlannerSubjects,
  PlanResponse,
  QueryParams,
  QueryResult,
  RagMeta,
  RagSubjects,
  ToolGateSubjects,
  InvokeResponse,
  MeasureResult,
  StructuredQuestion,
  ExecutionPlan,
  PlanRun,
} from '@cota/contracts';
import { BusClient, deadlinePassed, emitStep, since } from '@cota/messaging';
import { AskInput, AskOutput, AskStatus } from './ask-types';
import { toolContinuation } from './tool-continuation';
import { runPlan } from './plan-runner';

/** `meta.plan`: the steps, where they came from, and what happened to each (no data rows). */
function planMeta(run: PlanRun) {
  return {
    goal: run.plan.goal,
    source: run.plan.source,
    shape: run.plan.synthesis.shape,
    steps: run.outcomes.map((o) => ({
      id: o.id,
      kind: o.kind,
      label: o.label,
      depends_on: run.plan.steps.find((s) => s.id === o.id)?.depends_on ?? [],
      status: o.status,
      reason: o.reason,
      ms: o.ms,
    })),
  };
}

/** What the narrator needs to know when the question cannot be answered as asked. */
type Problem = 'ticker_required' | 'unknown_ticker' | 'no_data' | 'not_understood' | 'generic' | null;

/**
 * The ask flow, the only orchestrator: plan → resolve context → (query ‖ retrieve) or tool →
 * narrate → commit. Sequential hops are kept to five; independent steps run in parallel.
 * Service failures surface as CotaError (UNAVAILABLE/TIMEOUT) for the gateway to map to 503/504;
 * optional steps (RAG) degrade instead of failing the question.
 */
export class AskPipeline {
  constructor(private readonly client: BusClient) {}

  async ask(input: AskInput): Promise<AskOutput> {
    const t0 = performance.now();
    const timings: Record<string, number> = {};
    const caller = { request_id: input.request_id, client_id: input.client_id, conversation_id: input.conversation_id };
    const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      try {
        return await fn();
      } finally {
        timings[name] = since(t);
      }
    };

    // The previous subject is read in parallel with planning (no extra hop); it is only used to
    // re-plan an elliptic follow-up such as "E o do XPML11?".
    const [first, previous] = await Promise.all([
      step('planner', () => this.client.call(PlannerSubjects.plan, { ...caller, question: input.question })),
      step('context_peek', () => this.client.call(ContextSubjects.peek, { client_id: input.client_id, conversation_id: input.conversation_id }).catch(() => null)),
    ]);
    let plan = first;
    // A tool call waiting for an argument, or the tool that just ran, may be what this message continues.
    let continued: InvokeResponse | null = null;
    const continuation = toolContinuation(first, previous, input.question);
    if (continuation) {
      // The tool is named only when the planner itself read this message as that tool: then it may be a
      // whole new request rather than a change of the last one.
      const own = first.kind === 'tool' && first.tool?.name === continuation.tool ? first.tool : null;
      const res = await step('tool_gate', () => this.invokeTool(input, caller, own, null, continuation.mode, previous));
      if (!res.declined) {
        continued = res;
        plan = { ...first, kind: 'tool', intent: continuation.tool, entity: null, tool: { name: continuation.tool, args: {} }, confirmation: null };
      }
    }
    if (continued) {
      // The message continued a tool call: nothing else to plan.
    } else if ((first.elliptic || first.follow_up_candidate) && previous && (previous.last_entity || previous.last_question)) {
      plan = await step('planner_followup', () =>
        this.client.call(PlannerSubjects.plan, {
          ...caller,
          question: input.question,
          previous_entity: previous.last_entity,
          previous_question: previous.last_question,
          previous_tickers: (previous.last_listed_tickers?.length ? previous.last_listed_tickers : previous.last_tickers).slice(0, 50),
          earlier_subjects: previous.earlier_subjects ?? [],
          earlier_period: previous.earlier_period ?? null,
          previous_params: previous.last_params,
          previous_filters: previous.last_filters,
        }),
      );
    }

    const routedEntity = plan.kind === 'entity' || plan.kind === 'measure' ? plan.entity : null;
    const ctx = await step('context_resolve', () =>
      this.client.call(ContextSubjects.resolve, {
        ...caller,
        question: input.question,
        intent: plan.intent,
        entity: routedEntity,
        tickers_in_text: plan.tickers_in_text,
        ticker_sources: plan.ticker_sources,
      }),
    );

    let status: AskStatus = 'ok';
    let problem: Problem = null;
    let data: QueryResult | null = null;
    let measure: MeasureResult | null = null;
    let question: StructuredQuestion | null = plan.question;
    let rag: RagMeta | null = null;
    let ragSkip = 'not_needed';
    let tool: InvokeResponse | null = null;
    let planRun: PlanRun | null = null;
    let params: QueryParams = { ...plan.params, ticker: ctx.ticker, tickers: ctx.tickers };
    let results: Record<string, unknown> = {};

    switch (plan.kind) {
      case 'entity': {
        if (!plan.planner.accepted) {
          status = 'needs_clarification';
          break;
        }
        if (plan.unknown_tickers.length > 0 && ctx.tickers.length === 0) {
          status = 'error';
          problem = 'unknown_ticker';
          break;
        }
        if (plan.ticker_required && ctx.tickers.length === 0) {
          status = 'needs_clarification';
          problem = 'ticker_required';
          break;
        }
        const entity = plan.entity as string;
        let refused: CotaError | null = null;
        [data, rag] = await Promise.all([
          step('executor', () =>
            this.client.call(ExecutorSubjects.query, { request_id: input.request_id, client_id: input.client_id, entity, params }).catch((e) => {
              // A filter or parameter the entity cannot serve is an answer ("não consegui..."), never a 5xx.
              if (!CotaError.is(e) || e.code !== 'BAD_REQUEST') throw e;
              refused = e;
              return null;
            }),
          ),
          step('rag', () => this.retrieve(input, plan, ctx.tickers)),
        ]);
        if (!data || refused) {
          status = 'error';
          problem = 'generic';
          break;
        }
        params = data.params;
        results = { [entity]: data.rows };
        if (data.row_count === 0) problem = 'no_data';
        break;
      }
      case 'measure': {
        if (plan.ticker_required && ctx.tickers.length === 0) {
          status = 'needs_clarification';
          problem = 'ticker_required';
          break;
        }
        // A fund measure asked of "esse fundo": the subject is the ticker the context resolved.
        const q = plan.question as StructuredQuestion;
        question = q.subjects.length === 0 ? { ...q, subjects: ctx.tickers.map((id) => ({ kind: 'fund' as const, id })) } : q;
        try {
          measure = await step('executor', () =>
            this.client.call(ExecutorSubjects.measure, { request_id: input.request_id, client_id: input.client_id, question: question as StructuredQuestion }),
          );
        } catch (e) {
          if (!CotaError.is(e) || e.code !== 'BAD_REQUEST') throw e;
          status = 'error';
          problem = 'generic';
          break;
        }
        results = { [plan.entity as string]: measure.values };
        if (measure.values.every((v) => v.value === null)) problem = 'no_data';
        break;
      }
      case 'concept': {
        rag = await step('rag', () =>
          this.client.call(RagSubjects.retrieve, { request_id: input.request_id, question: input.question, intent: 'concept', entity: null, tickers: ctx.tickers }),
        );
        results = { knowledge: rag.chunks.map((c) => ({ doc_id: c.doc_id, chunk_id: c.chunk_id, score: c.score })) };
        break;
      }
      case 'tool':
      case 'confirmation': {
        tool = continued ?? (await step('tool_gate', () => this.invokeTool(input, caller, plan.tool, plan.confirmation, 'none', previous)));
        status = tool.status;
        if (tool.tool?.status === 'needs_argument') problem = null;
        results = tool.result === undefined || tool.result === null ? {} : { tool: tool.result };
        break;
      }
      case 'plan': {
        // Several steps in waves (facts through the executor, tools through the gate), then one answer.
        const execution = plan.plan as ExecutionPlan;
        const outcomes = await step('plan', () =>
          runPlan(execution, {
            measure: (q) => this.client.call(ExecutorSubjects.measure, { request_id: input.request_id, client_id: input.client_id, question: q }),
            tool: (name, args) => this.client.call(ToolGateSubjects.invoke, { ...caller, question: '', tool: { name, args }, confirmation: null }),
          }),
        );
        planRun = { plan: execution, outcomes };
        results = Object.fromEntries(outcomes.map((o) => [o.id, o.measure?.values ?? o.tool?.result ?? null]));
        if (outcomes.every((o) => o.status !== 'ok')) problem = 'no_data';
        break;
      }
      case 'clarification':
        status = 'needs_clarification';
        break;
      case 'unknown':
        status = 'needs_clarification';
        problem = 'not_understood';
        break;
      case 'smalltalk':
        break;
    }
    if (!rag) ragSkip = plan.kind === 'entity' ? 'not_reached' : 'not_needed';

    const narrateReq: NarrateRequest = {
      request_id: input.request_id,
      question: input.question,
      nickname: input.nickname,
      status,
      kind: plan.kind,
      intent: plan.intent,
      entity: plan.entity,
      params: plan.kind === 'entity' || plan.kind === 'measure' ? params : null,
      smalltalk: plan.smalltalk,
      unknown_tickers: plan.unknown_tickers,
      candidates: plan.planner.candidates.map((c) => c.entity),
      problem,
      data,
      measure,
      question_spec: question,
      advice: plan.advice,
      tool: tool ? { meta: tool.tool, result: tool.result ?? null, message: tool.message } : null,
      plan: planRun,
      rag: rag?.enabled ? rag.chunks : [],
      memory: ctx.memory,
      context_used: ctx.context.last_reference_used,
      stream: input.stream ?? false,
    };
    const narrated = await step('narrator', () => this.client.call(NarratorSubjects.narrate, narrateReq));

    // An answer is "accepted" for the last reference only when the planner accepted an entity and it answered.
    const accepted = (plan.kind === 'entity' || plan.kind === 'measure') && plan.planner.accepted && status === 'ok' && problem === null;
    // What the follow-up may edit: the measure question, or an entity answer's reading when it named a measure.
    // The funds the query used, not the conversation's reference: a ranking across funds has none ("top 10 fiis por dy").
    if (plan.kind === 'entity' && question?.measure && question.subjects.length === 0 && params.tickers.length) {
      question = { ...question, subjects: params.tickers.map((id) => ({ kind: 'fund' as const, id })) };
    }
    // A comparison's funds are remembered best first, as the answer lists them ("e quanto eu recebi dele?").
    // Other answers about several funds ("me lista meus fiis com a quantidade de cotas") in the order shown.
    const byValue = !measure
      ? []
      : question?.compare
        ? [...measure.values].filter((v) => v.value !== null).sort((a, b) => (question!.compare === 'max' ? b.value! - a.value! : a.value! - b.value!))
        : measure.values;
    const listed =
      plan.kind === 'measure'
        ? [...new Set([...byValue.map((v) => v.subject), ...(question?.subjects ?? [])].filter((s) => s.kind === 'fund').map((s) => s.id))]
        : [...new Set((data?.rows ?? []).map((r) => r.ticker).filter((t): t is string => typeof t === 'string' && /^[A-Z]{4}1[1-9]$/.test(t)))].slice(0, 50);
    // A comparison with a winner is about the winner now ("qual deles tem o maior dy?" → "vale a pena comprar mais dele?").
    const winner = measure?.winner?.kind === 'fund' ? [measure.winner.id] : null;
    // A list across funds that came down to one fund ("qual fii de lajes tem o menor p/vp?") is about that fund.
    const onlyListed = listed.length === 1 && !plan.entity?.startsWith('client_') ? listed : [];
    const answeredTickers =
      plan.kind === 'measure'
        ? (winner ?? (question?.subjects ?? []).filter((s) => s.kind === 'fund').map((s) => s.id))
        : params.tickers.length
          ? params.tickers
          : params.ticker
            ? [params.ticker]
            : onlyListed;
    // Past the question's deadline the gateway answers 504: such a question must leave no committed turn.
    if (deadlinePassed()) throw new CotaError('TIMEOUT', 'the question passed its deadline before its turn was committed', { deadline: 'passed', step: 'context_commit' });
    // The commit is marked mustLand: the bus tries it again while the question has time. An answer whose
    // turn could not be recorded is not given (503/504): a 200 always has its turn in the history.
    await step('context_commit', () =>
      this.client.call(ContextSubjects.commit, {
        ...caller,
        turn_index: ctx.turn_index,
        answer: narrated.answer,
        status,
        intent: plan.intent,
        entity: plan.entity,
        accepted,
        tickers: accepted ? answeredTickers : [],
        filters: (plan.kind === 'entity' || plan.kind === 'measure') && status === 'ok' ? params.filters : {},
        // A question waiting for its fund ("de qual fundo?") is kept too: "o TRXF11" completes it.
        // A panel of series (no one measure: "compara com o ifix") is a question too: "e o BTLG11?" edits it.
        question: (accepted || problem === 'ticker_required') && question && (question.measure || plan.kind === 'measure') ? question : null,
        listed_tickers: accepted ? listed : [],
        params: plan.kind === 'entity' && accepted ? params : null,
        meta: { kind: plan.kind, problem },
      }),
    );

    timings.total = since(t0);
    emitStep(this.client.bus, Events.gatewayAsked, {
      request_id: input.request_id,
      client_id: input.client_id,
      conversation_id: input.conversation_id,
      outcome: status === 'error' ? 'error' : 'ok',
      timings_ms: timings,
      attributes: { kind: plan.kind, entity: plan.entity, status, accepted, llm_used: narrated.narrator.llm_used },
    });

    return {
      status,
      results,
      answer: narrated.answer,
      meta: {
        request_id: input.request_id,
        intent: plan.intent,
        entity: plan.entity,
        params: { ...params, ticker: params.ticker ?? (params.tickers.length === 1 ? params.tickers[0] : null) },
        context: { ...ctx.context, turn_index: ctx.turn_index },
        planner: { ...plan.planner, kind: plan.kind, question, follow_up: plan.follow_up },
        ...(tool?.tool ? { tool: tool.tool } : {}),
        ...(planRun ? { plan: planMeta(planRun) } : {}),
        rag: rag ?? { enabled: false, reason: ragSkip, chunks: [], total_chunks: 0 },
        narrator: narrated.narrator,
        timings_ms: timings,
      },
    };
  }

  private invokeTool(
    input: AskInput,
    caller: { request_id: string; client_id: string; conversation_id: string },
    tool: PlanResponse['tool'],
    confirmation: PlanResponse['confirmation'],
    continuation: 'none' | 'complete' | 'try_complete' | 'edit',
    previous: { last_tickers: string[] } | null,
  ): Promise<InvokeResponse> {
    return this.client.call(ToolGateSubjects.invoke, {
      ...caller,
      question: input.question,
      tool,
      confirmation,
      continuation,
      // The conversation's one fund, for tools that take a ticker ("e o número mágico dele?").
      context_ticker: previous?.last_tickers.length === 1 ? previous.last_tickers[0] : null,
    });
  }

  /** RAG is optional for entity answers: when it fails the answer still goes out, and meta says why. */
  private async retrieve(input: AskInput, plan: PlanResponse, tickers: string[]): Promise<RagMeta> {
    try {
      return await this.client.call(RagSubjects.retrieve, {
        request_id: input.request_id,
        question: input.question,
        intent: plan.intent,
        entity: plan.entity,
        tickers,
      });
    } catch (e) {
      return {
        enabled: false,
        reason: 'rag_unavailable',
        used_collections: [],
        chunks: [],
        total_chunks: 0,
        policy: null,
        error: CotaError.is(e) ? e.code : 'INTERNAL',
      };
    }
  }
}
