import { z } from 'zod';
import { CotaError, defineRpc } from '@cota/contracts';
import { Bus } from './bus';
import { ClientPolicy, DEFAULT_FABRIC } from './fabric-policy';
import { InProcessTransport } from './in-process-transport';
import { withCallScope } from './call-scope';
import { countsAgainstTarget, retryable, transient } from './resilience';
import { Transport } from './transport';

const read = defineRpc({ subject: 'cota.test.read.v1', service: 'executor', request: z.object({}), response: z.object({ n: z.number() }), idempotent: true, timeoutMs: 300 });
const write = defineRpc({ subject: 'cota.test.write.v1', service: 'executor', request: z.object({}), response: z.object({ n: z.number() }), timeoutMs: 300 });
const mustLand = defineRpc({ subject: 'cota.test.commit.v1', service: 'context', request: z.object({}), response: z.object({ n: z.number() }), timeoutMs: 100, mustLand: true });
const other = defineRpc({ subject: 'cota.test.other.v1', service: 'rag', request: z.object({}), response: z.object({ n: z.number() }) });

const policy: ClientPolicy = {
  ...DEFAULT_FABRIC.client,
  breaker: { consecutive_failures: 3, half_open_after_ms: 200 },
  retry: { max_retries: 1, initial_delay_ms: 5, max_delay_ms: 10 },
  must_land: { initial_delay_ms: 5, max_delay_ms: 20, reserve_ms: 50 },
};

function setup() {
  const transport = new InProcessTransport();
  const server = new Bus(transport, 'executor');
  const client = new Bus(transport, 'gateway', { calls: policy });
  return { transport, server, client };
}

