import { AsyncLocalStorage } from 'node:async_hooks';
import { parseTraceparent, TRACEPARENT_HEADER } from './tracing';

/**
 * What travels with every request besides its payload: the absolute deadline of the question it
 * serves and the request id. Carried as NATS message headers (the in-process transport carries the
 * same map), and held in async-local storage while a handler runs, so the calls a handler makes
 * inherit them without any handler code passing them along.
 */
export type MessageHeaders = Readonly<Record<string, string>>;

/** Absolute deadline, epoch milliseconds (the services' clocks are assumed NTP-synchronised). */
export const DEADLINE_HEADER = 'Cota-Deadline';
export const REQUEST_ID_HEADER = 'Cota-Request-Id';

export interface CallScope {
  /** Epoch ms after which nobody waits for the answer any more. */
  readonly deadline?: number;
  readonly requestId?: string;
  /** W3C trace context of the span the running code belongs to (tracing.ts); absent when tracing is off upstream. */
  readonly traceparent?: string;
}

const storage = new AsyncLocalStorage<CallScope>();
const REQUEST_ID_RE = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Runs `fn` (and everything it awaits) inside a scope: bus calls made there carry its deadline and request id. */
export function withCallScope<T>(scope: CallScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the running code (empty outside any). */
export function currentCallScope(): CallScope {
  return storage.getStore() ?? {};
}

/** Milliseconds left before the current scope's deadline (negative when passed), or null without a deadline. */
export function timeLeftMs(now = Date.now()): number | null {
  const deadline = storage.getStore()?.deadline;
  return deadline === undefined ? null : deadline - now;
}

/** True when the current scope has a deadline and it has passed. */
export function deadlinePassed(now = Date.now()): boolean {
  const left = timeLeftMs(now);
  return left !== null && left <= 0;
}

export function scopeToHeaders(scope: CallScope): MessageHeaders {
  const h: Record<string, string> = {};
  if (scope.deadline !== undefined) h[DEADLINE_HEADER] = String(Math.floor(scope.deadline));
  if (scope.requestId !== undefined) h[REQUEST_ID_HEADER] = scope.requestId;
  if (scope.traceparent !== undefined) h[TRACEPARENT_HEADER] = scope.traceparent;
  return h;
}

/** Reads the scope back from headers; malformed values are ignored (never trusted, never thrown). */
export function scopeFromHeaders(headers: MessageHeaders | undefined): CallScope {
  const rawDeadline = headers?.[DEADLINE_HEADER];
  const deadline = rawDeadline !== undefined && /^\d{1,16}$/.test(rawDeadline) ? Number(rawDeadline) : undefined;
  const rawId = headers?.[REQUEST_ID_HEADER];
  const requestId = rawId !== undefined && REQUEST_ID_RE.test(rawId) ? rawId : undefined;
  const traceparent = parseTraceparent(headers?.[TRACEPARENT_HEADER]);
  return {
    ...(deadline !== undefined ? { deadline } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(traceparent !== undefined ? { traceparent } : {}),
  };
}

export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID_RE.test(value);
}
