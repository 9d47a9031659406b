import { DynamicModule, Module } from '@nestjs/common';
import { loadPolicy } from '@cota/config';
import { alertCatalog } from '@cota/catalog';
import { INFRA, Infra, createLogger, requireDatabase } from '@cota/service-kit';
import { EntityQueryService, loadEntityCatalog, loadMeasureCatalog, MeasureQueryService, PgSqlRunner, PublicReadCache, ReadCachePolicy } from '@cota/warehouse';
import { ExecutorHandlers } from './executor.handlers';
import { OutboxDelivery } from './outbox-delivery';
import { ReadCacheInvalidation } from './read-cache-invalidation';
import { AlertsEvaluation } from './alerts-evaluation';
import { NotificationsHandlers } from './notifications.handlers';
import { AlertStore, loadAlertQuota } from '@cota/alerts';
import { PrivacyHandlers } from './privacy.handlers';
import { ToolsHandlers } from './tools.handlers';
import { LedgerHandlers } from './ledger.handlers';

const log = createLogger('executor');

/** Per-statement timeout of entity queries (ms); a request can never raise it. */
const STATEMENT_TIMEOUT_MS = Number(process.env.COTA_EXECUTOR_STATEMENT_TIMEOUT_MS ?? 5000);

@Module({})
export class ExecutorModule {
  static register(infra: Infra): DynamicModule {
    // Catalogs and policies loaded once, here: a bad policies/entities/*.yaml, measures.yaml or
    // read_cache.yaml stops the service naming file and field.
    const entities = loadEntityCatalog();
    const measures = loadMeasureCatalog();
    alertCatalog(); // policies/alerts.yaml: the alerts' kinds and measures
    if (!Number.isInteger(STATEMENT_TIMEOUT_MS) || STATEMENT_TIMEOUT_MS < 100) {
      throw new Error(`COTA_EXECUTOR_STATEMENT_TIMEOUT_MS must be an integer >= 100, got '${process.env.COTA_EXECUTOR_STATEMENT_TIMEOUT_MS}'`);
    }
    return {
      module: ExecutorModule,
      providers: [
        { provide: INFRA, useValue: infra },
        {
          provide: EntityQueryService,
          useFactory: () =>
            new EntityQueryService(entities, new PgSqlRunner(requireDatabase(infra)), {
              statementTimeoutMs: STATEMENT_TIMEOUT_MS,
              onSqlError: (e, entity) => log.error({ entity, error: e.message }, 'entity query failed'),
            }),
        },
        {
          provide: MeasureQueryService,
          useFactory: () =>
            new MeasureQueryService(measures, new PgSqlRunner(requireDatabase(infra)), {
              statementTimeoutMs: STATEMENT_TIMEOUT_MS,
              onSqlError: (e, subject) => log.error({ subject, error: e.message }, 'measure query failed'),
            }),
        },
        {
          provide: PublicReadCache,
          useValue: new PublicReadCache(loadPolicy('read_cache', ReadCachePolicy), entities, measures, infra.metrics?.cacheLookup('executor', 'warehouse_reads') ?? null),
        },
        OutboxDelivery,
        ReadCacheInvalidation,
        AlertsEvaluation,
        // quotas.yaml `alerts` is validated here, at start-up.
        { provide: AlertStore, useFactory: () => new AlertStore(requireDatabase(infra), loadAlertQuota().max_rules_per_client) },
      ],
      controllers: [ExecutorHandlers, ToolsHandlers, PrivacyHandlers, LedgerHandlers, NotificationsHandlers],
    };
  }
}
