import { FakeChatRequest, FakeOpenAi, startFakeOpenAi } from '@cota/test-support';
import { Cluster, DEMO, startCluster } from './cluster';

/**
 * Streaming to the chat page over the real system: the narrator uses a model (a local
 * OpenAI-compatible fake), its sentences reach the client as server-sent events only after the
 * guard accepted them, and the final `answer` event carries the whole response.
 */
let cluster: Cluster;
let llm: FakeOpenAi;
let invent = false;

/** A faithful model: rewrites the deterministic answer it was given (or adds an invented figure). */
function behaviour(req: FakeChatRequest) {
  const prompt = req.messages.map((m) => m.content).join('\n');
  const body = /<<<\n([\s\S]*?)\n>>>/.exec(prompt)?.[1] ?? 'Sem dados.';
  const first = body.split('\n')[0];
  return { reply: invent ? `${first} Além disso, o fundo rendeu 47,3% no ano passado. Fim.` : `Resumindo: ${first}` };
}

beforeAll(async () => {
  llm = await startFakeOpenAi(behaviour);
  cluster = await startCluster({ serviceEnv: { narrator: { OPENAI_BASE_URL: llm.baseUrl, OPENAI_MODEL: 'fake-model' } } });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await llm?.close();
});

async function askStream(question: string, conversation: string) {
  const res = await fetch(`${cluster.baseUrl}/ask/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO.ana.key}` },
    body: JSON.stringify({ question, conversation_id: conversation, nickname: 'Ana', client_id: DEMO.ana.clientId }),
  });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'),
    }));
  return { res, events };
}

describe('POST /ask/stream', () => {
  it('streams guarded sentences from the model, then the full answer', async () => {
    invent = false;
    const { res, events } = await askStream('Qual o CNPJ do HGLG11?', 'stream-1');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const deltas = events.filter((e) => e.event === 'delta');
    const final = events.at(-1)!;
    expect(final.event).toBe('answer');
    expect(final.data.meta.narrator).toMatchObject({ llm_used: true, reason: 'llm_ok', model: 'fake-model' });
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.map((d) => d.data.text).join('')).toContain('11.728.688/0001-47');
    expect(final.data.answer).toContain('11.728.688/0001-47');
    expect(Object.keys(final.data).sort()).toEqual(['answer', 'meta', 'results', 'status']);
  });

  it('never streams an invented number: the guard stops the stream and the deterministic answer wins', async () => {
    invent = true;
    const { events } = await askStream('Qual o CNPJ do HGLG11?', 'stream-2');
    const streamed = events
      .filter((e) => e.event === 'delta')
      .map((d) => d.data.text)
      .join('');
    expect(streamed).not.toContain('47,3');
    const final = events.at(-1)!;
    expect(final.event).toBe('answer');
    expect(final.data.meta.narrator.llm_used).toBe(false);
    expect(final.data.meta.narrator.reason).toMatch(/^guard_rejected:/);
    expect(final.data.answer).not.toContain('47,3');
    expect(final.data.answer).toContain('11.728.688/0001-47');
  });

  it('answers a question naming more funds than a comparison takes, on /ask and /ask/stream, with no 5xx', async () => {
    invent = false;
    const funds = ['HGLG11', 'XPML11', 'KNRI11', 'MXRF11', 'VISC11', 'BTLG11', 'HGRU11', 'XPLG11', 'KNCR11', 'RECR11', 'VILG11', 'HGBS11'];
    const question = `Compare o dividend yield de ${funds.join(', ')}`;
    const plain = await cluster.ask(question, { conversation: 'many-funds-1' });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ status: 'needs_clarification', meta: { intent: 'too_many_funds' } });
    expect(plain.body.answer).toMatch(/consigo comparar até 10 fundos por vez; você citou 12\./i);
    const { res, events } = await askStream(question, 'many-funds-2');
    expect(res.status).toBe(200);
    const final = events.at(-1)!;
    expect(final.event).toBe('answer');
    expect(final.data.answer).toContain('você citou 12');
    // Ten funds are still one comparison.
    const ten = await cluster.ask(`Compare o dividend yield de ${funds.slice(0, 10).join(', ')}`, { conversation: 'many-funds-3' });
    expect(ten.status).toBe(200);
    expect(ten.body.meta.intent).not.toBe('too_many_funds');
  });

  it('rejects a bad request with a plain JSON error before streaming', async () => {
    const res = await fetch(`${cluster.baseUrl}/ask/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });
});
