import type { BulkheadPolicy } from 'cockatiel';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallGuard } from './resilience';

/** Breaker states as numbers (cota_breaker_state): what a dashboard plots and an alert compares. */
export const BREAKER_STATE_VALUE = { closed: 0, open: 1, 'half-open': 2, isolated: 3 } as const;

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Prometheus metrics of the bus for one registry: a service's own (its metrics port), or the one the
 * services of an embedded process share (the gateway's /metrics). Every series carries `service`.
 * Outcome is `ok` or the wire error code (TIMEOUT, UNAVAILABLE, INTERNAL, ...).
 */
export class BusMetrics {
  readonly handled: Histogram<'service' | 'subject' | 'outcome'>;
  readonly handleErrors: Counter<'service' | 'subject' | 'code'>;
  readonly inFlight: Gauge<'service' | 'subject'>;
  readonly shed: Counter<'service' | 'subject'>;
  readonly calls: Histogram<'service' | 'subject' | 'outcome'>;
  readonly breaker: Gauge<'service' | 'target'>;
  /** Messages waiting in a subscription's bulkhead queue (policies/fabric.yaml max_queue), read at scrape time. */
  readonly queued: Gauge<'service' | 'subject'>;
  /** For services with a cache: `metrics.cache.inc({service, cache, result: 'hit' | 'miss'})`. */
  readonly cache: Counter<'service' | 'cache' | 'result'>;
  /** For LLM clients that report usage: kind `prompt` or `completion`. */
  readonly llmTokens: Counter<'service' | 'kind'>;
  private readonly guards = new Map<string, CallGuard>();
  private readonly bulkheads = new Map<string, { service: string; subject: string; policy: BulkheadPolicy; maxQueue: number }>();

  constructor(readonly registry: Registry = new Registry()) {
    const registers = [registry];
    this.handled = new Histogram({
      name: 'cota_bus_handle_duration_seconds',
      help: 'Time to handle one request-reply message (queueing in the bulkhead included), by subject and outcome',
      labelNames: ['service', 'subject', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.handleErrors = new Counter({
      name: 'cota_bus_handle_errors_total',
      help: 'Handled messages answered with an error, by subject and error code',
      labelNames: ['service', 'subject', 'code'],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'cota_bus_in_flight',
      help: 'Messages being handled or waiting in the bulkhead queue, by subject',
      labelNames: ['service', 'subject'],
      registers,
    });
    this.shed = new Counter({
      name: 'cota_bus_shed_total',
      help: 'Messages turned away because the subscription was at capacity (UNAVAILABLE)',
      labelNames: ['service', 'subject'],
      registers,
    });
    this.calls = new Histogram({
      name: 'cota_bus_call_duration_seconds',
      help: 'Client side: time of one bus call (retries included), by subject and outcome',
      labelNames: ['service', 'subject', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const guards = this.guards;
    this.breaker = new Gauge({
      name: 'cota_breaker_state',
      help: 'Circuit breaker per target service of the calling bus: 0 closed, 1 open, 2 half-open, 3 isolated',
      labelNames: ['service', 'target'],
      registers,
      collect() {
        this.reset();
        for (const [service, guard] of guards) {
          for (const [target, state] of Object.entries(guard.states())) this.set({ service, target }, BREAKER_STATE_VALUE[state]);
        }
      },
    });
    const bulkheads = this.bulkheads;
    this.queued = new Gauge({
      name: 'cota_bus_queued',
      help: 'Messages waiting in the bulkhead queue of a subscription (not yet running), by subject',
      labelNames: ['service', 'subject'],
      registers,
      collect() {
        this.reset();
        for (const b of bulkheads.values()) this.set({ service: b.service, subject: b.subject }, b.maxQueue - b.policy.queueSlots);
      },
    });
    this.cache = new Counter({
      name: 'cota_cache_requests_total',
      help: 'Cache lookups by cache and result (hit or miss)',
      labelNames: ['service', 'cache', 'result'],
      registers,
    });
    this.llmTokens = new Counter({
      name: 'cota_llm_tokens_total',
      help: 'LLM tokens reported by the model API, by kind (prompt or completion)',
      labelNames: ['service', 'kind'],
      registers,
    });
  }

  /** Counts the tokens a model answer used, for `cota_llm_tokens_total`. */
  llmUsage(service: string): (usage: { prompt: number; completion: number }) => void {
    return (u) => {
      if (u.prompt) this.llmTokens.inc({ service, kind: 'prompt' }, u.prompt);
      if (u.completion) this.llmTokens.inc({ service, kind: 'completion' }, u.completion);
    };
  }

  /** Counts one cache lookup, for `cota_cache_requests_total`. */
  cacheLookup(service: string, cache: string): (hit: boolean) => void {
    return (hit) => this.cache.inc({ service, cache, result: hit ? 'hit' : 'miss' });
  }

  /** Reports how many messages wait in a subscription's bulkhead on every scrape. */
  watchBulkhead(service: string, subject: string, policy: BulkheadPolicy, maxQueue: number): void {
    this.bulkheads.set(`${service} ${subject}`, { service, subject, policy, maxQueue });
  }

  /** Reports the breakers of a calling bus (the gateway's) on every scrape. */
  watchBreakers(service: string, guard: CallGuard): void {
    this.guards.set(service, guard);
  }
}
