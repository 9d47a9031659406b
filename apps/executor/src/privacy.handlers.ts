import { Inject, Injectable } from '@nestjs/common';
import { PrivacySubjects } from '@cota/contracts';
import { TransportSubscription } from '@cota/messaging';
import { BusHandlers, INFRA, Infra, requireDatabase } from '@cota/service-kit';
import { eraseToolsClientData } from '@cota/tools';
import { eraseWarehouseClient } from '@cota/warehouse';

/**
 * Serves `cota.executor.erase-client.v1`: the executor's part of a client erasure (tool reports,
 * e-mail outbox, personal transactions, the warehouse's client tables), in one transaction, so a
 * failure leaves nothing half-erased and the orchestrator can simply retry.
 */
@Injectable()
export class PrivacyHandlers extends BusHandlers {
  constructor(@Inject(INFRA) infra: Infra) {
    super(infra);
  }

  protected subscribe(): TransportSubscription[] {
    // The tool tables are created by ToolsHandlers at start-up; one not created yet holds nothing to erase.
    const db = requireDatabase(this.infra);
    return [
      this.infra.bus.serve(PrivacySubjects.eraseExecutor, async (req) => ({
        erased: await db.transaction(async (tx) => [...(await eraseToolsClientData(tx, req.client_id)), ...(await eraseWarehouseClient(tx, req.client_id))]),
      })),
    ];
  }
}
