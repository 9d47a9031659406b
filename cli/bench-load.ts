import './register-paths';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connect, StringCodec } from 'nats';
import { ServiceName } from '@cota/contracts';
import { loadEnv, repoRoot } from '@cota/config';
import { openDatabase, silentLogger } from '@cota/service-kit';
import { ensureWarehouse } from '@cota/warehouse';
import { hopBenchmark, HopResult } from './bench-hop';
import { createScratchDatabase, freePort, policiesWithRaisedQuotas } from './scratch';
import { renderLoadChart } from './bench-load-chart';
import { fabricFloor, recordReplies } from './bench-floor';

/**
 * `npm run bench:load` (issue 15): the seven services as separate processes on a private NATS
 * server, the real Postgres and Redis, then the embedded mode; a mix of five questions driven by
 * autocannon at 1 and 32 connections. Prints latency percentiles, answers/s, CPU per question per
 * process and the bare NATS round trip measured in the same run, and writes JSON and an SVG chart
 * to bench/results/. The targets live here, not in tests.
 */
const TARGETS = { one: { p50: 5, p99: 15 }, many: { rps: 800, p99: 100 }, hopRatio: 1.2 };
const DURATION_S = Number(process.env.COTA_BENCH_SECONDS ?? 10);
const SERVICES: ServiceName[] = ['executor', 'context', 'planner', 'tool-gate', 'rag', 'narrator', 'gateway'];
const KEY = `bench-${randomBytes(8).toString('hex')}`;
const CLIENT = 'cliente-demo-1';
/** The mix of the issue: a fact, a series, a ranking, a follow-up (of the series) and a market rate. */
const MIX = ['Qual o CNPJ do HGLG11?', 'últimos 12 dividendos do KNRI11', 'top 10 fiis por dy', 'e em 2023?', 'qual a selic hoje?'];
/** The framework floor's question: its seven calls and seven events are the mix's typical shape. */
const FLOOR_QUESTION = MIX[0];

interface Run {
  mode: 'distributed' | 'embedded' | 'canned';
  connections: number;
  answers: number;
  errors: number;
  non2xx: number;
  rps: number;
  latency: { p50: number; p95: number; p99: number; max: number };
  /** CPU milliseconds per answered question, per process (and their sum). */
  cpu_ms_per_answer: Record<string, number>;
  /** CPU ms per answer of autocannon itself (this process): not the system's, but it shares the cores. */
  load_generator_cpu_ms_per_answer: number;
  /**
   * Write system calls per answer, per process: socket writes to NATS, Redis, Postgres and HTTP, plus
   * the event loop's own wake-ups (eventfd) and logs. On a virtual machine each costs tens of
   * microseconds, and unlike CPU time their count does not drift with the machine's speed.
   */
  writes_per_answer: Record<string, number>;
}

/** Write system calls of a process so far (Linux /proc/<pid>/io). */
function writeCalls(pid: number): number {
  const line = readFileSync(`/proc/${pid}/io`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('syscw:'));
  return Number(line?.split(':')[1] ?? 0);
}

/** utime + stime of a process, in ms (Linux /proc; clock ticks of 10 ms); with `endedChildren`, plus its reaped children's (cutime + cstime). */
function cpuMs(pid: number, endedChildren = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return (f[11] + f[12] + (endedChildren ? f[13] + f[14] : 0)) * 10;
}

/**
 * CPU of the shared stores this machine runs (Postgres backends, Redis), summed over their processes:
 * they compete for the same cores, so a question's cost includes theirs. A backend that exits in
 * between is still counted: the postmaster's reaped-children time holds it.
 */
function storeCpuMs(): Record<string, number> {
  const out: Record<string, number> = { postgres: 0, 'redis-server': 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm in out) out[comm] += cpuMs(Number(entry), true);
    } catch {
      // the process ended while being read
    }
  }
  return out;
}

