import { Registry } from 'prom-client';
import { registerProcessMetrics } from './process-metrics';

describe('process metrics', () => {
  it('use the standard Node.js names, once per registry', async () => {
    const registry = new Registry();
    registerProcessMetrics(registry);
    registerProcessMetrics(registry); // a second service of the same (embedded) process
    const names = registry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name);
    for (const n of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes']) expect(names).toContain(n);
    expect(names.filter((n) => !/^(process|nodejs)_/.test(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });
});
