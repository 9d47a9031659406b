/** A tiny benchmark runner: warm-up, timed iterations, percentiles, memory. Targets are checked here, not in unit tests. */
export interface Benchmark {
  name: string;
  run: () => unknown;
  /** Optional target for the mean, in milliseconds; the report flags a miss. */
  targetMeanMs?: number;
}

export interface BenchResult {
  name: string;
  iterations: number;
  mean_ms: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  ops_per_s: number;
  target_mean_ms: number | null;
  met: boolean | null;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function runBenchmark(b: Benchmark, opts: { minIterations?: number; minMs?: number } = {}): Promise<BenchResult> {
  const minIterations = opts.minIterations ?? 200;
  const minMs = opts.minMs ?? 1000;
  for (let i = 0; i < Math.min(50, minIterations); i++) await b.run(); // warm-up (JIT, caches)
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < minIterations || performance.now() - started < minMs) {
    const t = performance.now();
    await b.run();
    samples.push(performance.now() - t);
    if (samples.length >= 1_000_000) break;
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((s, x) => s + x, 0) / samples.length;
  const r = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    name: b.name,
    iterations: samples.length,
    mean_ms: r(mean),
    p50_ms: r(pct(sorted, 50)),
    p95_ms: r(pct(sorted, 95)),
    p99_ms: r(pct(sorted, 99)),
    ops_per_s: Math.round(1000 / mean),
    target_mean_ms: b.targetMeanMs ?? null,
    met: b.targetMeanMs === undefined ? null : mean <= b.targetMeanMs,
  };
}

export function formatResults(results: BenchResult[]): string {
  const head = ['benchmark', 'iter', 'mean ms', 'p50', 'p95', 'p99', 'ops/s', 'target'];
  const rows = results.map((r) => [
    r.name,
    String(r.iterations),
    r.mean_ms.toFixed(4),
    r.p50_ms.toFixed(4),
    r.p95_ms.toFixed(4),
    r.p99_ms.toFixed(4),
    String(r.ops_per_s),
    r.target_mean_ms === null ? '' : `${r.met ? 'ok' : 'MISSED'} (<= ${r.target_mean_ms})`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
