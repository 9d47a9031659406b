import { type PlanKind, TOO_MANY_FUNDS } from '@cota/contracts';
import { Acted, ActContext, nothingFetched } from './act';
import { answerConcept } from './answer-concept';
import { answerEntity } from './answer-entity';
import { answerMeasure } from './answer-measure';
import { runMultiStep } from './run-plan';
import { runTool } from './run-tool';

export { Acted, ActContext, Problem, callerOf } from './act';

/** How each kind of reading is acted on: one use case per kind. */
const ACTS: Record<PlanKind, (ctx: ActContext) => Promise<Acted>> = {
  entity: answerEntity,
  measure: answerMeasure,
  concept: answerConcept,
  tool: runTool,
  confirmation: runTool,
  plan: runMultiStep,
  clarification: async ({ reading }) => nothingFetched(reading, 'needs_clarification', reading.intent === TOO_MANY_FUNDS ? TOO_MANY_FUNDS : null),
  unknown: async ({ reading }) => nothingFetched(reading, 'needs_clarification', 'not_understood'),
  smalltalk: async ({ reading }) => nothingFetched(reading, 'ok', null),
};

/** Acts on the turn's reading by its kind. */
export function act(ctx: ActContext): Promise<Acted> {
  return ACTS[ctx.reading.kind](ctx);
}
