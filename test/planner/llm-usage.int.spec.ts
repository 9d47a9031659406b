import { loadEnv } from '@cota/config';
import { createLlmClient } from '@cota/llm';
import { BusMetrics } from '@cota/messaging';
import { FakeOpenAi, startFakeOpenAi } from '@cota/test-support';

/** The tokens the model API reports reach `cota_llm_tokens_total` (against the local fake server). */
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi(() => ({ reply: '{"entity": null}' }));
});

afterAll(async () => {
  await fake?.close();
});

it('counts prompt and completion tokens per service', async () => {
  const metrics = new BusMetrics();
  const llm = createLlmClient(loadEnv({ OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'fake' }).openai, metrics.llmUsage('planner'))!;
  await llm.complete([{ role: 'user', content: 'oi' }], { timeoutMs: 5000 });
  await llm.complete([{ role: 'user', content: 'oi' }], { timeoutMs: 5000 });
  const text = await metrics.registry.metrics();
  expect(text).toMatch(/cota_llm_tokens_total\{service="planner",kind="prompt"\} 2/);
  expect(text).toMatch(/cota_llm_tokens_total\{service="planner",kind="completion"\} 2/);
  const lookup = metrics.cacheLookup('gateway', 'api_keys');
  lookup(true);
  lookup(false);
  expect(await metrics.registry.metrics()).toMatch(/cota_cache_requests_total\{service="gateway",cache="api_keys",result="hit"\} 1/);
});
