import { Controller } from '@nestjs/common';
import { CotaError, Events, ExecutorSubjects, RequestOf } from '@cota/contracts';
import { errorCode, RpcHandler, StepEvent } from '@cota/messaging';
import { EntityQueryService, MeasureQueryService, PublicReadCache } from '@cota/warehouse';

/** A refused query (BAD_REQUEST) is the caller's mistake, not an incident. */
const failedQuery = (e: unknown) => (CotaError.is(e) && e.code === 'BAD_REQUEST' ? 'rejected' : 'error');

/** Serves catalog entity queries, measures of a structured question, and the list of known funds. */
@Controller()
export class ExecutorHandlers {
  constructor(
    private readonly queries: EntityQueryService,
    private readonly measures: MeasureQueryService,
    private readonly cache: PublicReadCache,
  ) {}

  @RpcHandler(ExecutorSubjects.query)
  @StepEvent(ExecutorSubjects.query, Events.executorQueried, {
    attributes: (_req, r) => ({ entity: r.entity, rows: r.row_count, truncated: r.truncated, agg: r.params.agg }),
    failure: (req, e) => ({ outcome: failedQuery(e), attributes: { entity: req.entity.slice(0, 64), error: errorCode(e) } }),
  })
  query(req: RequestOf<typeof ExecutorSubjects.query>) {
    return this.cache.query(req, () => this.queries.query(req));
  }

  @RpcHandler(ExecutorSubjects.measure)
  @StepEvent(ExecutorSubjects.measure, Events.executorQueried, {
    attributes: (_req, r) => ({ entity: r.entity, measure: r.measure, agg: r.agg, subjects: r.values.length }),
    failure: (req, e) => ({ outcome: failedQuery(e), attributes: { measure: String(req.question.measure).slice(0, 48), error: errorCode(e) } }),
  })
  measure(req: RequestOf<typeof ExecutorSubjects.measure>) {
    return this.cache.measure(req.question, () => this.measures.compute(req.question, req.client_id));
  }

  @RpcHandler(ExecutorSubjects.funds)
  async funds() {
    return { funds: await this.queries.funds() };
  }
}
