import { CotaError } from '@cota/contracts';
import { toHttpError } from './http-error';

describe('toHttpError (the fabric failures)', () => {
  it('answers an overloaded service with 503 and the Retry-After it suggested', () => {
    const err = toHttpError(new CotaError('UNAVAILABLE', 'at capacity', { overloaded: true, retry_after_s: 2 }, 'executor'));
    expect(err).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'Retry-After': '2' } });
    expect(err.message).toContain('sobrecarregado');
    expect(err.message).toContain('executor');
  });

  it('answers an open circuit with 503 and the time until its trial call', () => {
    const err = toHttpError(new CotaError('UNAVAILABLE', 'circuit open', { circuit: 'open', retry_after_s: 3 }, 'planner'));
    expect(err).toMatchObject({ status: 503, headers: { 'Retry-After': '3' } });
    expect(err.message).toContain('planner');
  });

  it('keeps 503 with Retry-After 5 for a service or the bus being down, and 504 for a timeout', () => {
    expect(toHttpError(new CotaError('UNAVAILABLE', 'no responders', {}, 'rag'))).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    expect(toHttpError(new CotaError('UNAVAILABLE', 'nats', { bus: true }))).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    expect(toHttpError(new CotaError('TIMEOUT', 'deadline', { deadline: 'passed' }))).toMatchObject({ status: 504, code: 'timeout' });
  });

  it('answers a store connection the gateway itself lost with 503, any other failure with 500', () => {
    expect(toHttpError(Object.assign(new Error('Connection terminated unexpectedly'), {}))).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(toHttpError(Object.assign(new Error('x'), { code: '57P01' }))).toMatchObject({ status: 503 });
    expect(toHttpError(new Error('undefined is not a function'))).toMatchObject({ status: 500, code: 'internal' });
  });
});
