import { z } from 'zod';
import { defineRpc } from '@cota/contracts';
import { Bus } from './bus';
import { withCallScope } from './call-scope';
import { DEFAULT_FABRIC } from './fabric-policy';
import { InProcessTransport } from './in-process-transport';
import { traceLogFields } from './log-fields';
import { BusMetrics } from './metrics';
import { isTracedSubject } from './tracing';

const slow = defineRpc({ subject: 'cota.test.slow.v1', service: 'executor', request: z.object({}), response: z.object({}) });

describe('cota_bus_queued: messages waiting in a bulkhead', () => {
  it('counts the messages queued behind the running ones, and none once they ran', async () => {
    const transport = new InProcessTransport();
    const metrics = new BusMetrics();
    const fabric = { ...DEFAULT_FABRIC, bulkhead: { ...DEFAULT_FABRIC.bulkhead, default: { max_concurrent: 1, max_queue: 5 } } };
    const bus = new Bus(transport, 'executor', { metrics, fabric });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    bus.serve(slow, async () => {
      await gate;
      return {};
    });
    const calls = [1, 2, 3].map(() => bus.call(slow, {}));
    await new Promise((r) => setTimeout(r, 20));
    expect(await metrics.registry.metrics()).toMatch(/cota_bus_queued\{service="executor",subject="cota\.test\.slow\.v1"\} 2/);
    release();
    await Promise.all(calls);
    expect(await metrics.registry.metrics()).toMatch(/cota_bus_queued\{service="executor",subject="cota\.test\.slow\.v1"\} 0/);
    await transport.drain();
  });
});

describe('trace fields of a log line', () => {
  it('are the running trace context, and absent outside any', () => {
    expect(traceLogFields()).toEqual({});
    const fields = withCallScope({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }, () => traceLogFields());
    expect(fields).toEqual({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' });
  });
});

describe('untraced subjects', () => {
  it('health probes make no trace; every other subject does', () => {
    expect(isTracedSubject('cota.planner.health.v1')).toBe(false);
    expect(isTracedSubject('cota.planner.plan.v2')).toBe(true);
  });
});
