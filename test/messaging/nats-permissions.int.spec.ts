import { spawn, ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import {
  ALERTS_CONSUMER,
  CotaError,
  Events,
  NATS_USERS,
  natsPasswordVariable,
  NatsUser,
  PlannerSubjects,
  renderNatsConfig,
  WAREHOUSE_EVENTS_SUBJECTS,
  WarehouseEvents,
} from '@cota/contracts';
import { NatsTransport, WarehouseStream } from '@cota/messaging';
import { freePort, waitForPort } from '@cota/test-support';

/**
 * The generated NATS users and permissions (libs/contracts bus-access.ts) on the machine's nats-server:
 * the gateway may call the planner, the planner may not run tools, no service publishes another's
 * events, and the event reader only reads.
 */
const BINARY = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
const d = BINARY ? describe : describe.skip;

const password = (u: NatsUser) => `test-${u}-secret`;

d('NATS permissions generated from the contracts (real nats-server)', () => {
  let proc: ChildProcess;
  let dir: string;
  let url: string;
  const open: NatsTransport[] = [];
  const as = async (user: NatsUser) => {
    const t = await NatsTransport.connect({ url, user, pass: password(user), name: `perm-test-${user}` });
    open.push(t);
    return t;
  };

  beforeAll(async () => {
    const port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'cota-nats-auth-'));
    const conf = join(dir, 'nats.conf');
    writeFileSync(conf, renderNatsConfig());
    const env = { ...process.env, ...Object.fromEntries(NATS_USERS.map((u) => [natsPasswordVariable(u), password(u)])) };
    proc = spawn(BINARY!, ['-c', conf, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir, 'js')], { stdio: 'ignore', env });
    await waitForPort(port);
    url = `nats://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    for (const t of open) await t.drain().catch(() => undefined);
    if (proc && proc.exitCode === null) {
      await new Promise<void>((res) => {
        proc.once('exit', () => res());
        proc.kill('SIGKILL');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a connection without credentials or with a wrong password', async () => {
    await expect(connect({ servers: url, reconnect: false })).rejects.toThrow(/authorization/i);
    await expect(connect({ servers: url, user: 'gateway', pass: 'wrong', reconnect: false })).rejects.toThrow(/authorization/i);
  });

  it('lets the gateway request a planner subject served by the planner', async () => {
    const planner = await as('planner');
    planner.serve(PlannerSubjects.plan.subject, 'planner', async (data) => JSON.stringify({ echo: JSON.parse(data) }));
    // Credentials in the URL work too (NATS_URL=nats://user:pass@host).
    const gateway = await NatsTransport.connect({ url: url.replace('nats://', `nats://gateway:${password('gateway')}@`), name: 'perm-test-gw-url' });
    open.push(gateway);
    await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(await gateway.request(PlannerSubjects.plan.subject, '{"q":1}', 2000))).toEqual({ echo: { q: 1 } });
  });

  it('refuses the planner a request on cota.executor.run-tool.v1 with a permission error', async () => {
    const executor = await as('executor');
    executor.serve('cota.executor.run-tool.v1', 'executor', async () => '{"ran":true}');
    const planner = await as('planner');
    await new Promise((r) => setTimeout(r, 100));
    const err = await planner.request('cota.executor.run-tool.v1', '{}', 2000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CotaError);
    expect((err as CotaError).code).toBe('FORBIDDEN');
    expect((err as CotaError).message).toMatch(/permissions violation/i);
    // The tool gate, its only caller, gets through.
    const toolGate = await as('tool-gate');
    expect(JSON.parse(await toolGate.request('cota.executor.run-tool.v1', '{}', 2000))).toEqual({ ran: true });
  });

  it('refuses a service that serves another service’s subject', async () => {
    const nc = await connect({ servers: url, user: 'narrator', pass: password('narrator'), reconnect: false });
    const errors: string[] = [];
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'error') errors.push(String(s.data));
    })();
    const sub = nc.subscribe(PlannerSubjects.plan.subject, { queue: 'planner' });
    void (async () => {
      try {
        for await (const _m of sub) void _m;
      } catch (e) {
        errors.push(String(e));
      }
    })();
    await nc.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.join(' ')).toMatch(/permissions violation for subscription/i);
    await nc.close();
  });

  it('lets a service publish only its own events, and the event reader only read them', async () => {
    const reader = await as('events');
    const seen: string[] = [];
    reader.subscribe('cota.events.>', (subject) => seen.push(subject));
    const planner = await as('planner');
    await new Promise((r) => setTimeout(r, 100));

    planner.publish(Events.plannerPlanned.subject, '{"own":true}');
    planner.publish(Events.executorQueried.subject, '{"forged":true}'); // another service's event
    reader.publish(Events.gatewayAsked.subject, '{"forged":true}'); // the reader never publishes
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([Events.plannerPlanned.subject]);

    // The reader is told why (the server reports the violation on its connection).
    const nc = await connect({ servers: url, user: 'events', pass: password('events'), reconnect: false });
    const errors: string[] = [];
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'error') errors.push(String(s.data));
    })();
    nc.publish(Events.gatewayAsked.subject);
    await nc.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.join(' ')).toMatch(/PERMISSIONS_VIOLATION|permissions violation/i);
    await nc.close();
  });

  it('keeps a service out of another service’s reply inbox', async () => {
    const nc = await connect({ servers: url, user: 'planner', pass: password('planner'), reconnect: false, inboxPrefix: '_INBOX.planner' });
    const errors: string[] = [];
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'error') errors.push(String(s.data));
    })();
    nc.subscribe('_INBOX.gateway.>', { callback: (err) => err && errors.push(err.message) });
    await nc.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.join(' ')).toMatch(/permissions violation for subscription/i);
    await nc.close();
  });

  it('lets the ingest worker write the change events stream, the executor consume it durably and hear it live, the reader replay it', async () => {
    const worker = WarehouseStream.of(await as('ingest-worker'))!;
    await worker.ensure({ maxAgeMs: 86_400_000, duplicateWindowMs: 60_000, maxBytes: 10_485_760 });
    const executor = await as('executor');
    const heard: string[] = [];
    executor.subscribe(WAREHOUSE_EVENTS_SUBJECTS, (subject) => heard.push(subject));
    await executor.connection.flush();
    const subject = WarehouseEvents.distributionAnnounced.subject;
    expect(await worker.publish(subject, '{"n":1}', 'perm-1')).toMatchObject({ duplicate: false });
    expect(await worker.publish(subject, '{"n":1}', 'perm-1')).toMatchObject({ duplicate: true });

    const got: string[] = [];
    const durable = await WarehouseStream.of(executor)!.consumeDurable(
      ALERTS_CONSUMER,
      WAREHOUSE_EVENTS_SUBJECTS,
      async (d) => void got.push(d.data),
      { ackWaitMs: 5000, maxDeliver: 3 },
      () => undefined,
    );
    await worker.publish(subject, '{"n":2}', 'perm-2');
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    await durable.stop();
    expect(got).toEqual(['{"n":1}', '{"n":2}']); // from the oldest event kept
    expect(heard).toEqual([subject, subject, subject]);

    const replayed: string[] = [];
    await WarehouseStream.of(await as('events'))!.replay(WAREHOUSE_EVENTS_SUBJECTS, new Date(0), (e) => replayed.push(e.data));
    expect(replayed).toEqual(['{"n":1}', '{"n":2}']);
  });

  it('keeps the stream read-only to the reader and to every service, and the alerts consumer to the executor', async () => {
    const reader = WarehouseStream.of(await as('events'))!;
    await expect(reader.publish(WarehouseEvents.distributionAnnounced.subject, '{}', 'forged')).rejects.toThrow(/permission|timeout|no responders/i);
    const gateway = WarehouseStream.of(await as('gateway'))!;
    await expect(gateway.publish(WarehouseEvents.distributionAnnounced.subject, '{}', 'forged')).rejects.toThrow(/permission|timeout|no responders/i);
    await expect(
      reader.consumeDurable(
        ALERTS_CONSUMER,
        WAREHOUSE_EVENTS_SUBJECTS,
        async () => undefined,
        { ackWaitMs: 1000, maxDeliver: 1 },
        () => undefined,
      ),
    ).rejects.toThrow();
  });
});
