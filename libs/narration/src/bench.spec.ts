import { narrationBenchmarks } from './bench';

// Targets are checked by `npm run bench`; here each benchmark only has to run correctly once.
describe('narrationBenchmarks', () => {
  it('run without error', async () => {
    const benches = narrationBenchmarks();
    expect(benches.map((b) => b.name)).toHaveLength(3);
    for (const b of benches) await b.run();
  });
});
