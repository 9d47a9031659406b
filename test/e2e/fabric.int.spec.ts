import 'reflect-metadata';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Module } from '@nestjs/common';
import { CONTRACT_SAMPLES, ExecutorSubjects, QueryResult, RequestOf } from '@cota/contracts';
import { policiesDir } from '@cota/config';
import { RpcHandler } from '@cota/messaging';
import { INFRA, ServiceDefinition } from '@cota/service-kit';
import { Cluster, DEMO, startCluster } from './cluster';

/**
 * Issue 15 over the real system (private NATS, Postgres, Redis): the question's deadline and the
 * bulkheads. The executor is a fake started through the same service kit (so it loads
 * policies/fabric.yaml and serves through the same bus), answering the contract's sample after a
 * delay the test sets. Policies: a copy of the shipped ones with a short question deadline and a
 * one-slot bulkhead on `cota.executor.query.v1`.
 */
const DEADLINE_MS = 1500;
const slow = { ms: 0, active: 0 };

const sample = CONTRACT_SAMPLES.find((s) => s.def === ExecutorSubjects.query)!.response as QueryResult;

@Controller()
class SlowExecutorHandlers {
  @RpcHandler(ExecutorSubjects.funds)
  funds() {
    return { funds: [{ ticker: 'HGLG11', name: 'CSHG Logística', cnpj: '11.728.688/0001-47' }] };
  }

  @RpcHandler(ExecutorSubjects.query)
  async query(req: RequestOf<typeof ExecutorSubjects.query>) {
    slow.active++;
    try {
      await new Promise((r) => setTimeout(r, slow.ms));
      return { ...sample, entity: req.entity, params: req.params };
    } finally {
      slow.active--;
    }
  }
}

@Module({})
class SlowExecutorModule {}

const slowExecutor: ServiceDefinition = {
  name: 'executor',
  needsDatabase: false,
  needsRedis: false,
  migrations: [],
  module: (infra) => ({ module: SlowExecutorModule, providers: [{ provide: INFRA, useValue: infra }], controllers: [SlowExecutorHandlers] }),
};

let cluster: Cluster;
let policies: string;
const previousPoliciesDir = process.env.COTA_POLICIES_DIR;

beforeAll(async () => {
  policies = mkdtempSync(join(tmpdir(), 'cota-fabric-e2e-'));
  cpSync(policiesDir(), policies, { recursive: true });
  const quotas = readFileSync(join(policies, 'quotas.yaml'), 'utf8');
  writeFileSync(join(policies, 'quotas.yaml'), quotas.replace(/ask_deadline_ms: \d+/, `ask_deadline_ms: ${DEADLINE_MS}`));
  const fabric = readFileSync(join(policies, 'fabric.yaml'), 'utf8');
  writeFileSync(
    join(policies, 'fabric.yaml'),
    fabric.replace(/cota\.executor\.query\.v1:\n\s+max_concurrent: \d+\n\s+max_queue: \d+/, 'cota.executor.query.v1:\n      max_concurrent: 1\n      max_queue: 1'),
  );
  process.env.COTA_POLICIES_DIR = policies;
  cluster = await startCluster({ replace: { executor: slowExecutor } });
  // Warm-up: the first question of a fresh cluster must not count against the short deadline.
  const warm = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'fabric-warmup' });
  expect(warm.status).toBe(200);
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  if (previousPoliciesDir === undefined) delete process.env.COTA_POLICIES_DIR;
  else process.env.COTA_POLICIES_DIR = previousPoliciesDir;
  if (policies) rmSync(policies, { recursive: true, force: true });
});

async function historyOf(conversation: string): Promise<{ turns: Array<{ role: string }> }> {
  const res = await fetch(`${cluster.baseUrl}/conversations/${conversation}/history`, { headers: { authorization: `Bearer ${DEMO.ana.key}` } });
  return (await res.json()) as { turns: Array<{ role: string }> };
}

async function idle(): Promise<void> {
  for (let i = 0; i < 100 && slow.active > 0; i++) await new Promise((r) => setTimeout(r, 50));
}

const opsGet = async (path: string) =>
  (await fetch(`${cluster.baseUrl}${path}`, { headers: { authorization: `Bearer ${cluster.env.COTA_OPS_TOKEN}` } })).json() as Promise<
    Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
  >;

describe('a question past its deadline', () => {
  afterEach(async () => {
    slow.ms = 0;
    await idle();
  });

  it('gets 504 at the deadline (not at the step timeout) and commits no turn', async () => {
    const conversation = 'fabric-deadline-1';
    slow.ms = 4000; // under the executor's own 10 s timeout, past the question's 1.5 s
    const t = performance.now();
    const res = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation });
    const ms = performance.now() - t;
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ error: { code: 'timeout', message: expect.any(String) } });
    expect(ms).toBeLessThan(DEADLINE_MS + 900);
    process.stderr.write(`504 after ${Math.round(ms)} ms (deadline ${DEADLINE_MS} ms, executor ${slow.ms} ms, its timeout 10000 ms)\n`);

    // The question was recorded when its turn opened; no answer was committed and no reference moved.
    const history = await historyOf(conversation);
    expect(history.turns.map((t) => t.role)).toEqual(['user']);
    const debug = await opsGet(`/ops/context_debug?client_id=${DEMO.ana.clientId}&conversation_id=${conversation}`);
    expect(debug.last_reference).toBeNull();
    expect(debug.recent.filter((t: { role: string }) => t.role === 'assistant')).toEqual([]);
  });

  it('the same question in time is answered and committed', async () => {
    const conversation = 'fabric-deadline-2';
    slow.ms = 100;
    const res = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation });
    expect(res.status).toBe(200);
    const history = await historyOf(conversation);
    expect(history.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
  });
});

describe('flooding one subscription', () => {
  it('gets fast 503s with Retry-After (never a hang, never a 500), and recovers when the flood is over', async () => {
    slow.ms = 500; // one slot and one queue place on cota.executor.query.v1: two questions fit in the deadline
    const flood = 24;
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: flood }, async (_, i) => {
        const t = performance.now();
        const res = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: `fabric-flood-${i}` });
        return { status: res.status, ms: performance.now() - t, body: res.body, retryAfter: res.headers.get('retry-after') };
      }),
    );
    const total = performance.now() - t0;
    const byStatus = results.reduce<Record<number, number>>((acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc), {});
    const shed = results.filter((r) => r.status === 503);
    process.stderr.write(`flood of ${flood}: ${JSON.stringify(byStatus)} in ${Math.round(total)} ms; 503 latency max ${Math.round(Math.max(...shed.map((r) => r.ms)))} ms\n`);

    expect(results.every((r) => [200, 503, 504].includes(r.status))).toBe(true);
    expect(shed.length).toBeGreaterThanOrEqual(flood - 4);
    for (const r of shed) {
      expect(r.body).toEqual({ error: { code: 'service_unavailable', message: expect.stringContaining('sobrecarregado') } });
      expect(r.body.error.message).toContain('executor');
      expect(r.retryAfter).toBe('1');
    }
    // Shed at once: every 503 comes back well before the deadline the admitted questions are held to.
    expect(Math.max(...shed.map((r) => r.ms))).toBeLessThan(DEADLINE_MS);
    expect(total).toBeLessThan(DEADLINE_MS + 1500); // nothing hangs

    await idle();
    slow.ms = 0;
    const after = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'fabric-after-flood' });
    expect(after.status).toBe(200);
  });
});
