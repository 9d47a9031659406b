import 'reflect-metadata';
import { CotaError, Events, ExecutorSubjects, HealthSubjects, PlannerSubjects, TelemetryEvent } from '@cota/contracts';
import { dataDir, loadEnv } from '@cota/config';
import { Bus, NatsTransport, TransportSubscription } from '@cota/messaging';
import { readFundTickers } from '@cota/planning';
import { RunningService, startService } from '@cota/service-kit';
import { FakeOpenAi, startFakeOpenAi, startTestNats, TestNats } from '@cota/test-support';
import { plannerServiceWith } from '../../apps/planner/src/planner.service';

const caller = (n: number) => ({ request_id: `req-${n}`, client_id: 'client-1', conversation_id: 'conv-1' });

async function until(check: () => Promise<boolean>, timeoutMs = 15000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

describe('planner service over NATS', () => {
  let nats: TestNats;
  let fake: FakeOpenAi;
  let service: RunningService;
  let client: NatsTransport;
  let bus: Bus;
  let executor: TransportSubscription | null = null;
  const events: TelemetryEvent[] = [];

  beforeAll(async () => {
    nats = await startTestNats();
    fake = await startFakeOpenAi(() => ({ reply: '{"entity":"client_fiis_performance_vs_benchmark_summary","confidence":0.7}' }));
    const env = loadEnv({ NATS_URL: nats.url, OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'test-key', OPENAI_MODEL: 'fake' });
    client = await NatsTransport.connect({ url: nats.url, name: 'planner-test' });
    bus = new Bus(client, 'gateway');
    bus.listen('cota.events.planner.>', (_s, payload) => events.push(payload as TelemetryEvent));
    // No executor yet: the planner must start, keep retrying for the fund list and answer meanwhile.
    service = await startService(plannerServiceWith({ funds: { retryMs: 100, maxRetryMs: 300 } }), env);
  });

  afterAll(async () => {
    executor?.unsubscribe();
    await service?.stop();
    await client?.drain();
    await fake?.close();
    await nats?.stop();
  });

  it('answers with tickers by pattern while the fund list is missing, and readiness says so', async () => {
    const health = await bus.call(HealthSubjects.planner, {});
    expect(health.ok).toBe(false);
    expect(health.checks.funds).toMatchObject({ ok: false });
    expect(health.checks.nats).toMatchObject({ ok: true });

    const plan = await bus.call(PlannerSubjects.plan, { ...caller(1), question: 'Qual o CNPJ do ABCD11?' });
    expect(plan).toMatchObject({ kind: 'entity', entity: 'fiis_cadastro', tickers_in_text: ['ABCD11'] });
    expect(plan.planner.reason).toMatch(/fund list not loaded/);
  });

  it('loads the fund list from the executor once it answers, then knows prefixes and unknown tickers', async () => {
    const funds = readFundTickers(dataDir()).map((ticker) => ({ ticker, name: null, cnpj: null }));
    executor = new Bus(client, 'executor').serve(ExecutorSubjects.funds, () => ({ funds }));
    await until(async () => (await bus.call(HealthSubjects.planner, {})).ok);

    const plan = await bus.call(PlannerSubjects.plan, { ...caller(2), question: 'Como está o preço do VINO agora? E do ABCD11?' });
    expect(plan.entity).toBe('fiis_precos');
    expect(plan.tickers_in_text).toEqual(['VINO11']);
    expect(plan.unknown_tickers).toEqual(['ABCD11']);
    expect(plan.planner.reason).not.toMatch(/fund list not loaded/);
  });

  it('plans with parameters and explains the decision without calling the model', async () => {
    const before = fake.requests.length;
    const plan = await bus.call(PlannerSubjects.plan, { ...caller(3), question: 'média dos últimos 6 meses de dividendos do KNRI11' });
    // A measure over a period: computed by the measure path, still routed to its entity (meta.entity).
    expect(plan).toMatchObject({ kind: 'measure', intent: 'fiis_dividendos', entity: 'fiis_dividendos', question: { measure: 'dividend', agg: 'avg' } });
    expect(plan.params).toMatchObject({ ticker: 'KNRI11', agg: 'avg', window: 'months:6' });
    expect(plan.planner).toMatchObject({ accepted: true, llm_used: false });
    expect(fake.requests.length).toBe(before);
  });

  it('asks the model only when the deterministic planner cannot accept, with structured output', async () => {
    const plan = await bus.call(PlannerSubjects.plan, { ...caller(4), question: 'carteira vs cdi' });
    expect(plan).toMatchObject({ kind: 'entity', entity: 'client_fiis_performance_vs_benchmark_summary' });
    expect(plan.planner).toMatchObject({ llm_used: true, accepted: true });
    const last = fake.requests[fake.requests.length - 1];
    expect(last.response_format).toEqual({ type: 'json_object' });
    expect(last.messages[1]).toEqual({ role: 'user', content: 'carteira vs cdi' });
  });

  it('keeps the deterministic outcome when the model invents an entity or fails', async () => {
    fake.setBehaviour(() => ({ reply: '{"entity":"fiis_secret_table"}' }));
    const invented = await bus.call(PlannerSubjects.plan, { ...caller(5), question: 'carteira vs cdi' });
    expect(invented.kind).toBe('clarification');
    expect(invented.planner.reason).toMatch(/not in the catalog/);

    fake.setBehaviour(() => ({ status: 500 }));
    const failed = await bus.call(PlannerSubjects.plan, { ...caller(6), question: 'carteira vs cdi' });
    expect(failed.kind).toBe('clarification');
    expect(failed.planner.reason).toMatch(/HTTP 500/);
  });

  it('publishes planner telemetry without the question text', async () => {
    await until(async () => events.some((e) => e.request_id === 'req-3'));
    const ev = events.find((e) => e.request_id === 'req-3')!;
    expect(ev).toMatchObject({ service: 'planner', event: 'planned', outcome: 'ok' });
    expect(ev.attributes).toMatchObject({ kind: 'measure', entity: 'fiis_dividendos', accepted: true, llm_used: false });
    expect(ev.conversation_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(ev)).not.toMatch(/KNRI11|conv-1/);
    expect(Events.plannerPlanned.subject).toBe('cota.events.planner.planned.v1');
  });

  it('flags an elliptic follow-up and leaves its subject to the conversation instead of asking the model', async () => {
    fake.setBehaviour(() => ({ reply: '{"entity":"fiis_precos"}' }));
    const before = fake.requests.length;
    const plan = await bus.call(PlannerSubjects.plan, { ...caller(8), question: 'e em 2023?' });
    expect(plan).toMatchObject({ elliptic: true, kind: 'unknown', entity: null });
    expect(plan.planner).toMatchObject({ accepted: false, llm_used: false });
    expect(plan.planner.reason).toMatch(/elliptic follow-up: llm fallback not asked/);
    expect(fake.requests.length).toBe(before);
    const own = await bus.call(PlannerSubjects.plan, { ...caller(9), question: 'e o dividendo do KNRI11?' });
    expect(own).toMatchObject({ elliptic: false, entity: 'fiis_dividendos' });
  });

  it('rejects an invalid request with a typed error naming the field', async () => {
    await expect(
      client.request(PlannerSubjects.plan.subject, JSON.stringify({ ...caller(7) }), 5000).then((raw) => {
        const reply = JSON.parse(raw);
        if (!reply.ok) throw CotaError.fromWire(reply.error);
        return reply;
      }),
    ).rejects.toMatchObject({ code: 'INVALID_MESSAGE', message: expect.stringContaining("'question'") });
  });
});
