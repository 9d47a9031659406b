import { Controller, Inject } from '@nestjs/common';
import { PrivacySubjects, RequestOf } from '@cota/contracts';
import { RpcHandler } from '@cota/messaging';
import { INFRA, Infra, requireDatabase } from '@cota/service-kit';
import { eraseToolsClientData } from '@cota/tools';
import { eraseWarehouseClient } from '@cota/warehouse';
import { eraseAlertsClientData } from '@cota/alerts';

/**
 * Serves `cota.executor.erase-client.v1`: the executor's part of a client erasure (tool reports,
 * e-mail outbox, personal transactions, alert rules and notifications, the warehouse's client tables), in one transaction, so a
 * failure leaves nothing half-erased and the orchestrator can simply retry.
 */
@Controller()
export class PrivacyHandlers {
  constructor(@Inject(INFRA) private readonly infra: Infra) {}

  @RpcHandler(PrivacySubjects.eraseExecutor)
  async erase(req: RequestOf<typeof PrivacySubjects.eraseExecutor>) {
    // The tool tables are created by ToolsHandlers at start-up; one not created yet holds nothing to erase.
    const db = requireDatabase(this.infra);
    return {
      erased: await db.transaction(async (tx) => [
        ...(await eraseToolsClientData(tx, req.client_id)),
        ...(await eraseAlertsClientData(tx, req.client_id)),
        ...(await eraseWarehouseClient(tx, req.client_id)),
      ]),
    };
  }
}
