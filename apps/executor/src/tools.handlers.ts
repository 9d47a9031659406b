import { Inject, Injectable } from '@nestjs/common';
import { CotaError, Events, ExecutorSubjects } from '@cota/contracts';
import { emitStep, since, TransportSubscription } from '@cota/messaging';
import { BusHandlers, INFRA, Infra, requireDatabase, runMigrations } from '@cota/service-kit';
import { loadToolGatePolicy } from '@cota/tool-gating';
import {
  OutboxMailer,
  PgClientDirectory,
  PgReportRepository,
  PgTransactionRepository,
  queryParams,
  ToolExecutor,
  toolsMigrations,
  transactionsMigrations,
  WarehouseQuery,
} from '@cota/tools';
import { EntityQueryService } from '@cota/warehouse';
import { OutboxDelivery } from './outbox-delivery';

/**
 * Serves `cota.executor.run-tool`: the tools the gate approved (daily briefing, report filter,
 * e-mail outbox, finance calculations). Listed as a provider by the executor's module, with
 * OutboxDelivery (SMTP delivery of the outbox).
 */
@Injectable()
export class ToolsHandlers extends BusHandlers {
  private readonly tools: ToolExecutor;

  constructor(
    @Inject(INFRA) infra: Infra,
    queries: EntityQueryService,
    delivery: OutboxDelivery,
  ) {
    super(infra);
    const db = requireDatabase(infra);
    // The filter vocabulary is the gate's (one policy file); loaded once, at start-up.
    const policy = loadToolGatePolicy();
    this.tools = new ToolExecutor({
      reports: new PgReportRepository(db),
      // Queued e-mail is delivered by OutboxDelivery when SMTP_URL is set; each insert wakes it.
      mailer: new OutboxMailer(db, { delivers: delivery.enabled, onQueued: () => delivery.wake() }),
      clients: new PgClientDirectory(db),
      transactions: new PgTransactionRepository(db),
      // Reports read the warehouse through the executor's entity query service, in process: the same
      // catalog, SQL building and client scoping as every answer, without a bus round trip.
      warehouse: {
        query: (entity, params, ctx) => queries.query({ client_id: ctx.client_id, entity, params: queryParams(params) }),
      } satisfies WarehouseQuery,
      vocabulary: policy.filters,
    });
  }

  protected async subscribe(): Promise<TransportSubscription[]> {
    // Idempotent (recorded in cota_migrations): safe even when the executor definition also lists them.
    await runMigrations(requireDatabase(this.infra), [...toolsMigrations, ...transactionsMigrations]);
    return [
      this.infra.bus.serve(ExecutorSubjects.runTool, async (req) => {
        const start = performance.now();
        const ids = { request_id: req.request_id, client_id: req.client_id, conversation_id: req.conversation_id };
        try {
          const res = await this.tools.run(req);
          emitStep(this.infra.bus, Events.executorToolRan, {
            ...ids,
            outcome: 'ok',
            timings_ms: { total: since(start) },
            attributes: { tool: req.name, preview: req.args.previa === true },
          });
          return res;
        } catch (e) {
          emitStep(this.infra.bus, Events.executorToolRan, {
            ...ids,
            outcome: CotaError.is(e) && e.code !== 'INTERNAL' ? 'rejected' : 'error',
            timings_ms: { total: since(start) },
            attributes: { tool: req.name, error: CotaError.is(e) ? e.code : 'INTERNAL' },
          });
          throw e;
        }
      }),
    ];
  }
}
