import './register-paths';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@cota/config';
import { freePort } from './scratch';

/**
 * `npm run bench:start` (issue 30): how long `npm start` takes, a second time with nothing changed,
 * to print "Cota pronta" in embedded mode (the developer loop: the build is skipped when it is up
 * to date and the warehouse in `.cota/` is reused). A first start warms up (it may build and ingest);
 * then COTA_BENCH_STARTS (3) timed starts, and the no-op `npm run build` alone. Writes
 * bench/results/start.json. Stop any `npm start` of this checkout first: they share `.cota/`.
 */
const TARGET_MS = 8000;
const STARTS = Number(process.env.COTA_BENCH_STARTS ?? 3);
/** Embedded mode: none of the servers' variables. */
const EMBEDDED_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['NATS_URL', 'DATABASE_URL', 'REDIS_URL'].includes(k)));

/** Milliseconds from spawning `npm start` to its "Cota pronta"; the process group is stopped after. */
async function timedStart(port: number): Promise<number> {
  const began = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: repoRoot(), env: { ...EMBEDDED_ENV, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start not ready in 15 min:\n${output.slice(-2000)}`)), 15 * 60_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Cota pronta')) {
        clearTimeout(timer);
        resolve(performance.now() - began);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGINT'); // npm, its shell and node: the whole group
  await exited;
  return ready;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const port = await freePort();
  const load_before = loadavg()[0];
  process.stdout.write('warm-up start (may build and ingest)...\n');
  const warmup_ms = await timedStart(port);
  const starts_ms: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    starts_ms.push(await timedStart(port));
    process.stdout.write(`start ${i + 1}: ${(starts_ms[i] / 1000).toFixed(2)} s\n`);
  }
  const b = performance.now();
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot(), stdio: 'ignore' });
  const build_noop_ms = performance.now() - b;
  if (build.status !== 0) throw new Error('npm run build failed');
  const report = {
    when: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, load_1m_before: load_before, load_1m_after: loadavg()[0] },
    target_ms: TARGET_MS,
    warmup_ms: Math.round(warmup_ms),
    starts_ms: starts_ms.map(Math.round),
    median_ms: Math.round(median(starts_ms)),
    build_noop_ms: Math.round(build_noop_ms),
    met: median(starts_ms) < TARGET_MS,
  };
  const dir = join(repoRoot(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'start.json'), JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(
    `\nsecond start ready in ${(report.median_ms / 1000).toFixed(2)} s (median of ${STARTS}; target < ${TARGET_MS / 1000} s: ${report.met ? 'met' : 'MISSED'}), ` +
      `no-op build ${(report.build_noop_ms / 1000).toFixed(2)} s, load ${load_before.toFixed(1)} on ${cpus().length} cores\nwritten: bench/results/start.json\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
