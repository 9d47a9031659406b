import {
  BrokenCircuitError,
  bulkhead,
  BulkheadPolicy,
  circuitBreaker,
  CircuitBreakerPolicy,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  IBackoffFactory,
  IsolatedCircuitError,
  retry,
  RetryPolicy,
} from 'cockatiel';
import { CotaError, RpcDef } from '@cota/contracts';
import { currentCallScope } from './call-scope';
import { BulkheadLimits, ClientPolicy } from './fabric-policy';

/** What the bus logs through (service-kit's Logger fits): one JSON line per entry. */
export interface BusLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** A failure that says something about the target's health: it answered nothing in time, or nobody answered. */
export function countsAgainstTarget(e: unknown): boolean {
  if (!(e instanceof Error) || !CotaError.is(e)) return false;
  const d = e.details ?? {};
  if (e.code === 'TIMEOUT') return d.deadline !== 'passed'; // a question out of time before the call is not the target's fault
  // A busy service shedding load is healthy; a broken bus is everyone's outage; an open circuit is our own answer.
  return e.code === 'UNAVAILABLE' && !d.bus && !d.overloaded && !d.circuit;
}

/** Worth another attempt of an idempotent read: the target (or this replica of it) could not take it. */
export function retryable(e: unknown): boolean {
  if (!(e instanceof Error) || !CotaError.is(e, 'UNAVAILABLE')) return false;
  const d = e.details ?? {};
  return !d.bus && !d.circuit;
}

/** Worth another attempt of a write that must land: any failure to reach or hear the target, not the question's own deadline. */
export function transient(e: unknown): boolean {
  if (!(e instanceof Error) || !CotaError.is(e)) return false;
  if (e.code === 'TIMEOUT') return e.details?.deadline !== 'passed';
  return e.code === 'UNAVAILABLE';
}

/** Attempts of a write that must land when its caller has no deadline (a CLI, a test). */
const MUST_LAND_ATTEMPTS_WITHOUT_DEADLINE = 5;

/**
 * The caller's side (the gateway's bus client): one circuit breaker per target service (cockatiel),
 * and retries with backoff only for subjects the contracts mark idempotent. An open circuit answers
 * UNAVAILABLE at once (the gateway's 503 with Retry-After) instead of waiting out timeouts.
 */
export class CallGuard {
  private readonly breakers = new Map<string, CircuitBreakerPolicy>();
  private readonly retry: RetryPolicy | null;
  private readonly mustLandBackoff: IBackoffFactory<unknown>;

  constructor(
    private readonly policy: ClientPolicy,
    private readonly log?: BusLog,
  ) {
    this.retry =
      policy.retry.max_retries > 0
        ? retry(handleWhen(retryable), {
            maxAttempts: policy.retry.max_retries,
            backoff: new ExponentialBackoff({ initialDelay: policy.retry.initial_delay_ms, maxDelay: policy.retry.max_delay_ms }),
          })
        : null;
    this.mustLandBackoff = new ExponentialBackoff({ initialDelay: policy.must_land.initial_delay_ms, maxDelay: policy.must_land.max_delay_ms });
  }

  async run<T>(def: RpcDef, attempt: () => Promise<T>): Promise<T> {
    const breaker = this.breakerFor(def.service);
    const once = async () => {
      try {
        return await breaker.execute(attempt);
      } catch (e) {
        if (e instanceof BrokenCircuitError || e instanceof IsolatedCircuitError) {
          throw new CotaError(
            'UNAVAILABLE',
            `circuit open for ${def.service}: its recent calls failed; not calling ${def.subject}`,
            { subject: def.subject, circuit: 'open', retry_after_s: Math.max(1, Math.ceil(this.policy.breaker.half_open_after_ms / 1000)) },
            def.service,
          );
        }
        throw e;
      }
    };
    if (def.mustLand) return this.untilLanded(def, once);
    return def.idempotent && this.retry ? this.retry.execute(once) : once();
  }

  /** Tries a write that must land again after each transient failure while the question has time left. */
  private untilLanded<T>(def: RpcDef, once: () => Promise<T>): Promise<T> {
    const deadline = currentCallScope().deadline;
    const reserve = this.policy.must_land.reserve_ms;
    const policy = retry(
      handleWhen((e) => transient(e) && (deadline === undefined || deadline - Date.now() > reserve)),
      { maxAttempts: deadline === undefined ? MUST_LAND_ATTEMPTS_WITHOUT_DEADLINE : Number.MAX_SAFE_INTEGER, backoff: this.mustLandBackoff },
    );
    policy.onRetry((r) =>
      this.log?.warn('retrying a write that must land', {
        subject: def.subject,
        ...('error' in r ? { error_code: CotaError.is(r.error) ? r.error.code : 'INTERNAL' } : {}),
        delay_ms: r.delay,
      }),
    );
    return policy.execute(once);
  }

  /** State of each target's circuit (for tests and diagnostics). */
  states(): Record<string, 'closed' | 'open' | 'half-open' | 'isolated'> {
    const names = ['closed', 'open', 'half-open', 'isolated'] as const;
    return Object.fromEntries([...this.breakers].map(([target, b]) => [target, names[b.state]]));
  }

  private breakerFor(target: string): CircuitBreakerPolicy {
    let b = this.breakers.get(target);
    if (!b) {
      b = circuitBreaker(handleWhen(countsAgainstTarget), {
        halfOpenAfter: this.policy.breaker.half_open_after_ms,
        breaker: new ConsecutiveBreaker(this.policy.breaker.consecutive_failures),
      });
      b.onBreak(() => this.log?.warn('circuit opened', { target, half_open_after_ms: this.policy.breaker.half_open_after_ms }));
      b.onHalfOpen(() => this.log?.info('circuit half-open', { target }));
      b.onReset(() => this.log?.info('circuit closed', { target }));
      this.breakers.set(target, b);
    }
    return b;
  }
}

/** The serving side: one bulkhead (cockatiel) per subscription: bounded concurrency and a bounded queue. */
export function subscriptionBulkhead(limits: BulkheadLimits): BulkheadPolicy {
  return bulkhead(limits.max_concurrent, limits.max_queue);
}
