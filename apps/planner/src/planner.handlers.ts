import { Controller, Inject } from '@nestjs/common';
import { Events, PlannerSubjects, RequestOf } from '@cota/contracts';
import { RpcHandler, StepEvent } from '@cota/messaging';
import { TurnReader } from '@cota/planning';

/** Serves `cota.planner.plan.v2`: a question, read once against what its conversation holds, becomes the turn's reading. */
@Controller()
export class PlannerHandlers {
  constructor(@Inject(TurnReader) private readonly reader: TurnReader) {}

  @RpcHandler(PlannerSubjects.plan)
  @StepEvent(PlannerSubjects.plan, Events.plannerPlanned, {
    timings: (ms) => ({ plan: ms }),
    failure: () => ({ outcome: 'error', attributes: {} }),
    attributes: (_req, plan) => ({
      kind: plan.kind,
      intent: plan.intent,
      entity: plan.entity,
      accepted: plan.planner.accepted,
      score: plan.planner.score,
      gap: plan.planner.gap,
      llm_used: plan.planner.llm_used,
      tickers: plan.tickers_in_text.length,
    }),
  })
  plan(req: RequestOf<typeof PlannerSubjects.plan>) {
    return this.reader.read(req.question, req.state);
  }
}
