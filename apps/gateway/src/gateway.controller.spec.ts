import type { Request } from 'express';
import { ApiKeyAuthenticator, hashApiKey, InMemoryApiKeyRepository, InMemoryAskFence, InMemoryRateLimiter, QuotaPolicy } from '@cota/access';
import { CotaError } from '@cota/contracts';
import { Bus, InProcessTransport } from '@cota/messaging';
import type { AskOutput, AskPipeline } from '@cota/orchestration';
import type { Infra } from '@cota/service-kit';
import { AskController } from './gateway.controller';
import { HttpError } from './http/http-error';
import { GatewayMetrics } from './metrics';

const ANA = { clientId: 'cliente-ana', key: 'chave-de-teste-da-ana-0001' };
const quotas = {
  http: { max_body_bytes: 8192, max_question_chars: 2000, ask_deadline_ms: 5000, ready_waits_for_services_s: 0 },
  per_client: { requests_per_minute: 2, requests_per_day: 100 },
} as QuotaPolicy;

/** The /ask controller on an in-process bus, with a pipeline that fails (or answers) as told. */
async function setup(pipelineFails: () => unknown) {
  const bus = new Bus(new InProcessTransport(), 'gateway');
  const infra = { service: 'gateway', bus, database: null, redis: null, embedded: true, env: { opsToken: null } } as unknown as Infra;
  const keys = new InMemoryApiKeyRepository();
  await keys.upsert({ client_id: ANA.clientId, key_hash: hashApiKey(ANA.key), source: 'demo' });
  const pipeline = { ask: async () => pipelineFails() } as unknown as AskPipeline;
  const limiter = new InMemoryRateLimiter(quotas.per_client);
  const fence = new InMemoryAskFence(10_000);
  const controller = new AskController(infra, pipeline, new ApiKeyAuthenticator(keys), limiter, quotas, new GatewayMetrics(), fence);
  const ask = async (): Promise<number> => {
    const req = {
      headers: { authorization: `Bearer ${ANA.key}` },
      rawHeaders: ['Authorization', `Bearer ${ANA.key}`],
      body: { question: 'CNPJ do HGLG11?', conversation_id: 'conversa-1', nickname: 'Ana', client_id: ANA.clientId },
    } as unknown as Request;
    try {
      await controller.ask(req);
      return 200;
    } catch (e) {
      return (e as HttpError).status;
    }
  };
  return { ask, fence };
}

const overloaded = () => {
  throw new CotaError('UNAVAILABLE', 'planner overloaded', { overloaded: true, retry_after_s: 1 }, 'planner');
};
const circuitOpen = () => {
  throw new CotaError('UNAVAILABLE', 'circuit open', { circuit: 'open', retry_after_s: 3 }, 'narrator');
};

describe('POST /ask rate limit', () => {
  it.each([
    ['a service overloaded', overloaded],
    ['a circuit open', circuitOpen],
  ])('does not charge a question shed with 503 (%s)', async (_name, fail) => {
    const { ask } = await setup(fail);
    // Twice the per-minute limit of shed questions: each one is refunded, none is a 429.
    for (let i = 0; i < 4; i++) expect(await ask()).toBe(503);
  });

  it('charges questions that were served, or that failed for another reason', async () => {
    const { ask } = await setup(() => {
      throw new CotaError('TIMEOUT', 'narrator timed out', undefined, 'narrator');
    });
    expect(await ask()).toBe(504);
    expect(await ask()).toBe(504);
    expect(await ask()).toBe(429);
  });

  it('charges answered questions', async () => {
    const answered = { status: 'ok', results: {}, answer: 'ok', meta: { timings_ms: {} } } as unknown as AskOutput;
    const { ask } = await setup(() => answered);
    expect(await ask()).toBe(200);
    expect(await ask()).toBe(200);
    expect(await ask()).toBe(429);
  });
});

describe('POST /ask and the erasure fence', () => {
  it('counts a question running until its pipeline settles, so the erasure waits for it', async () => {
    let finish!: () => void;
    const answered = { status: 'ok', results: {}, answer: 'ok', meta: { timings_ms: {} } } as unknown as AskOutput;
    const { ask, fence } = await setup(() => new Promise((r) => (finish = () => r(answered))));
    const running = ask();
    await new Promise((r) => setTimeout(r, 20));
    expect(await fence.drained([hashApiKey(ANA.key)])).toBe(false);
    finish();
    expect(await running).toBe(200);
    await new Promise((r) => setImmediate(r));
    expect(await fence.drained([hashApiKey(ANA.key)])).toBe(true);
  });

  it('refuses a fenced key with 401 and runs nothing', async () => {
    let ran = 0;
    const { ask, fence } = await setup(() => ran++);
    await fence.fence([hashApiKey(ANA.key)]);
    expect(await ask()).toBe(401);
    expect(ran).toBe(0);
  });
});
