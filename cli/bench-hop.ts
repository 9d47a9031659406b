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

async function sequential(n: number, call: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n + 500; i++) {
    const t = performance.now();
    await call();
    if (i >= 500) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The per-hop cost of the Nest transport strategy against raw nats.js, on the same NATS server. */
export async function hopBenchmark(natsUrl: string, n = 3000): Promise<HopResult> {
  const sc = StringCodec();
  const raw = await connect({ servers: natsUrl });
  const sub = raw.subscribe('bench.raw.hop', { queue: 'bench' });
  void (async () => {
    for await (const m of sub) m.respond(sc.encode(JSON.stringify(JSON.parse(sc.decode(m.data)))));
  })();
  const rawP50 = await sequential(n, async () => JSON.parse(sc.decode((await raw.request('bench.raw.hop', sc.encode(JSON.stringify(PAYLOAD)), { timeout: 2000 })).data)));
  await raw.drain();

  const transport = await NatsTransport.connect({ url: natsUrl, name: 'cota-bench-hop' });
  const bus = new Bus(transport, 'planner');
  const app = await NestFactory.createMicroservice(HopModule, { strategy: new BusServer(bus), logger: false });
  await app.listen();
  const nestP50 = await sequential(n, () => bus.call(echo, PAYLOAD));
  await app.close();
  await transport.drain();
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { raw_p50_ms: r(rawP50), nest_p50_ms: r(nestP50), ratio: Math.round((nestP50 / rawP50) * 100) / 100 };
}
