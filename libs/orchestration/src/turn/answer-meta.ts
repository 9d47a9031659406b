import type { NarrateResponse, PlanResponse, PlanRun, TurnOutcome } from '@cota/contracts';
import type { AskMeta } from '../ask-types';
import type { Acted } from './act';

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

/** What the turn's answer found, for the conversation to decide what the turn leaves behind. */
export function turnOutcome(acted: Acted): TurnOutcome {
  return {
    status: acted.status,
    problem: acted.problem,
    question: acted.question,
    params: acted.params,
    // (a client's figure over the whole portfolio: the funds its rows came from)
    row_tickers: [...(acted.data?.rows ?? []).map((r) => r.ticker), ...(acted.measure?.values ?? []).flatMap((v) => v.funds)]
      .filter((t): t is string => typeof t === 'string' && t.length <= 16)
      .slice(0, 1000),
    values: (acted.measure?.values ?? []).slice(0, 1000).map((v) => ({ subject: v.subject, value: v.value, date: v.date?.slice(0, 10) ?? null })),
    winner: acted.measure?.winner ?? null,
    also_questions: (acted.alsoQuestions ?? []).slice(0, 3),
  };
}

/** The contract's `meta`: how the turn was read, what it used, and how long each step took. */
export function answerMeta(requestId: string, turnIndex: number, reading: PlanResponse, acted: Acted, narrated: NarrateResponse, timings: Record<string, number>): AskMeta {
  const { params } = acted;
  const ragSkip = reading.kind === 'entity' ? 'not_reached' : 'not_needed';
  return {
    request_id: requestId,
    intent: reading.intent,
    entity: reading.entity,
    params: { ...params, ticker: params.ticker ?? (params.tickers.length === 1 ? params.tickers[0] : null) },
    context: { ...(reading.context ?? { last_reference_used: false, reason: 'not_read' }), turn_index: turnIndex },
    planner: { ...reading.planner, kind: reading.kind, question: acted.question, follow_up: reading.follow_up },
    ...(acted.tool?.tool ? { tool: acted.tool.tool } : {}),
    ...(acted.planRun ? { plan: planMeta(acted.planRun) } : {}),
    rag: acted.rag ?? { enabled: false, reason: ragSkip, chunks: [], total_chunks: 0 },
    narrator: narrated.narrator,
    timings_ms: timings,
  };
}
