import { Controller, Inject, OnModuleInit } from '@nestjs/common';
import { CotaError, Events, ExecutorSubjects, RequestOf } from '@cota/contracts';
import { errorCode, RpcHandler, StepEvent } from '@cota/messaging';
import { INFRA, Infra, requireDatabase, runMigrations } from '@cota/service-kit';
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
import { EntityQueryService, MeasureQueryService } from '@cota/warehouse';
import { LedgerImports, LedgerTrades } from '@cota/ledger';
import { alertsMigrations, AlertStore } from '@cota/alerts';
import { OutboxDelivery } from './outbox-delivery';

/**
 * Serves `cota.executor.run-tool`: the tools the gate approved (daily briefing, report filter,
 * e-mail outbox, finance calculations). A controller of the executor's module, with
 * OutboxDelivery (SMTP delivery of the outbox) as a provider.
 */
@Controller()
export class ToolsHandlers implements OnModuleInit {
  private readonly tools: ToolExecutor;

  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    queries: EntityQueryService,
    measures: MeasureQueryService,
    delivery: OutboxDelivery,
    alerts: AlertStore,
  ) {
    const db = requireDatabase(infra);
    // The filter vocabulary is the gate's (one policy file); loaded once, at start-up.
    const policy = loadToolGatePolicy();
    this.tools = new ToolExecutor({
      reports: new PgReportRepository(db),
      // Queued e-mail is delivered by OutboxDelivery when SMTP_URL is set; each insert wakes it.
      mailer: new OutboxMailer(db, { delivers: delivery.enabled, onQueued: () => delivery.wake() }),
      clients: new PgClientDirectory(db),
      transactions: new PgTransactionRepository(db),
      ledger: { imports: new LedgerImports(db), trades: new LedgerTrades(db), db },
      alerts,
      // Reports read the warehouse through the executor's entity query service, in process: the same
      // catalog, SQL building and client scoping as every answer, without a bus round trip.
      warehouse: {
        query: (entity, params, ctx) => queries.query({ client_id: ctx.client_id, entity, params: queryParams(params) }),
      } satisfies WarehouseQuery,
      // The portfolio's return reads closes, income received and benchmarks through the measure catalog, in process.
      measures,
      vocabulary: policy.filters,
    });
  }

  /** Idempotent (recorded in cota_migrations): safe even when the executor definition also lists them. */
  async onModuleInit(): Promise<void> {
    await runMigrations(requireDatabase(this.infra), [...toolsMigrations, ...transactionsMigrations, ...alertsMigrations]);
  }

  @RpcHandler(ExecutorSubjects.runTool)
  @StepEvent(ExecutorSubjects.runTool, Events.executorToolRan, {
    attributes: (req) => ({ tool: req.name, preview: req.args.previa === true }),
    failure: (req, e) => ({ outcome: CotaError.is(e) && e.code !== 'INTERNAL' ? 'rejected' : 'error', attributes: { tool: req.name, error: errorCode(e) } }),
  })
  run(req: RequestOf<typeof ExecutorSubjects.runTool>) {
    return this.tools.run(req);
  }
}
