import { createServer } from 'node:net';
import { Test, TestingModule } from '@nestjs/testing';
import { Bus, InProcessTransport } from '@cota/messaging';
import { HealthProblem, ReadinessModule, ReadinessProbe, standardChecks } from './health';
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

/** The probe as a service's app has it (terminus in a Nest module). */
let moduleRef: TestingModule;
let probe: ReadinessProbe;
beforeEach(async () => {
  moduleRef = await Test.createTestingModule({ imports: [ReadinessModule] }).compile();
  probe = moduleRef.get(ReadinessProbe);
});
afterEach(() => moduleRef.close());
const runChecks: ReadinessProbe['run'] = (checks, timeoutMs) => probe.run(checks, timeoutMs);

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

  it("keeps the checks in their order, a check's note when it passes and the service's own words when it fails", async () => {
    const r = await runChecks({
      nats: async () => undefined,
      fundos: () => Promise.reject(new HealthProblem('lista de fundos ainda não carregada')),
      redis: async () => 'sem Redis: estado em memória',
    });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r.checks)).toBe(
      JSON.stringify({ nats: { ok: true }, fundos: { ok: false, detail: 'lista de fundos ainda não carregada' }, redis: { ok: true, detail: 'sem Redis: estado em memória' } }),
    );
  });

  it('is not ready once the app is shutting down, even with every check passing', async () => {
    expect((await runChecks({ nats: async () => undefined })).ok).toBe(true);
    await moduleRef.close();
    expect(await runChecks({ nats: async () => undefined })).toEqual({ ok: false, checks: { nats: { ok: true } } });
  });
});

describe('a bus without credentials', () => {
  const natsInfra = (env: Record<string, unknown>, embedded = false) =>
    ({ bus: { transport: { name: 'nats', ping: async () => 1 } }, database: null, redis: null, embedded, env }) as unknown as Infra;

  it('is shown in the readiness detail of the NATS check without failing readiness', async () => {
    const r = await runChecks(standardChecks(natsInfra({ natsUrl: 'nats://nats:4222', natsUser: null })));
    expect(r.ok).toBe(true);
    expect(r.checks.nats.ok).toBe(true);
    expect(r.checks.nats.detail).toMatch(/^sem credenciais/);
  });

  it('is not reported with a NATS user (variable or URL), nor in embedded mode', async () => {
    for (const infra of [
      natsInfra({ natsUrl: 'nats://nats:4222', natsUser: 'planner' }),
      natsInfra({ natsUrl: 'nats://planner:segredo@nats:4222', natsUser: null }),
      { ...natsInfra({ natsUrl: null, natsUser: null }, true), bus: new Bus(new InProcessTransport(), 'planner') } as unknown as Infra,
    ]) {
      expect((await runChecks(standardChecks(infra))).checks.nats).toEqual({ ok: true });
    }
  });
});
