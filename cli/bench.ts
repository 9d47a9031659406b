import './register-paths';
import 'reflect-metadata';
import { z } from 'zod';
import { defineRpc } from '@cota/contracts';
import { Bus, InProcessTransport, NatsTransport, Transport } from '@cota/messaging';
import { conversationBenchmarks } from '@cota/conversation';
import { financeBenchmarks } from '@cota/finance';
import { narrationBenchmarks } from '@cota/narration';
import { planningBenchmarks } from '@cota/planning';
import { retrievalBenchmarks } from '@cota/retrieval';
import { toolGatingBenchmarks } from '@cota/tool-gating';
import { warehouseBenchmarks } from '@cota/warehouse';
import { Benchmark, BenchResult, formatResults, runBenchmark } from './bench-harness';

/**
 * `npm run bench`: latency targets live here, not in unit tests. Library benchmarks come from
 * each library's bench.ts; the bus round trip is measured in-process and over a real NATS server
 * (NATS_URL, default 127.0.0.1:4222) when one is reachable.
 */
const echo = defineRpc({
  subject: 'cota.bench.echo.v1',
  service: 'planner',
  request: z.object({ question: z.string() }),
  response: z.object({ question: z.string() }),
});

async function busBenchmarks(): Promise<{ benchmarks: Benchmark[]; close: () => Promise<void> }> {
  const transports: Array<[string, Transport]> = [['in-process', new InProcessTransport()]];
  const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  try {
    transports.push(['nats', await NatsTransport.connect({ url, name: 'cota-bench' })]);
  } catch {
    process.stderr.write(`(NATS em ${url} indisponível: medindo só o transporte em processo)\n`);
  }
  const benchmarks = transports.map(([name, t]) => {
    const bus = new Bus(t, 'bench');
    bus.serve(echo, (req) => req);
    return { name: `bus round trip (${name}, validated both ends)`, run: async () => void (await bus.call(echo, { question: 'Qual o CNPJ do HGLG11?' })), targetMeanMs: name === 'nats' ? 1 : 0.1 };
  });
  return { benchmarks, close: async () => void (await Promise.all(transports.map(([, t]) => t.drain()))) };
}

async function main(): Promise<void> {
  const filter = process.argv[2];
  const bus = await busBenchmarks();
  const groups: Array<[string, Benchmark[]]> = [
    ['messaging', bus.benchmarks],
    ['planning', planningBenchmarks()],
    ['conversation', conversationBenchmarks()],
    ['narration', narrationBenchmarks()],
    ['retrieval', retrievalBenchmarks()],
    ['tool-gating', toolGatingBenchmarks()],
    ['finance', financeBenchmarks()],
    ['warehouse', warehouseBenchmarks()],
  ];
  const results: BenchResult[] = [];
  for (const [group, list] of groups) {
    if (filter && !group.includes(filter)) continue;
    for (const b of list) results.push(await runBenchmark({ ...b, name: `${group}: ${b.name}` }));
  }
  await bus.close();
  const mem = process.memoryUsage();
  process.stdout.write(formatResults(results) + '\n');
  process.stdout.write(`\nmemory: rss ${(mem.rss / 2 ** 20).toFixed(1)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(1)} MiB\n`);
  const missed = results.filter((r) => r.met === false);
  if (missed.length) process.stdout.write(`targets missed: ${missed.map((r) => r.name).join('; ')}\n`);
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${(e as Error).message}\n`);
  process.exit(1);
});