async function waitReady(url: string, procs: ChildProcess[], timeoutMs = 240_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (procs.some((p) => p.exitCode !== null)) throw new Error('a service exited during start-up');
    const ok = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready at ${url}`);
}

/** One autocannon run of the mix; conversations rotate so the follow-up always follows its question. */
async function drive(url: string, connections: number, pids: Record<string, number>, mode: Run['mode'], questions: string[] = MIX): Promise<Run> {
  let n = 0;
  const stores = mode !== 'embedded';
  const before = { ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)])), ...(stores ? storeCpuMs() : {}) };
  const writesBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, writeCalls(pid)]));
  const generatorBefore = cpuMs(process.pid);
  const result = await autocannon({
    url: `${url}/ask`,
    connections,
    duration: DURATION_S,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          const i = n++;
          // Each connection keeps its conversation; the mix's follow-up continues the series question.
          const conversation = `bench-${mode}-${connections}-${Math.floor(i / questions.length) % 64}`;
          return { ...req, body: JSON.stringify({ question: questions[i % questions.length], conversation_id: conversation, nickname: 'Ana', client_id: CLIENT }) };
        },
      },
    ],
  });
  const after = { ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)])), ...(stores ? storeCpuMs() : {}) };
  const writesAfter = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, writeCalls(pid)]));
  const answers = result['2xx'];
  const generator = Math.round(((cpuMs(process.pid) - generatorBefore) / Math.max(1, answers)) * 100) / 100;
  const cpu = perAnswer(before, after, answers);
  return {
    mode,
    connections,
    answers,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    rps: Math.round((answers / result.duration) * 10) / 10,
    latency: { p50: result.latency.p50, p95: result.latency.p97_5 ?? result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    cpu_ms_per_answer: cpu,
    load_generator_cpu_ms_per_answer: generator,
    writes_per_answer: perAnswer(writesBefore, writesAfter, answers),
  };
}

/** (after − before) / answers per key, with their total, to two decimals. */
function perAnswer(before: Record<string, number>, after: Record<string, number>, answers: number): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const k of Object.keys(after)) {
    const v = (after[k] - before[k]) / Math.max(1, answers);
    out[k] = Math.round(v * 100) / 100;
    total += v;
  }
  out.total = Math.round(total * 100) / 100;
  return out;
}

/** "gateway 2.1, context 0.7, ..." of a perAnswer record, without its total. */
const breakdown = (per: Record<string, number>) =>
  Object.entries(per)
    .filter(([k]) => k !== 'total')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

async function distributed(hop: { natsUrl: string; natsPid: number }): Promise<{ runs: Run[]; canned: Run[] }> {
  const db = await createScratchDatabase('cota_bench');
  const databaseUrl = db.url;
  const procs = new Map<string, ChildProcess>();
  try {
    const ds = await openDatabase({ url: databaseUrl });
    await ensureWarehouse(ds, { dataDir: loadEnv({}).dataDir, log: silentLogger() });
    await ds.destroy();
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NATS_URL: hop.natsUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      COTA_REDIS_PREFIX: `cota-bench-${randomBytes(4).toString('hex')}:`,
      COTA_DEMO_KEYS: `${CLIENT}:${KEY}`,
      COTA_POLICIES_DIR: policiesWithRaisedQuotas(),
      COTA_METRICS_PORT: '0',
      COTA_LOG_LEVEL: 'error',
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      PORT: String(port),
    };
    const profiled = profiledServices();
    for (const s of SERVICES) {
      const prof = profiled.has(s) ? profileArgs(s) : [];
      procs.set(s, spawn(process.execPath, [...prof, join(repoRoot(), 'dist', 'cli', 'start.js'), s], { env, stdio: ['ignore', 'ignore', 'inherit'] }));
    }
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, [...procs.values()]);
    const pids = { ...Object.fromEntries([...procs].map(([k, p]) => [k, p.pid!])), 'nats-server': hop.natsPid };
    await drive(url, 8, pids, 'distributed'); // warm-up: caches, JIT, connection pools
    const replies = await recordReplies(hop.natsUrl, () => askOnce(url, FLOOR_QUESTION));
    const runs = [await drive(url, 1, pids, 'distributed'), await drive(url, 32, pids, 'distributed')];
    return { runs, canned: await cannedRuns(url, env, procs, replies, hop.natsPid) };
  } finally {
    for (const p of procs.values()) p.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await db.drop();
  }
}

async function askOnce(url: string, question: string): Promise<void> {
  const res = await fetch(`${url}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ question, conversation_id: `bench-once-${randomBytes(4).toString('hex')}`, nickname: 'Ana', client_id: CLIENT }),
  });
  await res.text();
  if (!res.ok) throw new Error(`'${question}' answered ${res.status}`);
}

function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });
}

/**
 * The framework floor: the six services behind the gateway are replaced by canned ones
 * (bench-canned.ts: same strategy, validation, bulkheads, step events; replies recorded from the
 * real services), then the floor question is driven through the real gateway, NATS and stores.
 * What that costs per answer is the part no domain optimisation can remove.
 */
