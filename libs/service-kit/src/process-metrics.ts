import { collectDefaultMetrics, Registry } from 'prom-client';

/** A metric every registry with the process metrics holds (prom-client's default set). */
const MARKER = 'process_cpu_user_seconds_total';

/**
 * The Node.js process metrics (CPU, memory, heap, event loop lag, GC, handles) under their standard
 * names (`process_*`, `nodejs_*`), the names stock dashboards and alerts expect: no prefix, no rename.
 * Which service a series belongs to comes from the scrape (the pod's `component` label,
 * deploy/observability/prometheus-scrape.yaml). Once per registry: an embedded process's seven services
 * share one.
 */
export function registerProcessMetrics(registry: Registry): void {
  if (registry.getSingleMetric(MARKER)) return;
  collectDefaultMetrics({ register: registry });
}
