import { Controller, Inject } from '@nestjs/common';
import { Events, PlannerSubjects, RequestOf } from '@cota/contracts';
import { RpcHandler, StepEvent } from '@cota/messaging';
import { Planner } from '@cota/planning';

/** Serves `cota.planner.plan.v1`: a question (and the conversation's previous one) becomes a plan. */
@Controller()
export class PlannerHandlers {
  constructor(@Inject(Planner) private readonly planner: Planner) {}

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
    return this.planner.plan(req.question, {
      previousEntity: req.previous_entity,
      previousQuestion: req.previous_question,
      previousTickers: req.previous_tickers,
      earlierSubjects: req.earlier_subjects,
      earlierPeriod: req.earlier_period,
      previousParams: req.previous_params,
      previousFilters: req.previous_filters,
    });
  }
}
