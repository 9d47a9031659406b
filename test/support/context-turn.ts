import { ContextSubjects, queryParams, SAMPLE_READING } from '@cota/contracts';
import { loadContextPolicy, resolveLastReference } from '@cota/dialogue';
import type { BusClient, Bus } from '@cota/messaging';

type Source = 'text' | 'context';
const policy = loadContextPolicy();

/** A question of the given entity and the answer about `tickers`, as the turn protocol sends them to the context service. */
export interface ContextTurn {
  client_id: string;
  conversation_id: string;
  request_id: string;
  question: string;
  entity: string | null;
  tickers?: string[];
  sources?: Source[];
  answer?: { text?: string; status?: 'ok' | 'error' | 'needs_clarification'; accepted?: boolean; tickers?: string[] };
}

/**
 * One turn through the context service as the pipeline runs it: open, the planner's fund decision
 * (the dialogue's last-reference rule on the state open returned), commit with the reading and outcome.
 */
export async function contextTurn(bus: Bus | BusClient, t: ContextTurn) {
  const caller = { request_id: t.request_id, client_id: t.client_id, conversation_id: t.conversation_id };
  const opened = await bus.call(ContextSubjects.open, { ...caller, question: t.question });
  const sources = t.sources ?? (t.entity && t.entity.startsWith('fii') ? ['text' as const, 'context' as const] : []);
  const decided = resolveLastReference({
    policy,
    entity: t.entity,
    tickersInText: t.tickers ?? [],
    tickerSources: sources,
    reference: opened.state.last_reference,
    currentTurn: opened.state.turn_index,
    unansweredTurns: opened.state.unanswered_since_reference,
  });
  const tickers = t.answer?.tickers ?? decided.tickers;
  const accepted = t.answer?.accepted ?? true;
  const reading = {
    ...SAMPLE_READING,
    kind: t.entity ? ('entity' as const) : ('smalltalk' as const),
    intent: t.entity ?? 'smalltalk',
    entity: t.entity,
    context: decided.context,
    planner: { ...SAMPLE_READING.planner, accepted },
  };
  const params = queryParams({ ticker: tickers.length === 1 ? tickers[0] : null, tickers });
  const committed = await bus.call(ContextSubjects.commit, {
    ...caller,
    turn_index: opened.state.turn_index,
    answer: t.answer?.text ?? `Resposta a ${caller.request_id} (${tickers.join(', ') || 'sem ticker'}).`,
    reading,
    outcome: { status: t.answer?.status ?? 'ok', problem: null, question: null, params, row_tickers: [], values: [], winner: null, also_questions: [] },
  });
  return { resolved: { ...decided, turn_index: opened.state.turn_index, memory: opened.memory, state: opened.state }, committed };
}
