import { MAIL_DEFAULTS } from '@cota/config';

/** How often and how patiently one message is retried. */
export interface RetryPolicy {
  /** Deliveries tried in all; after the last failure the message ends `failed`. */
  maxAttempts: number;
  /** Delay after the first failure; doubles after each further failure... */
  baseDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
  /** Up to this fraction of the delay is added at random, so replicas do not retry in lockstep. */
  jitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: MAIL_DEFAULTS.maxAttempts,
  baseDelayMs: MAIL_DEFAULTS.retryBaseMs,
  maxDelayMs: MAIL_DEFAULTS.retryMaxMs,
  jitter: 0.1,
};

/** Delay before the next try after `failedAttempts` (>= 1) failures: base · 2^(n−1), capped, plus jitter. */
export function retryDelayMs(failedAttempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(failedAttempts));
  const exp = Math.min(policy.baseDelayMs * 2 ** Math.min(n - 1, 40), policy.maxDelayMs);
  const jitter = Math.max(0, Math.min(1, policy.jitter)) * Math.max(0, Math.min(1, random()));
  return Math.round(exp * (1 + jitter));
}

/** What a failed send tells (nodemailer errors carry these). */
export interface DeliveryFailure {
  code?: string;
  responseCode?: number;
  command?: string;
  message?: string;
}

/**
 * A failure that retrying the same message would only repeat: the server refused this message or
 * its recipient for good (5xx, except 503 "bad sequence", on the envelope or the data). Connection
 * problems, timeouts, 4xx replies and authentication errors (a server or configuration problem,
 * which may be fixed meanwhile) are retried.
 */
export function isPermanentFailure(f: DeliveryFailure): boolean {
  const rc = f.responseCode;
  if (typeof rc !== 'number' || rc < 500 || rc >= 600 || rc === 503) return false;
  return f.code === 'EENVELOPE' || f.code === 'EMESSAGE';
}

export type RetryDecision = { action: 'retry'; delayMs: number } | { action: 'fail'; reason: 'permanent' | 'max_attempts' };

/** After the `attempts`-th try failed: try again later, or stop for good. */
export function decideAfterFailure(attempts: number, failure: DeliveryFailure, policy: RetryPolicy, random?: () => number): RetryDecision {
  if (isPermanentFailure(failure)) return { action: 'fail', reason: 'permanent' };
  if (attempts >= policy.maxAttempts) return { action: 'fail', reason: 'max_attempts' };
  return { action: 'retry', delayMs: retryDelayMs(attempts, policy, random) };
}

/** Code-level summary of a failure, safe for logs: no server text (it may quote the recipient). */
export function failureCode(f: DeliveryFailure): string {
  return [f.code ?? 'ERROR', f.responseCode, f.command].filter((x) => x !== undefined && x !== '').join(' ');
}

/** What `last_error` keeps: the code summary and the server's text, bounded. */
export function failureDetail(f: DeliveryFailure): string {
  const text = (f.message ?? '').replace(/\s+/g, ' ').trim();
  return `${failureCode(f)}${text ? `: ${text}` : ''}`.slice(0, 500);
}
