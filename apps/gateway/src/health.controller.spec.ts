import type { Response } from 'express';
import { Test } from '@nestjs/testing';
import { HealthSubjects, SERVICES } from '@cota/contracts';
import type { QuotaPolicy } from '@cota/access';
import { Bus, InProcessTransport, TransportSubscription } from '@cota/messaging';
import { Infra, ReadinessModule, ReadinessProbe } from '@cota/service-kit';
import { HealthController } from './health.controller';

/** The gateway's readiness with the other services served (or not) on an in-process bus. */
async function setup(waitS: number) {
  const transport = new InProcessTransport();
  const bus = new Bus(transport, 'gateway');
  const infra = { service: 'gateway', bus, database: null, redis: null, embedded: true } as unknown as Infra;
  const quotas = { http: { ready_waits_for_services_s: waitS } } as QuotaPolicy;
  const served = new Map<string, TransportSubscription>();
  const serve = (s: (typeof SERVICES)[number]) =>
    served.set(
      s,
      new Bus(transport, s).serve(HealthSubjects[s], () => ({ service: s, instance: 'test', ok: true, checks: {} })),
    );
  const probe = (await Test.createTestingModule({ imports: [ReadinessModule] }).compile()).get(ReadinessProbe);
  const controller = new HealthController(infra, quotas, probe);
  const ask = async () => {
    const out = { status: 0, body: {} as { status: string; services: Record<string, { ok: boolean; detail?: string }> } };
    const res = { status: (c: number) => ((out.status = c), res), json: (b: typeof out.body) => ((out.body = b), res) } as unknown as Response;
    await controller.ready(res);
    return out;
  };
  return { serve, served, ask };
}

describe('GET /health/ready', () => {
  it('is not ready after start until every service has answered once; then a service down no longer takes the gateway out', async () => {
    const { serve, served, ask } = await setup(30);
    const others = SERVICES.filter((s) => s !== 'gateway');
    for (const s of others.filter((s) => s !== 'planner')) serve(s);
    const first = await ask();
    expect(first.status).toBe(503);
    expect(first.body.status).toBe('starting');
    // Which service, in plain words: not the bus's message (it names subjects and internals).
    expect(first.body.services.planner).toEqual({ ok: false, detail: 'indisponível' });
    serve('planner');
    expect((await ask()).status).toBe(200);
    served.get('planner')!.unsubscribe();
    const later = await ask();
    expect(later.status).toBe(200);
    expect(later.body.services.planner.ok).toBe(false);
  });

  it('waits at most ready_waits_for_services_s for the services (0: not at all)', async () => {
    const { ask } = await setup(0);
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ready');
  });
});
