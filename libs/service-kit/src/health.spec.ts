import { createServer } from 'node:net';
import { Bus, InProcessTransport } from '@cota/messaging';
import { runChecks, standardChecks } from './health';
import type { Infra } from './infra';
import { openRedis } from './redis';

/** A local port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('readiness checks as the open probe shows them', () => {
  it('names the dependency that failed in plain words, never the client library message', async () => {
    const redis = openRedis(`redis://127.0.0.1:${await closedPort()}`, 'health-test');
    redis.on('error', () => undefined);
    try {
      const infra = { bus: new Bus(new InProcessTransport(), 'context'), database: null, redis } as unknown as Infra;
      const r = await runChecks(standardChecks(infra));
      expect(r.ok).toBe(false);
      expect(r.checks).toEqual({ nats: { ok: true }, redis: { ok: false, detail: 'indisponível' } });
    } finally {
      redis.disconnect();
    }
  });

  it('says a check that did not answer in time did not answer', async () => {
    const r = await runChecks({ postgres: () => new Promise(() => undefined) }, 20);
    expect(r.checks).toEqual({ postgres: { ok: false, detail: 'sem resposta' } });
  });
});
