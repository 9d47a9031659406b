import { CotaError, EraseClientRequest, ErasedStore, Events, PrivacySubjects, TelemetryEvent } from '@cota/contracts';
import { Bus, BusClient, InProcessTransport } from '@cota/messaging';
import { ClientErasure, erasureMessage } from './client-erasure';

const pgStore = (service: ErasedStore['service'], store: string, count: number): ErasedStore => ({ service, store, backend: 'postgres', count });

function setup(opts: { executorDown?: boolean; counts?: number } = {}) {
  const transport = new InProcessTransport();
  const bus = new Bus(transport, 'test');
  const calls: Array<{ service: string; req: EraseClientRequest }> = [];
  const events: TelemetryEvent[] = [];
  const n = opts.counts ?? 2;
  bus.serve(PrivacySubjects.fenceGateway, (req) => {
    calls.push({ service: 'gateway-fence', req });
    return { keys: 1, drained: true };
  });
  bus.serve(PrivacySubjects.eraseContext, (req) => {
    calls.push({ service: 'context', req });
    return { erased: [pgStore('context', 'conversation_turns', n)] };
  });
  if (!opts.executorDown) {
    bus.serve(PrivacySubjects.eraseExecutor, (req) => {
      calls.push({ service: 'executor', req });
      return { erased: [pgStore('executor', 'tool_reports', n)] };
    });
  }
  bus.serve(PrivacySubjects.eraseGateway, (req) => {
    calls.push({ service: 'gateway', req });
    return { erased: [pgStore('gateway', 'api_keys', n ? 1 : 0)] };
  });
  bus.listen('cota.events.>', (_s, p) => events.push(p as TelemetryEvent));
  const erasure = new ClientErasure(new BusClient(bus), { clock: () => Date.UTC(2026, 0, 2, 3, 4, 5), newReceiptId: () => 'erasure_test' });
  return { erasure, calls, events };
}

describe('ClientErasure', () => {
  it('fences the client first, asks every owner to erase it, keys last, and answers a receipt listing each store', async () => {
    const { erasure, calls, events } = setup();
    const receipt = await erasure.erase('cliente-1', 'client');
    expect(receipt).toEqual({
      receipt_id: 'erasure_test',
      client_id: 'cliente-1',
      requested_by: 'client',
      erased_at: '2026-01-02T03:04:05.000Z',
      erased: [
        { service: 'context', store: 'conversation_turns', backend: 'postgres', count: 2 },
        { service: 'executor', store: 'tool_reports', backend: 'postgres', count: 2 },
        { service: 'gateway', store: 'api_keys', backend: 'postgres', count: 1 },
      ],
      total: 5,
      message: erasureMessage(5),
    });
    expect(calls.map((c) => c.service)[0]).toBe('gateway-fence');
    expect(calls.map((c) => c.service).slice(-1)).toEqual(['gateway']);
    expect(calls.every((c) => c.req.client_id === 'cliente-1' && c.req.erasure_id === 'erasure_test')).toBe(true);
    await new Promise((r) => setImmediate(r));
    const ev = events.find((e) => e.event === 'client-erased');
    expect(ev).toMatchObject({ request_id: 'erasure_test', outcome: 'ok', attributes: { requested_by: 'client', total: 5 } });
    expect(JSON.stringify(ev)).not.toContain('cliente-1');
    expect(Events.gatewayClientErased.subject).toBe('cota.events.gateway.client-erased.v1');
  });

  it('says so plainly when there was nothing left (a repeated erasure)', async () => {
    const { erasure } = setup({ counts: 0 });
    const receipt = await erasure.erase('cliente-1', 'ops');
    expect(receipt.total).toBe(0);
    expect(receipt.message).toMatch(/Nada a apagar/);
  });

  it('keeps the keys when an owner is down, so the client can ask again, and names the service', async () => {
    const { erasure, calls } = setup({ executorDown: true });
    const error = await erasure.erase('cliente-1', 'client').catch((e) => e);
    expect(CotaError.is(error, 'UNAVAILABLE')).toBe(true);
    expect(error.service).toBe('executor');
    expect(calls.map((c) => c.service)).toEqual(['gateway-fence', 'context']);
  });

  it('refuses an empty client id', async () => {
    await expect(setup().erasure.erase('', 'ops')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
