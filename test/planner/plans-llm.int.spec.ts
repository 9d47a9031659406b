import { loadEnv } from '@cota/config';
import { createLlmClient } from '@cota/llm';
import { loadPlanningPolicies, Planner } from '@cota/planning';
import { FakeOpenAi, startFakeOpenAi } from '@cota/test-support';

/**
 * LLM-written plans against a local OpenAI-compatible server: a valid plan is used as written; a
 * plan that is not JSON, does not fit the schema or fails validation (an unknown tool, a cycle)
 * leaves the deterministic plan in place, and meta says why.
 */
const QUESTION = 'Se eu investir R$ 500 por mês no MXRF11 mantendo o DY atual, quanto terei em 10 anos?';
let fake: FakeOpenAi;
let planner: Planner;

beforeAll(async () => {
  fake = await startFakeOpenAi(() => ({ reply: '{}' }));
  const llm = createLlmClient(loadEnv({ OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'test-key', OPENAI_MODEL: 'fake' }).openai);
  planner = new Planner({ policies: loadPlanningPolicies(), funds: ['MXRF11'], llm });
});

afterAll(async () => {
  await fake?.close();
});

// Without a model: the plan the model's answers are built from (the tables below are made before beforeAll).
const local = new Planner({ policies: loadPlanningPolicies(), funds: ['MXRF11'] });
const deterministic = () => local.planDeterministic(QUESTION).plan!;

describe('plans written by the model', () => {
  it('uses a valid model plan, marked as written by the model', async () => {
    const written = { ...deterministic(), goal: 'projeção escrita pelo modelo' };
    fake.setBehaviour(() => ({ reply: JSON.stringify(written) }));
    const res = await planner.plan(QUESTION);
    expect(res.kind).toBe('plan');
    expect(res.plan).toMatchObject({ source: 'llm', goal: 'projeção escrita pelo modelo' });
    expect(res.planner).toMatchObject({ llm_used: true, reason: expect.stringMatching(/plan written by the model/) });
    // The model saw the format and the facts it may use.
    expect(JSON.stringify(fake.requests.at(-1))).toMatch(/projecao_aportes/);
  });

  it.each([
    ['not JSON', 'claro! aqui vai o plano: passo 1...', /model plan is not JSON/],
    ['off the schema', JSON.stringify({ goal: 'x', steps: [] }), /does not fit the schema/],
    ['an unknown tool', JSON.stringify({ ...planWith({ tool: { name: 'transferir_dinheiro', args: {} } }) }), /'transferir_dinheiro' is not a tool/],
    ['a cycle', JSON.stringify({ ...planWithCycle() }), /cycle/],
  ])('falls back to the deterministic plan when the model plan is %s', async (_what, reply, reason) => {
    fake.setBehaviour(() => ({ reply }));
    const res = await planner.plan(QUESTION);
    expect(res.kind).toBe('plan');
    expect(res.plan).toEqual(deterministic());
    expect(res.planner.reason).toMatch(reason);
  });

  it('falls back when the model does not answer in time', async () => {
    fake.setBehaviour(() => ({ hang: true }) as never);
    const res = await planner.plan(QUESTION);
    expect(res.plan).toEqual(deterministic());
    expect(res.planner.reason).toMatch(/model plan not used: model call failed/);
  }, 30_000);
});

function planWith(tool: Record<string, unknown>) {
  const p = deterministic();
  return { ...p, steps: p.steps.map((s) => (s.kind === 'tool' ? { ...s, ...tool } : s)) };
}

function planWithCycle() {
  const p = deterministic();
  return { ...p, steps: p.steps.map((s) => (s.kind === 'measure' ? { ...s, depends_on: ['projection'] } : s)) };
}
