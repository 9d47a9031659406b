import { z } from 'zod';
import { CotaError, defineRpc } from '@cota/contracts';
import { Bus } from './bus';
import { DEFAULT_FABRIC } from './fabric-policy';
import { currentCallScope, scopeFromHeaders, scopeToHeaders, withCallScope } from './call-scope';
import { InProcessTransport } from './in-process-transport';
import { BusMetrics } from './metrics';
import { parseTraceparent, startSpan, SpanKind, tracingEnabled, TRACEPARENT_HEADER } from './tracing';

const echo = defineRpc({
  subject: 'cota.test.traced.v1',
  service: 'executor',
  request: z.object({ fail: z.boolean() }),
  response: z.object({ traceparent: z.string().nullable() }),
});

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context in the call scope (tracing off: the default)', () => {
  let transport: InProcessTransport;
  let bus: Bus;
  let metrics: BusMetrics;

  beforeEach(() => {
    transport = new InProcessTransport();
    metrics = new BusMetrics();
    bus = new Bus(transport, 'executor', { metrics });
    bus.serve(echo, (req) => {
      if (req.fail) throw new CotaError('NOT_FOUND', 'nothing here');
      return { traceparent: currentCallScope().traceparent ?? null };
    });
  });
  afterEach(() => transport.drain());

  it('creates no span and adds no header when tracing is off', async () => {
    expect(tracingEnabled()).toBe(false);
    expect(startSpan('x', SpanKind.CLIENT, PARENT)).toBeNull();
    await expect(bus.call(echo, { fail: false })).resolves.toEqual({ traceparent: null });
  });

  it("passes an upstream traceparent through unchanged (a caller's trace survives a hop without tracing)", async () => {
    await expect(withCallScope({ traceparent: PARENT }, () => bus.call(echo, { fail: false }))).resolves.toEqual({ traceparent: PARENT });
  });

  it('carries traceparent as a header and reads back only valid values', () => {
    expect(scopeToHeaders({ traceparent: PARENT })).toEqual({ [TRACEPARENT_HEADER]: PARENT });
    expect(scopeFromHeaders({ [TRACEPARENT_HEADER]: PARENT })).toEqual({ traceparent: PARENT });
    for (const bad of ['', 'garbage', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', `${PARENT}-extra`]) {
      expect(parseTraceparent(bad)).toBeUndefined();
      expect(scopeFromHeaders({ [TRACEPARENT_HEADER]: bad })).toEqual({});
    }
  });

  it('measures handled messages and calls by subject and outcome', async () => {
    await bus.call(echo, { fail: false });
    await expect(bus.call(echo, { fail: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/cota_bus_handle_duration_seconds_count\{service="executor",subject="cota\.test\.traced\.v1",outcome="ok"\} 1/);
    expect(text).toMatch(/cota_bus_handle_duration_seconds_count\{service="executor",subject="cota\.test\.traced\.v1",outcome="NOT_FOUND"\} 1/);
    expect(text).toMatch(/cota_bus_handle_errors_total\{service="executor",subject="cota\.test\.traced\.v1",code="NOT_FOUND"\} 1/);
    expect(text).toMatch(/cota_bus_call_duration_seconds_count\{service="executor",subject="cota\.test\.traced\.v1",outcome="NOT_FOUND"\} 1/);
    expect(text).toMatch(/cota_bus_in_flight\{service="executor",subject="cota\.test\.traced\.v1"\} 0/);
  });
});

describe('breaker state metric', () => {
  it('reports each target of a calling bus: 0 closed, then 1 once its circuit opens', async () => {
    const transport = new InProcessTransport();
    const metrics = new BusMetrics();
    const policy = { ...DEFAULT_FABRIC.client, breaker: { consecutive_failures: 2, half_open_after_ms: 60_000 }, retry: { max_retries: 0, initial_delay_ms: 1, max_delay_ms: 1 } };
    const gateway = new Bus(transport, 'gateway', { calls: policy, metrics });
    const server = new Bus(transport, 'executor');
    const sub = server.serve(echo, () => ({ traceparent: null }));
    await gateway.call(echo, { fail: false });
    expect(await metrics.registry.metrics()).toMatch(/cota_breaker_state\{service="gateway",target="executor"\} 0/);
    sub.unsubscribe(); // nobody answers: UNAVAILABLE counts against the target
    for (let i = 0; i < 3; i++) await expect(gateway.call(echo, { fail: false })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(await metrics.registry.metrics()).toMatch(/cota_breaker_state\{service="gateway",target="executor"\} 1/);
    await transport.drain();
  });
});
