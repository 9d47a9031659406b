import { retrievalBenchmarks } from './bench';

// Smoke only: each benchmark runs once without failing. Timings are the bench runner's job.
describe('retrievalBenchmarks', () => {
  it('exports named, runnable benchmarks with targets', async () => {
    const benches = retrievalBenchmarks();
    expect(new Set(benches.map((b) => b.name)).size).toBe(benches.length);
    for (const b of benches) {
      expect(b.targetMeanMs).toBeGreaterThan(0);
      await expect(b.run()).resolves.toBeUndefined();
    }
  });
});
