import type { NarrateRequest, NarratorMemory, PlanResponse } from '@cota/contracts';
import type { AskInput } from '../ask-types';
import type { Acted } from './act';

/** What the narrator is told: the reading, what acting on it found, and the conversation's memory. */
export function narrateRequest(input: AskInput, reading: PlanResponse, acted: Acted, memory: NarratorMemory): NarrateRequest {
  const answersData = reading.kind === 'entity' || reading.kind === 'measure';
  return {
    request_id: input.request_id,
    question: input.question,
    nickname: input.nickname,
    status: acted.status,
    kind: reading.kind,
    intent: reading.intent,
    entity: reading.entity,
    // (an unknown measure asked of a fund is said of that fund: "Não tenho EBITDA do HGLG11")
    params: answersData || reading.out_of_scope?.reason === 'measure' ? acted.params : null,
    smalltalk: reading.smalltalk,
    out_of_scope: reading.out_of_scope,
    unknown_tickers: reading.unknown_tickers,
    funds_named: reading.funds_named,
    candidates: reading.planner.candidates.map((c) => c.entity),
    problem: acted.problem,
    data: acted.data,
    measure: acted.measure,
    question_spec: acted.question,
    advice: reading.advice,
    tool: acted.tool ? { meta: acted.tool.tool, result: acted.tool.result ?? null, message: acted.tool.message } : null,
    plan: acted.planRun,
    rag: acted.rag?.enabled ? acted.rag.chunks : [],
    memory,
    context_used: reading.context?.last_reference_used ?? false,
    stream: input.stream ?? false,
  };
}
