import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceName } from '@cota/contracts';
import { loadEnv, repoRoot } from '@cota/config';
import { openDatabase, silentLogger, RunningService, ServiceDefinition, startService } from '@cota/service-kit';
import { ensureWarehouse } from '@cota/warehouse';
import { createTestDatabase, freePort, REDIS_TEST_URL, startTestNats, TestDatabase, TestNats, testRedisPrefix } from '@cota/test-support';
import { SERVICE_DEFINITIONS } from '../../cli/services';

export const DEMO = {
  ana: { clientId: 'cliente-demo-1', key: 'chave-de-teste-da-ana-0001' },
  bia: { clientId: 'cliente-demo-2', key: 'chave-de-teste-da-bia-0002' },
};

/** Loosely typed /ask reply (the tests assert its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AskReply = Record<string, any>;

export interface Cluster {
  baseUrl: string;
  nats: TestNats;
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  services: Map<ServiceName, RunningService>;
  /** Services running as child processes (so they can be killed for real). */
  processes: Map<ServiceName, ChildProcess>;
  spawnService(name: ServiceName): Promise<ChildProcess>;
  ask(question: string, opts?: { conversation?: string; who?: keyof typeof DEMO; nickname?: string }): Promise<{ status: number; body: AskReply; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * The real system for end-to-end tests: a private nats-server, a fresh database on the real
 * Postgres (warehouse ingested from the shared data), the real Redis under a private prefix,
 * and the seven services each as its own NATS client. `inProcess: false` services are spawned as
 * separate Node processes from the compiled tree (`npm run build` first).
 */
export async function startCluster(
  opts: {
    asProcesses?: ServiceName[];
    serviceEnv?: Partial<Record<ServiceName, NodeJS.ProcessEnv>>;
    /** Fakes started (in-process, through startService) in place of the real service. */
    replace?: Partial<Record<ServiceName, ServiceDefinition>>;
    /** A private Redis (e.g. one the test kills and restarts) instead of the shared one. */
    redisUrl?: string;
    /** Every chunk a spawned service writes on stderr (its log lines). */
    onStderr?: (service: ServiceName, chunk: string) => void;
  } = {},
): Promise<Cluster> {
  // JetStream on, as deployed: the executor's alerts consume the warehouse change events' stream.
  const nats = await startTestNats({ jetstream: true });
  const db = await createTestDatabase('e2e');
  const ds = await openDatabase({ url: db.url });
  await ensureWarehouse(ds, { dataDir: loadEnv({}).dataDir, log: silentLogger() });
  await ds.destroy();

  const port = await freePort();
  const envVars: NodeJS.ProcessEnv = {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    REDIS_URL: opts.redisUrl ?? REDIS_TEST_URL,
    COTA_REDIS_PREFIX: testRedisPrefix('e2e'),
    COTA_DEMO_KEYS: Object.values(DEMO)
      .map((d) => `${d.clientId}:${d.key}`)
      .join(','),
    COTA_OPS_TOKEN: 'ops-token-de-teste',
    COTA_EVENT_SALT: 'sal-dos-eventos-de-teste',
    PORT: String(port),
    COTA_LOG_LEVEL: 'warn',
    // Each service's metrics/probe port on a free port (a fixed default would collide between suites).
    COTA_METRICS_PORT: '0',
  };
  const env = loadEnv(envVars);
  const services = new Map<ServiceName, RunningService>();
  const processes = new Map<ServiceName, ChildProcess>();

  const spawnService = async (name: ServiceName): Promise<ChildProcess> => {
    const entry = join(repoRoot(), 'dist', 'cli', 'start.js');
    if (!existsSync(entry)) throw new Error('dist/ is missing: run `npm run build` before the integration tests');
    const child = spawn(process.execPath, [entry, name], {
      env: { ...process.env, ...envVars, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...opts.serviceEnv?.[name] },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr?.on('data', (c) => {
      log = (log + c).slice(-4000);
      opts.onStderr?.(name, String(c));
    });
    processes.set(name, child);
    // Ready when it answers its health subject.
    const { Bus, NatsTransport } = await import('@cota/messaging');
    const { HealthSubjects } = await import('@cota/contracts');
    const probe = await NatsTransport.connect({ url: nats.url, name: 'probe' });
    try {
      const bus = new Bus(probe, 'probe');
      for (let i = 0; i < 150; i++) {
        if (child.exitCode !== null) throw new Error(`${name} exited: ${log}`);
        try {
          await bus.call(HealthSubjects[name], {}, { timeoutMs: 500 });
          return child;
        } catch {
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      throw new Error(`${name} did not become healthy: ${log}`);
    } finally {
      await probe.drain();
    }
  };

  for (const [name, real] of Object.entries(SERVICE_DEFINITIONS) as Array<[ServiceName, (typeof SERVICE_DEFINITIONS)[ServiceName]]>) {
    const def = opts.replace?.[name] ?? real;
    if (opts.asProcesses?.includes(name)) await spawnService(name);
    else services.set(name, await startService(def, opts.serviceEnv?.[name] ? loadEnv({ ...envVars, ...opts.serviceEnv[name] }) : env));
  }

  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    nats,
    db,
    env: envVars,
    services,
    processes,
    spawnService,
    ask: async (question, o = {}) => {
      const who = DEMO[o.who ?? 'ana'];
      const res = await fetch(`${baseUrl}/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${who.key}` },
        body: JSON.stringify({ question, conversation_id: o.conversation ?? 'conv-e2e', nickname: o.nickname ?? 'Ana', client_id: who.clientId }),
      });
      return { status: res.status, body: (await res.json()) as AskReply, headers: res.headers };
    },
    stop: async () => {
      for (const p of processes.values()) if (p.exitCode === null) p.kill('SIGTERM');
      for (const s of [...services.values()].reverse()) await s.stop().catch(() => undefined);
      await nats.remove();
      await db.drop().catch(() => undefined);
    },
  };
}
