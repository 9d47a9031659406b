import {
  BrokenCircuitError,
  bulkhead,
  BulkheadPolicy,
  circuitBreaker,
  CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  IBackoffFactory,
  IsolatedCircuitError,
  retry,
  RetryPolicy,
} from 'cockatiel';
import type { Logger } from 'pino';
import { CotaError, RpcDef } from '@cota/contracts';
import { currentCallScope } from './call-scope';
import { BulkheadLimits, ClientPolicy } from './fabric-policy';

/** What the bus logs through: a pino logger (service-kit's `createLogger`), one JSON line per entry. */
export type BusLog = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

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
  private readonly circuits = new Map<string, TargetCircuit>();
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
    const circuit = this.circuitFor(def.service);
    const once = async () => {
      try {
        return await circuit.execute(attempt);
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
      this.log?.warn(
        {
          subject: def.subject,
          ...('error' in r ? { error_code: CotaError.is(r.error) ? r.error.code : 'INTERNAL' } : {}),
          delay_ms: r.delay,
        },
        'retrying a write that must land',
      ),
    );
    return policy.execute(once);
  }

  /** State of each target's circuit (for tests and diagnostics). */
  states(): Record<string, 'closed' | 'open' | 'half-open' | 'isolated'> {
    const names = ['closed', 'open', 'half-open', 'isolated'] as const;
    return Object.fromEntries([...this.circuits].map(([target, c]) => [target, names[c.state]]));
  }

  private circuitFor(target: string): TargetCircuit {
    let c = this.circuits.get(target);
    if (!c) {
      c = new TargetCircuit(target, this.policy.breaker, this.log);
      this.circuits.set(target, c);
    }
    return c;
  }
}

/**
 * One target service's circuit breaker (cockatiel), fed only with failures that still say something
 * about the target. Calls are numbered as they go out; a failure counts only when its call went out
 * after the circuit last changed state (opened, half-open, closed) and after the latest call that
 * succeeded went out. A call stuck on a killed instance times out long after its replacement answered
 * and the circuit closed: that late timeout is old news and must not open the circuit again.
 */
class TargetCircuit {
  private readonly breaker: CircuitBreakerPolicy;
  /** Calls sent so far: the next call's number. */
  private sent = 0;
  /** Calls numbered below this one are stale: their failures no longer count. */
  private freshFrom = 0;
  /** Failures of stale calls, which the breaker's filter ignores (the caller still gets them as they are). */
  private readonly stale = new WeakSet<Error>();

  constructor(target: string, policy: ClientPolicy['breaker'], log?: BusLog) {
    this.breaker = circuitBreaker(
      handleWhen((e) => countsAgainstTarget(e) && !this.stale.has(e)),
      { halfOpenAfter: policy.half_open_after_ms, breaker: new ConsecutiveBreaker(policy.consecutive_failures) },
    );
    // Each change of state starts a new generation: what was in flight before it is stale. Not
    // onStateChange: cockatiel emits that after the half-open trial went out (the trial would be stale);
    // onHalfOpen comes before it.
    const renew = () => {
      this.freshFrom = this.sent;
    };
    this.breaker.onBreak(() => {
      renew();
      log?.warn({ target, half_open_after_ms: policy.half_open_after_ms }, 'circuit opened');
    });
    this.breaker.onHalfOpen(() => {
      renew();
      log?.info({ target }, 'circuit half-open');
    });
    this.breaker.onReset(() => {
      renew();
      log?.info({ target }, 'circuit closed');
    });
  }

  get state(): CircuitState {
    return this.breaker.state;
  }

  execute<T>(attempt: () => Promise<T>): Promise<T> {
    return this.breaker.execute(async () => {
      const n = this.sent++;
      try {
        const out = await attempt();
        this.freshFrom = Math.max(this.freshFrom, n); // calls sent before this one are older news
        return out;
      } catch (e) {
        if (n < this.freshFrom && e instanceof Error) this.stale.add(e);
        throw e;
      }
    });
  }
}

/** The serving side: one bulkhead (cockatiel) per subscription: bounded concurrency and a bounded queue. */
export function subscriptionBulkhead(limits: BulkheadLimits): BulkheadPolicy {
  return bulkhead(limits.max_concurrent, limits.max_queue);
}
