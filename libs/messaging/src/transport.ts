import type { MessageHeaders } from './call-scope';

/**
 * The wire underneath the bus. Two implementations pass the same contract tests:
 * NATS (production, one process per service) and in-process (embedded mode).
 * Payloads are opaque strings here; the bus owns encoding and validation.
 */
export interface TransportSubscription {
  unsubscribe(): void;
}

export type RequestHandler = (data: string, headers: MessageHeaders) => Promise<string>;
export type EventHandler = (subject: string, data: string) => void;

export interface Transport {
  readonly name: 'nats' | 'in-process';
  /**
   * Request-reply. Rejects with CotaError UNAVAILABLE when nobody serves the subject, TIMEOUT after timeoutMs.
   * `headers` reach the handler as they were sent (NATS message headers; the same map in-process).
   */
  request(subject: string, data: string, timeoutMs: number, headers?: MessageHeaders): Promise<string>;
  /** Serves a subject inside a queue group: replicas with the same queue share the load. */
  serve(subject: string, queue: string, handler: RequestHandler): TransportSubscription;
  /** Fire-and-forget; never throws. */
  publish(subject: string, data: string): void;
  /** Subscribes to a subject pattern (NATS wildcards `*` and `>`). */
  subscribe(pattern: string, handler: EventHandler): TransportSubscription;
  isConnected(): boolean;
  /** Round trip to the broker (or 0 in-process). Rejects when it is not reachable. */
  ping(): Promise<number>;
  /** Stops taking new messages, finishes in-flight ones, then closes. */
  drain(): Promise<void>;
}

/** NATS subject wildcard matching: `*` one token, `>` the rest. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}
