import { ContextSubjects, CotaError, Events, NarratorSubjects, PlannerSubjects, type PlanResponse } from '@cota/contracts';
import { BusClient, deadlinePassed, emitStep, since } from '@cota/messaging';
import { AskInput, AskOutput } from './ask-types';
import { act, callerOf } from './turn';
import { answerMeta, turnOutcome } from './turn/answer-meta';
import { narrateRequest } from './turn/narrate-request';
import { joinAnswers, joinResults } from './turn/compound-answer';

/** A part of a compound question is worded for its own words; only the first part streams. */
const partInput = (input: AskInput, reading: PlanResponse, index: number): AskInput =>
  reading.asked === undefined ? input : { ...input, question: reading.asked, stream: index === 0 ? input.stream : false };

/**
 * The turn protocol, the only orchestrator: open → plan → act → narrate → commit, five sequential
 * calls for every kind of turn. The conversation is read once (open), the question once (plan);
 * acting is one use case per kind (./turn). Service failures surface as CotaError
 * (UNAVAILABLE/TIMEOUT) for the gateway to map to 503/504; optional steps (RAG) degrade instead.
 */
export class AskPipeline {
  constructor(private readonly client: BusClient) {}

  async ask(input: AskInput): Promise<AskOutput> {
    const t0 = performance.now();
    const timings: Record<string, number> = {};
    const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      try {
        return await fn();
      } finally {
        timings[name] = since(t);
      }
    };
    const caller = callerOf(input);
    const opened = await step('open', () => this.client.call(ContextSubjects.open, { ...caller, question: input.question }));
    const reading = await step('plan', () => this.client.call(PlannerSubjects.plan, { ...caller, question: input.question, state: opened.state }));
    // A compound question ("o CNPJ e o P/VP do X") is acted on and worded part by part, in parallel.
    const readings = [reading, ...(reading.parts ?? [])];
    const actedParts = await step('act', () => Promise.all(readings.map((r) => act({ client: this.client, input, reading: r }))));
    const narratedParts = await step('narrate', () =>
      Promise.all(readings.map((r, i) => this.client.call(NarratorSubjects.narrate, narrateRequest(partInput(input, r, i), r, actedParts[i], opened.memory)))),
    );
    const acted = joinResults(actedParts);
    const narrated = joinAnswers(narratedParts);
    // Past the question's deadline the gateway answers 504: such a question must leave no committed turn.
    if (deadlinePassed()) throw new CotaError('TIMEOUT', 'the question passed its deadline before its turn was committed', { deadline: 'passed', step: 'commit' });
    // The commit is marked mustLand: the bus tries it again while the question has time. An answer whose
    // turn could not be recorded is not given (503/504): a 200 always has its turn in the history.
    const turnIndex = opened.state.turn_index;
    await step('commit', () => this.client.call(ContextSubjects.commit, { ...caller, turn_index: turnIndex, answer: narrated.answer, reading, outcome: turnOutcome(acted) }));
    timings.total = since(t0);
    emitStep(this.client.bus, Events.gatewayAsked, {
      ...caller,
      outcome: acted.status === 'error' ? 'error' : 'ok',
      timings_ms: timings,
      attributes: { kind: reading.kind, entity: reading.entity, status: acted.status, llm_used: narrated.narrator.llm_used },
    });
    return { status: acted.status, results: acted.results, answer: narrated.answer, meta: answerMeta(input.request_id, turnIndex, reading, acted, narrated, timings) };
  }
}
