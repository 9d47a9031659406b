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
import { loadEnv } from '@cota/config';
import { Benchmark, BenchResult, formatResults, runBenchmark } from './bench-harness';
import { cliCommand, commandLineOrExit } from './args';
import { startEmbedded } from './embedded';
import { policiesWithRaisedQuotas } from './scratch';

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
    return {
      name: `bus round trip (${name}, validated both ends)`,
      run: async () => void (await bus.call(echo, { question: 'Qual o CNPJ do HGLG11?' })),
      targetMeanMs: name === 'nats' ? 1 : 0.1,
    };
  });
  return { benchmarks, close: async () => void (await Promise.all(transports.map(([, t]) => t.drain()))) };
}

/**
 * `npm run bench -- --e2e`: whole questions over HTTP against the embedded system (all seven
 * services, in-process bus, in-memory PGlite with the real warehouse).
 */
async function endToEndBenchmarks(): Promise<{ benchmarks: Benchmark[]; close: () => Promise<void> }> {
  const key = 'chave-de-benchmark-0001';
  process.env.COTA_EMBEDDED_STORE = 'memory';
  const dir = policiesWithRaisedQuotas();
  process.env.COTA_POLICIES_DIR = dir;
  const env = loadEnv({ PORT: '0', COTA_DEMO_KEYS: `cliente-demo-1:${key}`, COTA_DATA_DIR: process.env.COTA_DATA_DIR });
  const cota = await startEmbedded({ ...env, port: 3917 });
  let n = 0;
  const ask = (question: string) => async () => {
    const res = await fetch('http://127.0.0.1:3917/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ question, conversation_id: `bench-${n++ % 50}`, nickname: 'Ana', client_id: 'cliente-demo-1' }),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    await res.json();
  };
  return {
    benchmarks: [
      { name: 'ask: CNPJ do HGLG11 (embedded, HTTP)', run: ask('Qual o CNPJ do HGLG11?'), targetMeanMs: 100 },
      { name: 'ask: últimos 12 dividendos do KNRI11 (embedded, HTTP)', run: ask('últimos 12 dividendos do KNRI11'), targetMeanMs: 150 },
      { name: 'ask: top 10 FIIs por DY (embedded, HTTP)', run: ask('top 10 fiis por dy'), targetMeanMs: 150 },
    ],
    close: () => cota.stop(),
  };
}

async function main(): Promise<void> {
  const { opts, args } = commandLineOrExit<{ e2e?: boolean }>(
    cliCommand('npm run bench --', 'Micro-benchmarks de cada camada (e, com --e2e, perguntas de ponta a ponta).')
      .argument('[filtro]', 'só os grupos ou benchmarks cujo nome contém este texto')
      .option('--e2e', 'inclui as perguntas de ponta a ponta (modo embutido)'),
  );
  const e2e = Boolean(opts.e2e);
  const filter = args[0];
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
  if (e2e) {
    const end = await endToEndBenchmarks();
    for (const b of end.benchmarks) results.push(await runBenchmark(b, { minIterations: 100, minMs: 3000 }));
    await end.close();
  }
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
