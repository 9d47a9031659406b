import { Inject, Injectable } from '@nestjs/common';
import { Events, PlannerSubjects } from '@cota/contracts';
import { emitStep, since, TransportSubscription } from '@cota/messaging';
import { Planner } from '@cota/planning';
import { BusHandlers, HealthCheck, INFRA, Infra } from '@cota/service-kit';
import { FundListLoader } from './fund-list.loader';

@Injectable()
export class PlannerHandlers extends BusHandlers {
  constructor(
    @Inject(INFRA) infra: Infra,
    @Inject(Planner) private readonly planner: Planner,
    @Inject(FundListLoader) private readonly funds: FundListLoader,
  ) {
    super(infra);
  }

  protected subscribe(): TransportSubscription[] {
    this.funds.start();
    return [
      this.infra.bus.serve(PlannerSubjects.plan, async (req) => {
        const start = performance.now();
        const step = { request_id: req.request_id, client_id: req.client_id, conversation_id: req.conversation_id };
        try {
          const plan = await this.planner.plan(req.question, { previousEntity: req.previous_entity, previousQuestion: req.previous_question, previousTickers: req.previous_tickers });
          emitStep(this.infra.bus, Events.plannerPlanned, {
            ...step,
            outcome: 'ok',
            timings_ms: { plan: since(start) },
            attributes: {
              kind: plan.kind,
              intent: plan.intent,
              entity: plan.entity,
              accepted: plan.planner.accepted,
              score: plan.planner.score,
              gap: plan.planner.gap,
              llm_used: plan.planner.llm_used,
              tickers: plan.tickers_in_text.length,
              fund_list: this.planner.fundsLoaded,
            },
          });
          return plan;
        } catch (e) {
          emitStep(this.infra.bus, Events.plannerPlanned, { ...step, outcome: 'error', timings_ms: { plan: since(start) } });
          throw e;
        }
      }),
    ];
  }

  protected override healthChecks(): Record<string, HealthCheck> {
    return {
      funds: async () => {
        if (!this.funds.loaded) throw new Error('fund list not loaded yet (tickers recognised by pattern only)');
      },
    };
  }

  override onApplicationShutdown(): void {
    this.funds.stop();
    super.onApplicationShutdown();
  }
}
