import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, StringCodec } from 'nats';
import { z } from 'zod';
import { defineRpc, RequestOf } from '@cota/contracts';
import { Bus, BusServer, NatsTransport, RpcHandler } from '@cota/messaging';

/** One request-reply hop with a small question payload, as the services exchange. */
const echo = defineRpc({
  subject: 'cota.bench.hop.v1',
  service: 'planner',
  request: z.object({ request_id: z.string(), question: z.string(), tickers: z.array(z.string()) }),
  response: z.object({ request_id: z.string(), question: z.string(), tickers: z.array(z.string()) }),
});
const PAYLOAD = { request_id: '6f1c2f0e-0d5c-4a3e-9d58-3c2b8b1d7a10', question: 'Qual o CNPJ do HGLG11?', tickers: ['HGLG11'] };

@Controller()
class HopHandlers {
  @RpcHandler(echo)
  hop(req: RequestOf<typeof echo>) {
    return req;
  }
}

@Module({ controllers: [HopHandlers] })
class HopModule {}

export interface HopResult {
  raw_p50_ms: number;
  nest_p50_ms: number;
  /** The Nest strategy's hop over raw nats.js (both JSON both ways; the strategy adds validation, headers, bulkhead, filters). */
  ratio: number;
}

/** Sequential round trips of one kind, timed one by one. */
async function timed(n: number, call: () => Promise<unknown>, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    into.push(performance.now() - t);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The per-hop cost of the Nest transport strategy against raw nats.js, on the same NATS server.
 * The two alternate in short blocks, so a machine that speeds up or slows down during the run
 * (other work on the same cores) weighs on both alike instead of on whichever ran second.
 */
export async function hopBenchmark(natsUrl: string, n = 3000, block = 100): Promise<HopResult> {
  const sc = StringCodec();
  const raw = await connect({ servers: natsUrl });
  const sub = raw.subscribe('bench.raw.hop', { queue: 'bench' });
  void (async () => {
    for await (const m of sub) m.respond(sc.encode(JSON.stringify(JSON.parse(sc.decode(m.data)))));
  })();
  const rawHop = async () => JSON.parse(sc.decode((await raw.request('bench.raw.hop', sc.encode(JSON.stringify(PAYLOAD)), { timeout: 2000 })).data));

  const transport = await NatsTransport.connect({ url: natsUrl, name: 'cota-bench-hop' });
  const bus = new Bus(transport, 'planner');
  const app = await NestFactory.createMicroservice(HopModule, { strategy: new BusServer(bus), logger: false });
  await app.listen();
  const nestHop = () => bus.call(echo, PAYLOAD);
  try {
    await timed(500, rawHop, []); // warm-up: JIT, connections
    await timed(500, nestHop, []);
    const rawTimes: number[] = [];
    const nestTimes: number[] = [];
    for (let done = 0; done < n; done += block) {
      await timed(block, rawHop, rawTimes);
      await timed(block, nestHop, nestTimes);
    }
    const rawP50 = median(rawTimes);
    const nestP50 = median(nestTimes);
    const r = (x: number) => Math.round(x * 1000) / 1000;
    return { raw_p50_ms: r(rawP50), nest_p50_ms: r(nestP50), ratio: Math.round((nestP50 / rawP50) * 100) / 100 };
  } finally {
    await app.close();
    await transport.drain();
    await raw.drain();
  }
}
