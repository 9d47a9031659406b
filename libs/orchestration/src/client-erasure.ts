import { randomUUID } from 'node:crypto';
import { CotaError, ErasedStore, ErasureReceipt, Events, PrivacySubjects } from '@cota/contracts';
import { BusClient, emitStep, since } from '@cota/messaging';

export type ErasureRequester = ErasureReceipt['requested_by'];

export interface ClientErasureOptions {
  clock?: () => number;
  newReceiptId?: () => string;
}

/** pt-BR summary of a receipt for the person. */
export function erasureMessage(total: number): string {
  if (total === 0) return 'Nada a apagar: o Cota não guarda mais nenhum dado deste cliente.';
  return `Apagamos todos os dados que o Cota guardava sobre este cliente (${total} ${total === 1 ? 'registro' : 'registros'}): conversas, contexto, relatórios, e-mails, lançamentos, carteira e chaves de API.`;
}

/**
 * Erasure of everything Cota holds about one client (issue 11), the one place it is orchestrated:
 * the gateways first fence the client's keys (no new request of the client gets in on any replica)
 * and wait for its running requests to end, so nothing is written for the client once its data is
 * erased; then each owner erases its own stores over the bus (context: conversation turns and hot
 * state; executor: tool tables and the warehouse's client tables; gateway: API keys, revoked on every
 * gateway at once, and rate-limit counters), and a receipt lists every store with its count. Used by
 * `DELETE /me/data`, `POST /ops/erase` and `npm run erase`.
 *
 * The keys are deleted last: when a step fails (a service down), the error names it, and the client
 * still holds a key that can ask for the erasure again (every step is idempotent; the fence lets
 * nothing else in until it expires).
 */
export class ClientErasure {
  private readonly clock: () => number;
  private readonly newReceiptId: () => string;

  constructor(
    private readonly client: BusClient,
    opts: ClientErasureOptions = {},
  ) {
    this.clock = opts.clock ?? Date.now;
    this.newReceiptId = opts.newReceiptId ?? (() => `erasure_${randomUUID()}`);
  }

  async erase(clientId: string, requestedBy: ErasureRequester): Promise<ErasureReceipt> {
    if (!clientId || clientId.length > 256) throw new CotaError('BAD_REQUEST', 'client_id must be 1 to 256 characters');
    const started = performance.now();
    const receiptId = this.newReceiptId();
    const req = { erasure_id: receiptId, client_id: clientId };
    const telemetry = (outcome: 'ok' | 'error', attributes: Record<string, string | number | boolean | null>) =>
      emitStep(this.client.bus, Events.gatewayClientErased, {
        request_id: receiptId,
        outcome,
        timings_ms: { total: since(started) },
        attributes: { requested_by: requestedBy, ...attributes },
      });

    let erased: ErasedStore[];
    try {
      await this.client.call(PrivacySubjects.fenceGateway, req);
      const data = await Promise.allSettled([this.client.call(PrivacySubjects.eraseContext, req), this.client.call(PrivacySubjects.eraseExecutor, req)]);
      const failed = data.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      const keys = await this.client.call(PrivacySubjects.eraseGateway, req);
      erased = [...data.flatMap((r) => (r.status === 'fulfilled' ? r.value.erased : [])), ...keys.erased];
    } catch (e) {
      telemetry('error', { error: CotaError.is(e) ? e.code : 'INTERNAL', service: CotaError.is(e) ? (e.service ?? null) : null });
      throw e;
    }
    const total = erased.reduce((n, s) => n + s.count, 0);
    telemetry('ok', { total, stores: erased.length });
    return {
      receipt_id: receiptId,
      client_id: clientId,
      requested_by: requestedBy,
      erased_at: new Date(this.clock()).toISOString(),
      erased,
      total,
      message: erasureMessage(total),
    };
  }
}
