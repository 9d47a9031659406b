import { decideAfterFailure, DEFAULT_RETRY_POLICY, failureCode, failureDetail, isPermanentFailure, retryDelayMs, RetryPolicy } from './retry';

const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 10_000, jitter: 0 };

describe('retryDelayMs', () => {
  it('doubles from the base delay after each failure, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, policy))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('adds at most the jitter fraction, never less than the plain delay', () => {
    const p = { ...policy, jitter: 0.2 };
    expect(retryDelayMs(2, p, () => 0)).toBe(2000);
    expect(retryDelayMs(2, p, () => 0.5)).toBe(2200);
    expect(retryDelayMs(2, p, () => 1)).toBe(2400);
  });

  it('stays finite for absurd attempt counts', () => {
    expect(retryDelayMs(10_000, policy)).toBe(10_000);
    expect(retryDelayMs(0, policy)).toBe(1000);
  });

  it('defaults: a few tries over about an hour, then failed', () => {
    const p = { ...DEFAULT_RETRY_POLICY, jitter: 0 };
    const total = Array.from({ length: p.maxAttempts - 1 }, (_, i) => retryDelayMs(i + 1, p)).reduce((a, b) => a + b, 0);
    expect(p.maxAttempts).toBeGreaterThanOrEqual(3);
    expect(total).toBeGreaterThan(10 * 60_000);
    expect(total).toBeLessThan(3 * 60 * 60_000);
  });
});

describe('isPermanentFailure', () => {
  it.each([
    [{ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' }, true],
    [{ code: 'EMESSAGE', responseCode: 554, command: 'DATA' }, true],
    [{ code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' }, false],
    [{ code: 'EMESSAGE', responseCode: 503, command: 'DATA' }, false],
    [{ code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN' }, false],
    [{ code: 'ESOCKET' }, false],
    [{ code: 'ETIMEDOUT' }, false],
    [{}, false],
  ])('%j → %s', (failure, permanent) => {
    expect(isPermanentFailure(failure)).toBe(permanent);
  });
});

describe('decideAfterFailure', () => {
  it('retries a transient failure with the backoff delay until the last attempt, then fails', () => {
    const down = { code: 'ESOCKET' };
    expect(decideAfterFailure(1, down, policy)).toEqual({ action: 'retry', delayMs: 1000 });
    expect(decideAfterFailure(4, down, policy)).toEqual({ action: 'retry', delayMs: 8000 });
    expect(decideAfterFailure(5, down, policy)).toEqual({ action: 'fail', reason: 'max_attempts' });
    expect(decideAfterFailure(1, down, { ...policy, maxAttempts: 1 })).toEqual({ action: 'fail', reason: 'max_attempts' });
  });

  it('fails at once when the server refused the message for good', () => {
    expect(decideAfterFailure(1, { code: 'EENVELOPE', responseCode: 550 }, policy)).toEqual({ action: 'fail', reason: 'permanent' });
  });
});

describe('failure summaries', () => {
  const f = { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', message: 'Recipient command failed: 550 5.1.1 <ana@exemplo.com.br> unknown' };

  it('logs codes only: never the server text, which may quote the address', () => {
    expect(failureCode(f)).toBe('EENVELOPE 550 RCPT TO');
    expect(failureCode({})).toBe('ERROR');
  });

  it('keeps the server text, bounded, for last_error', () => {
    expect(failureDetail(f)).toBe('EENVELOPE 550 RCPT TO: Recipient command failed: 550 5.1.1 <ana@exemplo.com.br> unknown');
    expect(failureDetail({ message: 'x'.repeat(2000) })).toHaveLength(500);
  });
});
