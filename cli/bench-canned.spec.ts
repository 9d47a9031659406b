import 'reflect-metadata';
import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CotaError, Events, RagSubjects, ResponseOf } from '@cota/contracts';
import { Bus, BusServer, InProcessTransport } from '@cota/messaging';
import { cannedService } from './bench-canned';

const recorded: ResponseOf<typeof RagSubjects.retrieve> = {
  enabled: false,
  reason: 'not_needed',
  used_collections: [],
  chunks: [],
  total_chunks: 0,
  policy: null,
  error: null,
};

describe('canned service (the benchmark framework floor)', () => {
  let transport: InProcessTransport;
  let app: INestMicroservice;
  let bus: Bus;

  beforeEach(async () => {
    transport = new InProcessTransport();
    bus = new Bus(transport, 'rag');
    const def = cannedService('rag', { [RagSubjects.retrieve.subject]: recorded });
    app = await NestFactory.createMicroservice(def.module({} as never), { strategy: new BusServer(bus), logger: false });
    await app.listen();
  });
  afterEach(() => app.close());

  it('answers the recorded reply through a decorated handler and publishes the real step event', async () => {
    const events: string[] = [];
    const listening = bus.listen('cota.events.>', (subject) => events.push(subject));
    const reply = await bus.call(RagSubjects.retrieve, { request_id: 'r1', question: 'Qual o CNPJ do HGLG11?', intent: 'cadastro', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    expect(reply).toEqual(recorded);
    await new Promise((r) => setImmediate(r));
    expect(events).toContain(Events.ragRetrieved.subject);
    listening.unsubscribe();
  });

  it('still validates each request as the real service does', async () => {
    const error = await bus.call(RagSubjects.retrieve, { request_id: 'r2' } as never).catch((e: unknown) => e);
    expect(CotaError.is(error) && error.code).toBe('INVALID_MESSAGE');
  });

  it('serves only the subjects it has replies for', async () => {
    const other = new InProcessTransport();
    const otherBus = new Bus(other, 'rag');
    const empty = await NestFactory.createMicroservice(cannedService('rag', {}).module({} as never), { strategy: new BusServer(otherBus), logger: false });
    await empty.listen();
    try {
      const error = await otherBus.call(RagSubjects.retrieve, { request_id: 'r3', question: 'x', intent: 'cadastro', entity: null, tickers: [] }).catch((e: unknown) => e);
      expect(CotaError.is(error) && error.code).toBe('UNAVAILABLE');
    } finally {
      await empty.close();
    }
  });
});
