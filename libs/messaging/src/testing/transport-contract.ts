import { z } from 'zod';
import type { INestMicroservice } from '@nestjs/common';
import { ALL_RPCS, CONTRACT_SAMPLES, CotaError, defineRpc, Events, RequestOf, ResponseOf, RpcDef } from '@cota/contracts';
import { Bus } from '../bus';
import { currentCallScope, DEADLINE_HEADER, REQUEST_ID_HEADER, withCallScope } from '../call-scope';
import { DEFAULT_FABRIC, FabricPolicy } from '../fabric-policy';
import { Transport } from '../transport';
import { listenThroughNest, serveThroughNest } from './nest-serving';

const echo = defineRpc({
  subject: 'cota.test.echo.v1',
  service: 'planner',
  request: z.object({ text: z.string(), delayMs: z.number().default(0), fail: z.string().optional() }),
  response: z.object({ text: z.string(), served_by: z.string() }),
  timeoutMs: 2000,
});

/** What every case of the contract runs on: a fresh transport per test, and handlers served the way the suite serves them. */
interface Harness {
  readonly transport: Transport;
  serve<D extends RpcDef>(bus: Bus, def: D, handler: (request: RequestOf<D>) => Promise<ResponseOf<D>> | ResponseOf<D>): Promise<void>;
  listen(bus: Bus, pattern: string, handler: (subject: string, payload: unknown) => void): Promise<void>;
  /** The echo service under a label, failing as its request asks. */
  serveEcho(bus: Bus, label: string): Promise<void>;
}

/**
 * The contract every transport must honour. Run by a unit test on the in-process transport and
 * by an integration test on a real NATS server, so embedded mode behaves like production.
 */
export function describeTransportContract(
  name: string,
  open: () => Promise<Transport>,
  close: (t: Transport) => Promise<void>,
  /** 'nest': every handler is a decorated method served by the Nest strategy (BusServer), as in the services. */
  serving: 'bus' | 'nest' = 'bus',
): void {
  describe(`transport contract: ${name}${serving === 'nest' ? ' (Nest strategy)' : ''}`, () => {
    const h = harness(open, close, serving);
    callCases(h);
    eventAndDrainCases(h);
    deadlineCases(h);
    bulkheadCases(h);
  });
}

/** Registers the per-test transport and returns how the cases reach it. */
function harness(open: () => Promise<Transport>, close: (t: Transport) => Promise<void>, serving: 'bus' | 'nest'): Harness {
  let transport: Transport;
  let apps: INestMicroservice[] = [];
  beforeEach(async () => {
    transport = await open();
  });
  afterEach(async () => {
    await Promise.all(apps.map((a) => a.close()));
    apps = [];
    await close(transport);
  });
  // Served directly on the bus, or as a @RpcHandler method through the Nest strategy.
  const serve: Harness['serve'] = async (bus, def, handler) => {
    if (serving === 'nest') apps.push(await serveThroughNest(bus, def, handler));
    else bus.serve(def, handler);
  };
  const listen: Harness['listen'] = async (bus, pattern, handler) => {
    if (serving === 'nest') apps.push(await listenThroughNest(bus, pattern, handler));
    else bus.listen(pattern, handler);
  };
  const serveEcho = (bus: Bus, label: string) =>
    serve(bus, echo, async (req) => {
      if (req.delayMs) await new Promise((r) => setTimeout(r, req.delayMs));
      if (req.fail === 'typed') throw new CotaError('NOT_FOUND', 'nada encontrado', { what: 'x' });
      if (req.fail === 'crash') throw new Error('boom');
      if (req.fail === 'store') throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      return { text: req.text, served_by: label };
    });
  return {
    get transport() {
      return transport;
    },
    serve,
    listen,
    serveEcho,
  };
}