describe('the gateway bus client (breakers per target, retries of idempotent reads)', () => {
  it('retries an idempotent read once when its target could not take it; never a write', async () => {
    const { server, client } = setup();
    const calls = { read: 0, write: 0 };
    const flaky = (key: 'read' | 'write') => () => {
      if (++calls[key] === 1) throw new CotaError('UNAVAILABLE', 'busy replica', { overloaded: true });
      return { n: calls[key] };
    };
    server.serve(read, flaky('read'));
    server.serve(write, flaky('write'));
    await expect(client.call(read, {})).resolves.toEqual({ n: 2 });
    await expect(client.call(write, {})).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(calls).toEqual({ read: 2, write: 1 });
  });

  it('opens the circuit of a target after consecutive failures: then UNAVAILABLE at once, other targets untouched; closes after a good trial', async () => {
    const { server, client } = setup();
    server.serve(other, () => ({ n: 1 }));
    // Nobody serves `write` yet: three "no responder" failures in a row open the executor's circuit.
    for (let i = 0; i < 3; i++) await expect(client.call(write, {})).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(client.guard?.states()).toMatchObject({ executor: 'open' });
    let served = 0;
    server.serve(write, () => ({ n: ++served }));
    await expect(client.call(write, {})).rejects.toMatchObject({ code: 'UNAVAILABLE', service: 'executor', details: { circuit: 'open', retry_after_s: 1 } });
    expect(served).toBe(0); // refused without a message sent
    await expect(client.call(other, {})).resolves.toEqual({ n: 1 }); // the rag target is another circuit
    await new Promise((r) => setTimeout(r, 250));
    await expect(client.call(write, {})).resolves.toEqual({ n: 1 }); // half-open trial succeeds
    expect(client.guard?.states()).toMatchObject({ executor: 'closed' });
  });

  it('counts timeouts and missing responders against the target, not answers, shed load, bus outages or a spent deadline', () => {
    expect(countsAgainstTarget(new CotaError('TIMEOUT', 't'))).toBe(true);
    expect(countsAgainstTarget(new CotaError('UNAVAILABLE', 'no responders'))).toBe(true);
    expect(countsAgainstTarget(new CotaError('TIMEOUT', 't', { deadline: 'passed' }))).toBe(false);
    expect(countsAgainstTarget(new CotaError('UNAVAILABLE', 'busy', { overloaded: true }))).toBe(false);
    expect(countsAgainstTarget(new CotaError('UNAVAILABLE', 'nats down', { bus: true }))).toBe(false);
    expect(countsAgainstTarget(new CotaError('BAD_REQUEST', 'bad'))).toBe(false);
    expect(countsAgainstTarget(new Error('x'))).toBe(false);
    expect(retryable(new CotaError('UNAVAILABLE', 'busy', { overloaded: true }))).toBe(true);
    expect(retryable(new CotaError('TIMEOUT', 't'))).toBe(false);
    expect(retryable(new CotaError('UNAVAILABLE', 'open', { circuit: 'open' }))).toBe(false);
  });

  it('tries a write that must land again after timeouts and missing responders, until it lands within the deadline', async () => {
    const { server, client } = setup();
    let calls = 0;
    server.serve(mustLand, async () => {
      calls++;
      if (calls === 1) await new Promise((r) => setTimeout(r, 300)); // the first reply is lost (TIMEOUT)
      if (calls === 2) throw new CotaError('UNAVAILABLE', 'store down');
      return { n: calls };
    });
    await expect(withCallScope({ deadline: Date.now() + 2000 }, () => client.call(mustLand, {}))).resolves.toEqual({ n: 3 });
  });

  it('gives up on a write that must land when the question has no more than its reserve left, and never on a rejection', async () => {
    const { server, client } = setup();
    let calls = 0;
    server.serve(mustLand, () => {
      calls++;
      throw new CotaError('UNAVAILABLE', 'store down');
    });
    const t = Date.now();
    await expect(withCallScope({ deadline: Date.now() + 300 }, () => client.call(mustLand, {}))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(Date.now() - t).toBeLessThan(300);
    expect(calls).toBeGreaterThan(2);
    let rejected = 0;
    server.serve(write, () => {
      rejected++;
      throw new CotaError('BAD_REQUEST', 'no such turn');
    });
    const bad = defineRpc({ ...mustLand, subject: write.subject });
    await expect(withCallScope({ deadline: Date.now() + 2000 }, () => client.call(bad, {}))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(rejected).toBe(1);
    expect(transient(new CotaError('TIMEOUT', 't', { deadline: 'passed' }))).toBe(false);
    expect(transient(new CotaError('UNAVAILABLE', 'open', { circuit: 'open' }))).toBe(true);
  });

  it('does not guard buses built without a client policy (every service but the gateway)', () => {
    expect(new Bus(new InProcessTransport(), 'executor').guard).toBeNull();
  });
});

/**
 * A transport whose requests wait until the test answers them: a call stuck on a killed replica
 * is one the test rejects with TIMEOUT later, whenever it likes.
 */
class HeldTransport implements Transport {
  readonly name = 'in-process' as const;
  readonly held: Array<{ resolve(v: string): void; reject(e: unknown): void }> = [];
  request(): Promise<string> {
    return new Promise((resolve, reject) => this.held.push({ resolve, reject }));
  }
  serve(): never {
    throw new Error('not served here');
  }
  publish(): void {}
  subscribe(): never {
    throw new Error('not subscribed here');
  }
  isConnected(): boolean {
    return true;
  }
  async ping(): Promise<number> {
    return 0;
  }
  async drain(): Promise<void> {}
}

describe('the breaker after a target recovered (calls still stuck on the old instance)', () => {
  const timeout = () => new CotaError('TIMEOUT', 'no answer in time', { subject: write.subject });
  const noResponders = () => new CotaError('UNAVAILABLE', 'no service is answering', { subject: write.subject });
  const ok = JSON.stringify({ ok: true, data: { n: 1 } });

  function setupHeld() {
    const transport = new HeldTransport();
    const client = new Bus(transport, 'gateway', { calls: policy });
    /** Starts a call now; its transport request is the last one held. */
    const start = () => {
      const p = client.call(write, {}).then(
        () => 'ok',
        (e: CotaError) => e.code,
      );
      return { p, held: transport.held[transport.held.length - 1] };
    };
    return { transport, client, start };
  }

  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('does not open again on late timeouts of calls that started before the half-open trial closed it', async () => {
    const { client, start } = setupHeld();
    const stuck = [start(), start(), start()]; // in flight on the instance that is then killed
    await Promise.resolve();
    for (let i = 0; i < 3; i++) {
      const c = start(); // the replacement is not up yet: nobody answers
      c.held.reject(noResponders());
      await c.p;
    }
    expect(client.guard?.states()).toMatchObject({ executor: 'open' });
    jest.advanceTimersByTime(250);
    const trial = start();
    trial.held.resolve(ok);
    expect(await trial.p).toBe('ok');
    expect(client.guard?.states()).toMatchObject({ executor: 'closed' });
    // The calls stuck on the killed instance time out now, long after the replacement answered.
    for (const s of stuck) s.held.reject(timeout());
    expect(await Promise.all(stuck.map((s) => s.p))).toEqual(['TIMEOUT', 'TIMEOUT', 'TIMEOUT']);
    expect(client.guard?.states()).toMatchObject({ executor: 'closed' });
    const next = start();
    next.held.resolve(ok);
    expect(await next.p).toBe('ok');
  });

  it('does not open on late timeouts of calls older than a call that succeeded, and still opens on fresh ones', async () => {
    const { client, start } = setupHeld();
    const stuck = [start(), start(), start()];
    const answered = start(); // started after them, answered by the restarted instance
    answered.held.resolve(ok);
    expect(await answered.p).toBe('ok');
    for (const s of stuck) s.held.reject(timeout());
    await Promise.all(stuck.map((s) => s.p));
    expect(client.guard?.states()).toMatchObject({ executor: 'closed' });
    // Calls that started after the last success and fail are evidence: three of them open the circuit.
    const fresh = [start(), start(), start()];
    for (const f of fresh) f.held.reject(timeout());
    await Promise.all(fresh.map((f) => f.p));
    expect(client.guard?.states()).toMatchObject({ executor: 'open' });
  });

  it('opens again when the half-open trial itself fails', async () => {
    const { client, start } = setupHeld();
    for (let i = 0; i < 3; i++) {
      const c = start();
      c.held.reject(noResponders());
      await c.p;
    }
    jest.advanceTimersByTime(250);
    const trial = start();
    trial.held.reject(timeout());
    expect(await trial.p).toBe('TIMEOUT');
    expect(client.guard?.states()).toMatchObject({ executor: 'open' });
  });

  it('does not let late timeouts of calls from before the outage end a half-open trial', async () => {
    const { client, start } = setupHeld();
    const stuck = [start(), start(), start()];
    await Promise.resolve();
    for (let i = 0; i < 3; i++) {
      const c = start();
      c.held.reject(noResponders());
      await c.p;
    }
    jest.advanceTimersByTime(250);
    const trial = start(); // half-open: the trial is in flight
    expect(client.guard?.states()).toMatchObject({ executor: 'half-open' });
    for (const s of stuck) s.held.reject(timeout());
    await Promise.all(stuck.map((s) => s.p));
    trial.held.resolve(ok);
    expect(await trial.p).toBe('ok');
    expect(client.guard?.states()).toMatchObject({ executor: 'closed' });
  });
});
