import { Inject, Injectable } from '@nestjs/common';
import { CotaError, Events, ExecutorSubjects } from '@cota/contracts';
import { emitStep, since, TransportSubscription } from '@cota/messaging';
import { BusHandlers, INFRA, Infra } from '@cota/service-kit';
import { EntityQueryService, MeasureQueryService } from '@cota/warehouse';

/** Serves `cota.executor.query` (catalog entity queries) and `cota.executor.funds` (known funds). */
@Injectable()
export class ExecutorHandlers extends BusHandlers {
  constructor(
    @Inject(INFRA) infra: Infra,
    private readonly queries: EntityQueryService,
    private readonly measures: MeasureQueryService,
  ) {
    super(infra);
  }

  protected subscribe(): TransportSubscription[] {
    return [
      this.infra.bus.serve(ExecutorSubjects.query, async (req) => {
        const start = performance.now();
        try {
          const result = await this.queries.query(req);
          emitStep(this.infra.bus, Events.executorQueried, {
            request_id: req.request_id,
            outcome: 'ok',
            timings_ms: { total: since(start) },
            attributes: { entity: result.entity, rows: result.row_count, truncated: result.truncated, agg: result.params.agg },
          });
          return result;
        } catch (e) {
          emitStep(this.infra.bus, Events.executorQueried, {
            request_id: req.request_id,
            outcome: CotaError.is(e) && e.code === 'BAD_REQUEST' ? 'rejected' : 'error',
            timings_ms: { total: since(start) },
            attributes: { entity: req.entity.slice(0, 64), error: CotaError.is(e) ? e.code : 'INTERNAL' },
          });
          throw e;
        }
      }),
      this.infra.bus.serve(ExecutorSubjects.measure, async (req) => {
        const start = performance.now();
        try {
          const result = await this.measures.compute(req.question, req.client_id);
          emitStep(this.infra.bus, Events.executorQueried, {
            request_id: req.request_id,
            outcome: 'ok',
            timings_ms: { total: since(start) },
            attributes: { entity: result.entity, measure: result.measure, agg: result.agg, subjects: result.values.length },
          });
          return result;
        } catch (e) {
          emitStep(this.infra.bus, Events.executorQueried, {
            request_id: req.request_id,
            outcome: CotaError.is(e) && e.code === 'BAD_REQUEST' ? 'rejected' : 'error',
            timings_ms: { total: since(start) },
            attributes: { measure: String(req.question.measure).slice(0, 48), error: CotaError.is(e) ? e.code : 'INTERNAL' },
          });
          throw e;
        }
      }),
      this.infra.bus.serve(ExecutorSubjects.funds, async () => ({ funds: await this.queries.funds() })),
    ];
  }
}
