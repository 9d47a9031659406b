import 'reflect-metadata';
import { loadEnv } from '@cota/config';
import { NarrateRequest, NarratorSubjects, TelemetryEvent } from '@cota/contracts';
import { Bus, NatsTransport } from '@cota/messaging';
import { loadNarratorPolicy } from '@cota/narration';
import { RunningService, startService } from '@cota/service-kit';
import { FakeChatRequest, FakeOpenAi, startFakeOpenAi, startTestNats, TestNats } from '@cota/test-support';
import { createNarratorService } from '../../apps/narrator/src/narrator.service';
import { realResult, tickerRecords } from '../../libs/narration/src/testing/real-rows';
import { narrateRequest } from '../../libs/narration/src/testing/requests';

/**
 * The narrator service over a real NATS server, talking to a local OpenAI-compatible server
 * through the `openai` SDK: a model that rephrases faithfully, one that invents a number, one that
 * hangs, one that fails and one that returns garbage. Whatever the model does, the person gets a
 * correct answer in time, and meta.narrator says what happened.
 */

const policy = loadNarratorPolicy();
let nats: TestNats;
let fake: FakeOpenAi;
let transport: NatsTransport;
let bus: Bus;
let service: RunningService | null = null;
const events: TelemetryEvent[] = [];

const dividend = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date')[0];
const data = realResult('fiis_dividendos', [dividend], { ticker: 'ABCP11', agg: 'latest' });
const DETERMINISTIC = 'Último dividendo do ABCP11: R$ 0,65 por cota, com data-com em 31/10/2025 e pagamento em 07/11/2025.';

/** The fake model's behaviour is chosen by a marker in the question. */
function behaviour(req: FakeChatRequest) {
  const prompt = req.messages.map((m) => m.content).join('\n');
  if (prompt.includes('[inventa]')) return { reply: 'O ABCP11 pagou R$ 0,81 por cota, com data-com em 31/10/2025.' };
  if (prompt.includes('[trava]')) return { hang: true as const };
  if (prompt.includes('[erro]')) return { status: 500 };
  if (prompt.includes('[lixo]')) return { garbage: '<html>upstream error' };
  return { reply: 'O ABCP11 pagou R$ 0,65 por cota: data-com em 31/10/2025 e pagamento em 07/11/2025.' };
}

const ask = (question: string, over: Partial<NarrateRequest> = {}) =>
  bus.call(NarratorSubjects.narrate, narrateRequest({ question, data, request_id: `req-${events.length}-${Math.random()}`, ...over }));

async function startNarrator(withModel: boolean): Promise<void> {
  await service?.stop();
  const env = loadEnv({
    NATS_URL: nats.url,
    ...(withModel ? { OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'fake-narrator' } : {}),
  });
  service = await startService(createNarratorService(), env);
}

beforeAll(async () => {
  nats = await startTestNats();
  fake = await startFakeOpenAi(behaviour);
  transport = await NatsTransport.connect({ url: nats.url, name: 'narrator-test' });
  bus = new Bus(transport, 'gateway');
  bus.listen('cota.events.narrator.>', (_s, payload) => events.push(payload as TelemetryEvent));
});

afterAll(async () => {
  await service?.stop();
  await transport?.drain();
  await fake?.close();
  await nats?.stop();
});

describe('without a model configured', () => {
  beforeAll(() => startNarrator(false));

  it('answers deterministically and says why', async () => {
    const res = await ask('Qual o último dividendo do ABCP11?');
    expect(res.answer).toBe(`${DETERMINISTIC}\n\nFonte: CVM/B3, dados até 31/10/2025.`);
    expect(res.narrator).toMatchObject({ llm_used: false, reason: 'llm_not_configured', model: null });
    expect(fake.requests).toHaveLength(0);
  });

  it('rejects a malformed request with a typed error instead of crashing', async () => {
    await expect(bus.call(NarratorSubjects.narrate, { question: 'x' } as unknown as NarrateRequest)).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    const res = await ask('oi', { kind: 'smalltalk', smalltalk: 'greeting', nickname: 'Bia', data: null });
    expect(res.answer).toMatch(/^Olá, Bia!/);
  });
});

describe('with a model behind an OpenAI-compatible endpoint', () => {
  beforeAll(() => startNarrator(true));

  it('uses a faithful rephrasing', async () => {
    const res = await ask('Qual o último dividendo do ABCP11?');
    expect(res.narrator).toMatchObject({ llm_used: true, reason: 'llm_ok', model: 'fake-narrator' });
    expect(res.answer).toBe('O ABCP11 pagou R$ 0,65 por cota: data-com em 31/10/2025 e pagamento em 07/11/2025.\n\nFonte: CVM/B3, dados até 31/10/2025.');
    const sent = fake.requests.at(-1)!;
    expect(sent.model).toBe('fake-narrator');
    expect(sent.messages[1].content).toContain(DETERMINISTIC);
  });

  it('never lets an invented number reach the person', async () => {
    const res = await ask('Qual o último dividendo do ABCP11? [inventa]');
    expect(res.narrator).toMatchObject({ llm_used: false, reason: 'guard_rejected:0,81', model: 'fake-narrator' });
    expect(res.answer).not.toContain('0,81');
    expect(res.answer).toContain(DETERMINISTIC);
  });

  it('returns the deterministic answer within the time limit when the model hangs', async () => {
    const started = Date.now();
    const res = await ask('Qual o último dividendo do ABCP11? [trava]');
    const took = Date.now() - started;
    expect(res.narrator).toMatchObject({ llm_used: false, reason: 'llm_timeout' });
    expect(res.answer).toContain(DETERMINISTIC);
    expect(took).toBeGreaterThanOrEqual(policy.llm.timeout_ms - 50);
    expect(took).toBeLessThan(policy.llm.timeout_ms + 1000);
  });

  it('falls back on an HTTP error and on a garbage body', async () => {
    for (const marker of ['[erro]', '[lixo]']) {
      const res = await ask(`Qual o último dividendo do ABCP11? ${marker}`);
      expect(res.narrator).toMatchObject({ llm_used: false, reason: 'llm_error' });
      expect(res.answer).toContain(DETERMINISTIC);
    }
  });

  it('keeps private client data away from the model', async () => {
    const before = fake.requests.length;
    const positions = realResult('client_fiis_positions', [], {});
    const res = await ask('Minha posição', { data: { ...positions, rows: [{ ticker: 'ABCP11', quantity: 10 }] }, entity: 'client_fiis_positions' });
    expect(res.narrator.reason).toBe('entity_not_allowed');
    expect(fake.requests.length).toBe(before);
  });

  it('publishes a telemetry event per answer, with why the model was or was not used', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const reasons = events.filter((e) => e.event === 'narrated').map((e) => e.attributes.reason);
    expect(reasons).toEqual(expect.arrayContaining(['llm_not_configured', 'llm_ok', 'guard_rejected:0,81', 'llm_timeout', 'llm_error', 'entity_not_allowed']));
    const one = events.find((e) => e.attributes.reason === 'llm_ok')!;
    expect(one).toMatchObject({ service: 'narrator', outcome: 'ok', conversation_hash: null });
    expect(one.attributes).toMatchObject({ kind: 'entity', entity: 'fiis_dividendos', llm_used: true, model: 'fake-narrator' });
  });
});
