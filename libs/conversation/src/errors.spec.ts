import { CotaError } from '@cota/contracts';
import { asContextError } from './errors';

describe('asContextError', () => {
  it.each([
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }),
    new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' }),
    new Error('Connection terminated unexpectedly'),
  ])('turns a lost connection into UNAVAILABLE (%#)', (e) => {
    expect(CotaError.is(asContextError(e), 'UNAVAILABLE')).toBe(true);
  });

  it('leaves other failures alone', () => {
    const bug = new TypeError('x is undefined');
    expect(asContextError(bug)).toBe(bug);
    const bad = new CotaError('BAD_REQUEST', 'no');
    expect(asContextError(bad)).toBe(bad);
  });
});
