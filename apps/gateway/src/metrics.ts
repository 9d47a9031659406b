import { Counter, Histogram, Registry } from 'prom-client';

/** Buckets of cota_ask_duration_seconds: the /ask latency objective (docs/OPERATIONS.md, 2.5 s) is one of them. */
export const ASK_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25];

/**
 * Prometheus metrics of one gateway instance, in the registry of its service (infra.metrics: the bus
 * metrics too; embedded, every service's), or a registry of its own, so tests can run several.
 */
export class GatewayMetrics {
  readonly http: Counter<'route' | 'status'>;
  readonly ask: Histogram<'status'>;
  readonly step: Histogram<'step'>;
  readonly feedback: Counter<'rating' | 'commented'>;

  constructor(readonly registry: Registry = new Registry()) {
    this.http = new Counter({
      name: 'cota_http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['route', 'status'],
      registers: [this.registry],
    });
    this.ask = new Histogram({
      name: 'cota_ask_duration_seconds',
      help: 'End-to-end /ask latency by outcome status',
      labelNames: ['status'],
      buckets: ASK_DURATION_BUCKETS,
      registers: [this.registry],
    });
    this.step = new Histogram({
      name: 'cota_ask_step_duration_seconds',
      help: 'Latency of each step of /ask (planner, context, executor, rag, narrator...)',
      labelNames: ['step'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
      registers: [this.registry],
    });
    this.feedback = new Counter({
      name: 'cota_feedback_total',
      help: 'Verdicts people gave on answers (👍 up, 👎 down), and whether they wrote a comment',
      labelNames: ['rating', 'commented'],
      registers: [this.registry],
    });
  }
}