async function cannedRuns(url: string, env: NodeJS.ProcessEnv, procs: Map<string, ChildProcess>, replies: Record<string, unknown>, natsPid: number): Promise<Run[]> {
  const behind = SERVICES.filter((s) => s !== 'gateway');
  await Promise.all(behind.map((s) => stopProcess(procs.get(s)!)));
  const file = join(mkdtempSync(join(tmpdir(), 'cota-bench-replies-')), 'replies.json');
  writeFileSync(file, JSON.stringify(replies));
  const profiled = profiledServices();
  for (const s of behind) {
    const prof = profiled.has(`canned-${s}`) ? profileArgs(`canned-${s}`) : [];
    procs.set(s, spawn(process.execPath, [...prof, join(repoRoot(), 'dist', 'cli', 'bench-canned.js'), s, file], { env, stdio: ['ignore', 'ignore', 'inherit'] }));
  }
  // Ready when a whole question goes through the canned services.
  const until = Date.now() + 60_000;
  for (;;) {
    if ([...procs.values()].some((p) => p.exitCode !== null)) throw new Error('a canned service exited during start-up');
    const ok = await askOnce(url, FLOOR_QUESTION).then(
      () => true,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error('the canned services did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const pids = { ...Object.fromEntries([...procs].map(([k, p]) => [k, p.pid!])), 'nats-server': natsPid };
  await drive(url, 8, pids, 'canned', [FLOOR_QUESTION]);
  return [await drive(url, 1, pids, 'canned', [FLOOR_QUESTION]), await drive(url, 32, pids, 'canned', [FLOOR_QUESTION])];
}

/** COTA_BENCH_PROFILE=context,gateway (or embedded, canned-rag, ...) writes those processes' CPU profiles to bench/results/profiles/. */
function profiledServices(): Set<string> {
  return new Set((process.env.COTA_BENCH_PROFILE ?? '').split(',').filter(Boolean));
}

function profileArgs(name: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${join(repoRoot(), 'bench', 'results', 'profiles')}`, `--cpu-prof-name=${name}.cpuprofile`];
}

async function embedded(): Promise<Run[]> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    COTA_EMBEDDED_STORE: 'memory',
    COTA_DEMO_KEYS: `${CLIENT}:${KEY}`,
    COTA_POLICIES_DIR: policiesWithRaisedQuotas(),
    COTA_LOG_LEVEL: 'error',
  };
  for (const v of ['NATS_URL', 'DATABASE_URL', 'REDIS_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[v];
  const prof = profiledServices().has('embedded') ? profileArgs('embedded') : [];
  const child = spawn(process.execPath, [...prof, join(repoRoot(), 'dist', 'cli', 'start.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, [child]);
    const pids = { embedded: child.pid! };
    await drive(url, 8, pids, 'embedded');
    return [await drive(url, 1, pids, 'embedded'), await drive(url, 32, pids, 'embedded')];
  } finally {
    child.kill('SIGTERM');
  }
}

function startNats(port: number): ChildProcess {
  const binary = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
  if (!binary) throw new Error('nats-server is not installed (Debian package nats-server)');
  return spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
}

/** Bare nats.js request-reply (the floor every hop stands on), sequential, measured in this run. */
async function bareNats(url: string): Promise<{ p50_ms: number; p99_ms: number }> {
  const nc = await connect({ servers: url });
  const sc = StringCodec();
  const sub = nc.subscribe('bench.bare');
  void (async () => {
    for await (const m of sub) m.respond(m.data);
  })();
  const times: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const t = performance.now();
    await nc.request('bench.bare', sc.encode('{"question":"Qual o CNPJ do HGLG11?"}'), { timeout: 2000 });
    if (i >= 500) times.push(performance.now() - t);
  }
  await nc.drain();
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.floor(q * (times.length - 1))] * 1000) / 1000;
  return { p50_ms: at(0.5), p99_ms: at(0.99) };
}

function verdicts(runs: Run[], hop: HopResult): string[] {
  const out: string[] = [];
  for (const r of runs) {
    if (r.connections === 1)
      out.push(
        `${r.mode} 1 client: p50 ${r.latency.p50} ms (target ≤ ${TARGETS.one.p50}), p99 ${r.latency.p99} ms (target ≤ ${TARGETS.one.p99}) ${r.latency.p50 <= TARGETS.one.p50 && r.latency.p99 <= TARGETS.one.p99 ? 'MET' : 'MISSED'}`,
      );
    else
      out.push(
        `${r.mode} ${r.connections} clients: ${r.rps} answers/s (target ≥ ${TARGETS.many.rps}), p99 ${r.latency.p99} ms (target ≤ ${TARGETS.many.p99}) ${r.rps >= TARGETS.many.rps && r.latency.p99 <= TARGETS.many.p99 ? 'MET' : 'MISSED'}`,
      );
  }
  out.push(`Nest strategy hop vs raw nats.js: ${hop.ratio}x (target ≤ ${TARGETS.hopRatio}) ${hop.ratio <= TARGETS.hopRatio ? 'MET' : 'MISSED'}`);
  return out;
}

async function main(): Promise<void> {
  if (!existsSync(join(repoRoot(), 'dist', 'cli', 'start.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const natsPort = await freePort();
  const nats = startNats(natsPort);
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  try {
    await new Promise((r) => setTimeout(r, 300));
    const bare = await bareNats(natsUrl);
    const hop = await hopBenchmark(natsUrl);
    const floor = await fabricFloor(natsUrl, nats.pid!, cpuMs);
    // COTA_BENCH_MODES=distributed (or embedded) runs one mode only, for quick comparisons while profiling.
    const modes = (process.env.COTA_BENCH_MODES ?? 'distributed,embedded').split(',');
    const dist = modes.includes('distributed') ? await distributed({ natsUrl, natsPid: nats.pid! }) : { runs: [], canned: [] };
    const runs = [...dist.runs, ...(modes.includes('embedded') ? await embedded() : [])];
    const machine = { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version };
    const report = {
      at: new Date().toISOString(),
      machine,
      duration_s: DURATION_S,
      mix: MIX,
      targets: TARGETS,
      bare_nats: bare,
      hop,
      fabric_floor: floor,
      framework_floor: { question: FLOOR_QUESTION, runs: dist.canned },
      runs,
      verdicts: verdicts(runs, hop),
    };
    const dir = join(repoRoot(), 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'load.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(dir, 'load.svg'), await renderLoadChart(runs, bare.p50_ms));
    process.stdout.write(`machine: ${machine.cpus} cores (${machine.model}), Node ${machine.node}; ${DURATION_S} s per run\n`);
    process.stdout.write(`bare NATS round trip: p50 ${bare.p50_ms} ms, p99 ${bare.p99_ms} ms\n`);
    process.stdout.write(`one hop, raw nats.js ${hop.raw_p50_ms} ms vs Bus through the Nest strategy ${hop.nest_p50_ms} ms (p50)\n`);
    process.stdout.write(
      `fabric floor (raw nats.js, ${floor.calls} calls + ${floor.events} events per question, 32 in flight, no HTTP/JSON/validation/handlers): ` +
        `${floor.questions_per_s} questions/s, ${floor.cpu_ms_per_question} ms CPU per question (requester + responder + nats-server)\n\n`,
    );
    process.stdout.write('mode          conns  answers/s  p50 ms  p95 ms  p99 ms  non-2xx  CPU ms/answer (total; per process)\n');
    for (const r of [...runs, ...dist.canned]) {
      process.stdout.write(
        `${r.mode.padEnd(13)} ${String(r.connections).padStart(5)}  ${String(r.rps).padStart(9)}  ${String(r.latency.p50).padStart(6)}  ${String(r.latency.p95).padStart(6)}  ${String(r.latency.p99).padStart(6)}  ${String(r.non2xx).padStart(7)}  ${r.cpu_ms_per_answer.total} (${breakdown(r.cpu_ms_per_answer)}); load generator ${r.load_generator_cpu_ms_per_answer}; ${Math.round((r.latency.p50 / bare.p50_ms) * 10) / 10}x the bare round trip; ` +
          `write syscalls/answer ${r.writes_per_answer.total} (${breakdown(r.writes_per_answer)})\n`,
      );
    }
    const floor32 = dist.canned.find((r) => r.connections === 32);
    if (floor32) {
      // On CPU-bound cores, answers/s cannot pass cores × 1000 / (CPU ms per answer, load generator included).
      const ceiling = Math.round((machine.cpus * 1000) / (floor32.cpu_ms_per_answer.total + floor32.load_generator_cpu_ms_per_answer));
      process.stdout.write(
        `\ncanned: the six services behind the gateway answer replies recorded for '${FLOOR_QUESTION}' (same strategy, validation, ` +
          `bulkheads, step events, HTTP, rate limit; no domain work): ${floor32.cpu_ms_per_answer.total} ms CPU per answer, ` +
          `so at most ~${ceiling} answers/s on ${machine.cpus} cores before any domain code runs\n`,
      );
    }
    process.stdout.write(`\n${report.verdicts.join('\n')}\n\nwritten: bench/results/load.json, bench/results/load.svg\n`);
  } finally {
    nats.kill('SIGTERM');
  }
}

main().catch((e) => {
  process.stderr.write(`bench:load failed: ${(e as Error).message}\n`);
  process.exit(1);
});