/** Requests and replies: validation, load sharing, typed failures, every contract subject. */
function callCases(h: Harness): void {
  it('round-trips a validated request and reply', async () => {
    const bus = new Bus(h.transport, 'test');
    await h.serveEcho(bus, 'a');
    await expect(bus.call(echo, { text: 'olá', delayMs: 0 })).resolves.toEqual({ text: 'olá', served_by: 'a' });
  });

  it('shares load between replicas of one queue group', async () => {
    const bus = new Bus(h.transport, 'test');
    await h.serveEcho(bus, 'a');
    await h.serveEcho(bus, 'b');
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) seen.add((await bus.call(echo, { text: String(i), delayMs: 0 })).served_by);
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  it('reports UNAVAILABLE when nobody serves the subject', async () => {
    const bus = new Bus(h.transport, 'test');
    await expect(bus.call(echo, { text: 'x', delayMs: 0 })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('reports TIMEOUT when the service is too slow', async () => {
    const bus = new Bus(h.transport, 'test');
    await h.serveEcho(bus, 'a');
    await expect(bus.call(echo, { text: 'x', delayMs: 500 }, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('carries typed errors across the wire, and turns crashes into INTERNAL', async () => {
    const bus = new Bus(h.transport, 'test');
    await h.serveEcho(bus, 'a');
    await expect(bus.call(echo, { text: 'x', delayMs: 0, fail: 'typed' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'nada encontrado',
      details: { what: 'x' },
    });
    await expect(bus.call(echo, { text: 'x', delayMs: 0, fail: 'crash' })).rejects.toMatchObject({ code: 'INTERNAL' });
    // A store that dropped the connection is a passing outage, not a bug.
    await expect(bus.call(echo, { text: 'x', delayMs: 0, fail: 'store' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    // The handler survived both failures.
    await expect(bus.call(echo, { text: 'ok', delayMs: 0 })).resolves.toMatchObject({ text: 'ok' });
  });

  it('rejects a malformed message with INVALID_MESSAGE naming the field, without crashing the handler', async () => {
    const bus = new Bus(h.transport, 'test');
    await h.serveEcho(bus, 'a');
    const raw = await h.transport.request(echo.subject, JSON.stringify({ text: 42 }), 1000);
    expect(JSON.parse(raw)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE', details: { field: 'text' } } });
    const notJson = await h.transport.request(echo.subject, '{nope', 1000);
    expect(JSON.parse(notJson)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
    // A caller's malformed request fails its call the same way (validated where it is received).
    await expect(bus.call(echo, { text: 7 as unknown as string, delayMs: 0 })).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
  });

  it('round-trips the sample of every contract subject', async () => {
    expect(CONTRACT_SAMPLES.map((s) => s.def.subject).sort()).toEqual(ALL_RPCS.map((d) => d.subject).sort());
    const bus = new Bus(h.transport, 'test');
    for (const s of CONTRACT_SAMPLES) await h.serve(bus, s.def, () => s.response as never);
    for (const s of CONTRACT_SAMPLES) {
      const reply = await bus.call(s.def, s.request as never);
      expect({ subject: s.def.subject, reply }).toEqual({ subject: s.def.subject, reply: s.def.response.parse(s.response) });
    }
  });
}

/** Events to wildcard listeners, and draining before close. */
function eventAndDrainCases(h: Harness): void {
  it('delivers events to wildcard listeners without blocking the publisher; a listener drops what breaks the contract', async () => {
    const bus = new Bus(h.transport, 'test');
    const ev = Events.plannerPlanned;
    const event = {
      request_id: 'r1',
      conversation_hash: null,
      service: 'planner',
      event: 'planned',
      outcome: 'ok' as const,
      timings_ms: { total: 1 },
      at: '2026-11-26T00:00:00.000Z',
      attributes: { n: 1 },
    };
    const got: Array<[string, unknown]> = [];
    await h.listen(bus, 'cota.events.>', (s, p) => got.push([s, p]));
    await h.listen(bus, 'cota.events.*.planned.v1', (s, p) => got.push([s, p]));
    await new Promise((r) => setTimeout(r, 50)); // subscription propagation on a real broker
    bus.emit(ev, { ...event, outcome: 'bad' as 'ok' }); // validated where received: dropped, not thrown
    bus.emit(ev, event);
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 30)); // time for a wrongly delivered event to show up
    expect(got).toEqual([
      [ev.subject, event],
      [ev.subject, event],
    ]);
  });

  it('drains: in-flight requests finish before the transport closes', async () => {
    const bus = new Bus(h.transport, 'test');
    await h.serveEcho(bus, 'a');
    const pending = bus.call(echo, { text: 'slow', delayMs: 200 });
    await new Promise((r) => setTimeout(r, 50));
    await h.transport.drain();
    await expect(pending).resolves.toMatchObject({ text: 'slow' });
  });
}

/** Deadlines carried across hops. */
function deadlineCases(h: Harness): void {
  describe('deadlines', () => {
    const probe = defineRpc({
      subject: 'cota.test.probe.v1',
      service: 'rag',
      request: z.object({ delayMs: z.number().default(0), nested: z.boolean().default(false) }),
      response: z.object({ deadline: z.number().nullable(), request_id: z.string().nullable(), nested: z.unknown() }),
      timeoutMs: 2000,
    });
    const serveProbe = (bus: Bus, runs: { n: number } = { n: 0 }) =>
      h.serve(bus, probe, async (req) => {
        runs.n++;
        if (req.delayMs) await new Promise((r) => setTimeout(r, req.delayMs));
        const scope = currentCallScope();
        // A call made by the handler inherits the deadline and request id it was given.
        const nested = req.nested ? await bus.call(probe, { delayMs: 0, nested: false }) : null;
        return { deadline: scope.deadline ?? null, request_id: scope.requestId ?? null, nested };
      });

    it('carries the deadline and request id in the message headers, to the handler and the calls it makes', async () => {
      const bus = new Bus(h.transport, 'test');
      await serveProbe(bus);
      const deadline = Date.now() + 5000;
      const reply = await withCallScope({ deadline, requestId: 'req-deadline-1' }, () => bus.call(probe, { delayMs: 0, nested: true }));
      expect(reply).toEqual({ deadline, request_id: 'req-deadline-1', nested: { deadline, request_id: 'req-deadline-1', nested: null } });
      // Outside any scope nothing is invented.
      await expect(bus.call(probe, { delayMs: 0, nested: false })).resolves.toEqual({ deadline: null, request_id: null, nested: null });
    });

    it('waits the time left when it is shorter than the subject timeout', async () => {
      const bus = new Bus(h.transport, 'test');
      await serveProbe(bus);
      const t = Date.now();
      await expect(withCallScope({ deadline: Date.now() + 150 }, () => bus.call(probe, { delayMs: 700, nested: false }))).rejects.toMatchObject({ code: 'TIMEOUT' });
      expect(Date.now() - t).toBeLessThan(600); // the time left, not the subject's 2000 ms
    });

    it('does not send a request whose deadline has passed', async () => {
      const bus = new Bus(h.transport, 'test');
      const runs = { n: 0 };
      await serveProbe(bus, runs);
      await expect(withCallScope({ deadline: Date.now() - 1 }, () => bus.call(probe, { delayMs: 0, nested: false }))).rejects.toMatchObject({
        code: 'TIMEOUT',
        details: { deadline: 'passed' },
      });
      expect(runs.n).toBe(0);
    });

    it('drops work that arrives past its deadline: TIMEOUT without running the handler', async () => {
      const bus = new Bus(h.transport, 'test');
      const runs = { n: 0 };
      await serveProbe(bus, runs);
      const raw = await h.transport.request(probe.subject, JSON.stringify({}), 1000, { [DEADLINE_HEADER]: String(Date.now() - 10), [REQUEST_ID_HEADER]: 'req-late-1' });
      expect(JSON.parse(raw)).toMatchObject({ ok: false, error: { code: 'TIMEOUT', details: { deadline: 'passed' } } });
      expect(runs.n).toBe(0);
    });
  });
}

/** Bulkheads: bounded concurrency and queue per subject. */
function bulkheadCases(h: Harness): void {
  describe('bulkheads', () => {
    const tight: FabricPolicy = { ...DEFAULT_FABRIC, bulkhead: { ...DEFAULT_FABRIC.bulkhead, default: { max_concurrent: 1, max_queue: 1 }, retry_after_s: 2 } };

    it('answers UNAVAILABLE at once when the queue is full, and serves what it admitted', async () => {
      const server = new Bus(h.transport, 'test', { fabric: tight });
      const runs = { n: 0 };
      await h.serve(server, echo, async (req) => {
        runs.n++;
        await new Promise((r) => setTimeout(r, req.delayMs));
        return { text: req.text, served_by: 'a' };
      });
      const client = new Bus(h.transport, 'test');
      const t = Date.now();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          client.call(echo, { text: String(i), delayMs: 300 }).then(
            () => ({ ok: true, ms: Date.now() - t }),
            (e: CotaError) => ({ ok: false, ms: Date.now() - t, code: e.code, details: e.details, service: e.service }),
          ),
        ),
      );
      const rejected = results.filter((r) => !r.ok);
      expect(results.filter((r) => r.ok)).toHaveLength(2); // one running, one queued
      expect(rejected).toHaveLength(4);
      for (const r of rejected) {
        expect(r).toMatchObject({ code: 'UNAVAILABLE', service: 'planner', details: { overloaded: true, retry_after_s: 2 } });
        expect(r.ms).toBeLessThan(250); // at once, not after the running work
      }
      expect(runs.n).toBe(2);
    });

    it('drops queued work whose deadline passed while it waited', async () => {
      const server = new Bus(h.transport, 'test', { fabric: tight });
      const ran: string[] = [];
      await h.serve(server, echo, async (req) => {
        ran.push(req.text);
        await new Promise((r) => setTimeout(r, req.delayMs));
        return { text: req.text, served_by: 'a' };
      });
      const client = new Bus(h.transport, 'test');
      const first = client.call(echo, { text: 'first', delayMs: 400 });
      await new Promise((r) => setTimeout(r, 30));
      await expect(withCallScope({ deadline: Date.now() + 100 }, () => client.call(echo, { text: 'late', delayMs: 0 }))).rejects.toMatchObject({ code: 'TIMEOUT' });
      await expect(first).resolves.toMatchObject({ text: 'first' });
      await new Promise((r) => setTimeout(r, 50));
      expect(ran).toEqual(['first']);
    });
  });
}
