import { Inject, Injectable } from '@nestjs/common';
import { CotaError, Events, ExecutorSubjects } from '@cota/contracts';
import { emitStep, since, TransportSubscription } from '@cota/messaging';
import { BusHandlers, INFRA, Infra } from '@cota/service-kit';
import { EntityQueryService, MeasureQueryService } from '@cota/warehouse';

/** Serves `cota.executor.query` (catalog entity queries) and `cota.executor.funds` (known funds). */
/** Telemetry attributes: plain values only. */
type Attributes = Record<string, string | number | boolean | null>;

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
      this.infra.bus.serve(ExecutorSubjects.query, (req) =>
        this.observed(
          req.request_id,
          () => this.queries.query(req),
          (r) => ({ entity: r.entity, rows: r.row_count, truncated: r.truncated, agg: r.params.agg }),
          { entity: req.entity.slice(0, 64) },
        ),
      ),
      this.infra.bus.serve(ExecutorSubjects.measure, (req) =>
        this.observed(
          req.request_id,
          () => this.measures.compute(req.question, req.client_id),
          (r) => ({ entity: r.entity, measure: r.measure, agg: r.agg, subjects: r.values.length }),
          { measure: String(req.question.measure).slice(0, 48) },
        ),
      ),
      this.infra.bus.serve(ExecutorSubjects.funds, async () => ({ funds: await this.queries.funds() })),
    ];
  }

  /** Runs one query and publishes its telemetry without waiting: ok with what it found, or why it failed. */
  private async observed<T>(requestId: string, run: () => Promise<T>, found: (r: T) => Attributes, asked: Attributes): Promise<T> {
    const start = performance.now();
    try {
      const result = await run();
      emitStep(this.infra.bus, Events.executorQueried, { request_id: requestId, outcome: 'ok', timings_ms: { total: since(start) }, attributes: found(result) });
      return result;
    } catch (e) {
      emitStep(this.infra.bus, Events.executorQueried, {
        request_id: requestId,
        outcome: CotaError.is(e) && e.code === 'BAD_REQUEST' ? 'rejected' : 'error',
        timings_ms: { total: since(start) },
        attributes: { ...asked, error: CotaError.is(e) ? e.code : 'INTERNAL' },
      });
      throw e;
    }
  }
}
