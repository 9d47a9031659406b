import { DynamicModule, Module } from '@nestjs/common';
import { INFRA, Infra, Logger, requireDatabase } from '@cota/service-kit';
import { EntityQueryService, loadEntityCatalog, loadMeasureCatalog, MeasureQueryService, PgSqlRunner } from '@cota/warehouse';
import { ExecutorHandlers } from './executor.handlers';
import { OutboxDelivery } from './outbox-delivery';
import { PrivacyHandlers } from './privacy.handlers';
import { ToolsHandlers } from './tools.handlers';

const log = new Logger('executor');

/** Per-statement timeout of entity queries (ms); a request can never raise it. */
const STATEMENT_TIMEOUT_MS = Number(process.env.COTA_EXECUTOR_STATEMENT_TIMEOUT_MS ?? 5000);

@Module({})
export class ExecutorModule {
  static register(infra: Infra): DynamicModule {
    return {
      module: ExecutorModule,
      providers: [
        { provide: INFRA, useValue: infra },
        {
          provide: EntityQueryService,
          useFactory: () => {
            // Catalog loaded once, here: a bad policies/entities/*.yaml stops the service naming file and field.
            const catalog = loadEntityCatalog();
            if (!Number.isInteger(STATEMENT_TIMEOUT_MS) || STATEMENT_TIMEOUT_MS < 100) {
              throw new Error(`COTA_EXECUTOR_STATEMENT_TIMEOUT_MS must be an integer >= 100, got '${process.env.COTA_EXECUTOR_STATEMENT_TIMEOUT_MS}'`);
            }
            return new EntityQueryService(catalog, new PgSqlRunner(requireDatabase(infra)), {
              statementTimeoutMs: STATEMENT_TIMEOUT_MS,
              onSqlError: (e, entity) => log.error('entity query failed', { entity, error: e.message }),
            });
          },
        },
        {
          provide: MeasureQueryService,
          // policies/measures.yaml loaded once; a bad file stops the service naming file and field.
          useFactory: () => new MeasureQueryService(loadMeasureCatalog(), new PgSqlRunner(requireDatabase(infra)), {
            statementTimeoutMs: STATEMENT_TIMEOUT_MS,
            onSqlError: (e, subject) => log.error('measure query failed', { subject, error: e.message }),
          }),
        },
        OutboxDelivery,
      ],
      controllers: [ExecutorHandlers, ToolsHandlers, PrivacyHandlers],
    };
  }
}
