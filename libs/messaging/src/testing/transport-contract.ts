import { z } from 'zod';
import { ALL_RPCS, CONTRACT_SAMPLES, CotaError, defineEvent, defineRpc } from '@cota/contracts';
import { Bus } from '../bus';
import { Transport } from '../transport';

/**
 * The contract every transport must honour. Run by a unit test on the in-process transport and
 * by an integration test on a real NATS server, so embedded mode behaves like production.
 */
export function describeTransportContract(name: string, open: () => Promise<Transport>, close: (t: Transport) => Promise<void>): void {
  const echo = defineRpc({
    subject: 'cota.test.echo.v1',
    service: 'planner',
    request: z.object({ text: z.string(), delayMs: z.number().default(0), fail: z.string().optional() }),
    response: z.object({ text: z.string(), served_by: z.string() }),
    timeoutMs: 2000,
  });

  describe(`transport contract: ${name}`, () => {
    let transport: Transport;
    beforeEach(async () => {
      transport = await open();
    });
    afterEach(async () => {
      await close(transport);
    });

    const serveEcho = (bus: Bus, label: string) =>
      bus.serve(echo, async (req) => {
        if (req.delayMs) await new Promise((r) => setTimeout(r, req.delayMs));
        if (req.fail === 'typed') throw new CotaError('NOT_FOUND', 'nada encontrado', { what: 'x' });
        if (req.fail === 'crash') throw new Error('boom');
        return { text: req.text, served_by: label };
      });

    it('round-trips a validated request and reply', async () => {
      const bus = new Bus(transport, 'test');
      serveEcho(bus, 'a');
      await expect(bus.call(echo, { text: 'olá', delayMs: 0 })).resolves.toEqual({ text: 'olá', served_by: 'a' });
    });

    it('shares load between replicas of one queue group', async () => {
      const bus = new Bus(transport, 'test');
      serveEcho(bus, 'a');
      serveEcho(bus, 'b');
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) seen.add((await bus.call(echo, { text: String(i), delayMs: 0 })).served_by);
      expect([...seen].sort()).toEqual(['a', 'b']);
    });

    it('reports UNAVAILABLE when nobody serves the subject', async () => {
      const bus = new Bus(transport, 'test');
      await expect(bus.call(echo, { text: 'x', delayMs: 0 })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    });

    it('reports TIMEOUT when the service is too slow', async () => {
      const bus = new Bus(transport, 'test');
      serveEcho(bus, 'a');
      await expect(bus.call(echo, { text: 'x', delayMs: 500 }, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    });

    it('carries typed errors across the wire, and turns crashes into INTERNAL', async () => {
      const bus = new Bus(transport, 'test');
      serveEcho(bus, 'a');
      await expect(bus.call(echo, { text: 'x', delayMs: 0, fail: 'typed' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'nada encontrado',
        details: { what: 'x' },
      });
      await expect(bus.call(echo, { text: 'x', delayMs: 0, fail: 'crash' })).rejects.toMatchObject({ code: 'INTERNAL' });
      // The handler survived both failures.
      await expect(bus.call(echo, { text: 'ok', delayMs: 0 })).resolves.toMatchObject({ text: 'ok' });
    });

    it('rejects a malformed message with INVALID_MESSAGE naming the field, without crashing the handler', async () => {
      const bus = new Bus(transport, 'test');
      serveEcho(bus, 'a');
      const raw = await transport.request(echo.subject, JSON.stringify({ text: 42 }), 1000);
      expect(JSON.parse(raw)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE', details: { field: 'text' } } });
      const notJson = await transport.request(echo.subject, '{nope', 1000);
      expect(JSON.parse(notJson)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
      // Callers validate before sending, too.
      await expect(bus.call(echo, { text: 7 as unknown as string, delayMs: 0 })).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    });

    it('delivers events to wildcard listeners without blocking the publisher', async () => {
      const bus = new Bus(transport, 'test');
      const ev = defineEvent({ service: 'planner', event: 'probe', payload: z.object({ n: z.number() }) });
      const got: Array<[string, unknown]> = [];
      bus.listen('cota.events.>', (s, p) => got.push([s, p]));
      bus.listen('cota.events.*.probe.v1', (s, p) => got.push([s, p]));
      await new Promise((r) => setTimeout(r, 50)); // subscription propagation on a real broker
      bus.emit(ev, { n: 1 });
      bus.emit(ev, { n: 'bad' as unknown as number }); // invalid telemetry is dropped, not thrown
      for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(got).toEqual([
        ['cota.events.planner.probe.v1', { n: 1 }],
        ['cota.events.planner.probe.v1', { n: 1 }],
      ]);
    });

    it('drains: in-flight requests finish before the transport closes', async () => {
      const bus = new Bus(transport, 'test');
      serveEcho(bus, 'a');
      const pending = bus.call(echo, { text: 'slow', delayMs: 200 });
      await new Promise((r) => setTimeout(r, 50));
      await transport.drain();
      await expect(pending).resolves.toMatchObject({ text: 'slow' });
    });

    it('round-trips the sample of every contract subject', async () => {
      expect(CONTRACT_SAMPLES.map((s) => s.def.subject).sort()).toEqual(ALL_RPCS.map((d) => d.subject).sort());
      const bus = new Bus(transport, 'test');
      for (const s of CONTRACT_SAMPLES) bus.serve(s.def, () => s.response as never);
      for (const s of CONTRACT_SAMPLES) {
        const reply = await bus.call(s.def, s.request as never);
        expect({ subject: s.def.subject, reply }).toEqual({ subject: s.def.subject, reply: s.def.response.parse(s.response) });
      }
    });
  });
}
