import { burst, expectOnlyDocumented503s } from './burst';
import { Cluster, DEMO, startCluster } from './cluster';

/**
 * The whole system over real NATS, Postgres and Redis: the seven services as separate NATS
 * clients (the planner as its own OS process, so it can really be killed).
 */
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({ asProcesses: ['planner'] });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('POST /ask end to end', () => {
  it('answers the HGLG11 CNPJ in the contract shape', async () => {
    const { status, body } = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'cnpj-1' });
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', results: expect.any(Object), meta: expect.any(Object), answer: expect.any(String) });
    expect(body.answer).toContain('11.728.688/0001-47');
    expect(JSON.stringify(body.results)).toContain('11.728.688/0001-47');
    expect(body.meta).toMatchObject({
      request_id: expect.any(String),
      intent: 'fiis_cadastro',
      entity: 'fiis_cadastro',
      params: { ticker: 'HGLG11', tickers: ['HGLG11'] },
      context: { last_reference_used: false, reason: expect.any(String) },
      planner: { accepted: true, score: expect.any(Number), gap: expect.any(Number), candidates: expect.any(Array) },
      rag: expect.objectContaining({ enabled: expect.any(Boolean) }),
      narrator: expect.objectContaining({ llm_used: false }),
      timings_ms: expect.objectContaining({ total: expect.any(Number) }),
    });
    for (const k of ['agg', 'window', 'limit', 'order']) expect(body.meta.params).toHaveProperty(k);
  });

  it('follows the conversation: registry -> risk -> overview inherit HGLG11', async () => {
    const conversation = 'flow-seed-000';
    await cluster.ask('CNPJ do HGLG11?', { conversation });
    const risk = await cluster.ask('Esse fundo tem Sharpe bom?', { conversation });
    expect(risk.body.meta).toMatchObject({ entity: 'fiis_financials_risk', params: { ticker: 'HGLG11' }, context: { last_reference_used: true } });
    const overview = await cluster.ask('E o overview dele?', { conversation });
    expect(overview.body.meta).toMatchObject({ entity: 'fii_overview', params: { ticker: 'HGLG11' }, context: { last_reference_used: true } });
    expect(overview.body.answer).toContain('HGLG11');
  });

  it('keeps the subject of an elliptic follow-up: "E o do XPML11?" after a P/VP question', async () => {
    const conversation = 'elliptic-1';
    await cluster.ask('Qual o P/VP do VISC11?', { conversation });
    const next = await cluster.ask('E o do XPML11?', { conversation });
    expect(next.body.status).toBe('ok');
    expect(next.body.meta).toMatchObject({ entity: 'fiis_financials_snapshot', params: { ticker: 'XPML11' } });
    expect(next.body.answer).toContain('XPML11');
  });

  it('keeps the filters of the previous answer in a follow-up: "e em 2023?" after the IPCA of 2024', async () => {
    const conversation = 'elliptic-2';
    const first = await cluster.ask('Qual foi o IPCA em 2024?', { conversation });
    expect(first.body.meta).toMatchObject({ entity: 'history_market_indicators', params: { filters: { indicator: 'IPCA' }, window: 'year:2024' } });
    const next = await cluster.ask('e em 2023?', { conversation });
    expect(next.body.status).toBe('ok');
    expect(next.body.meta).toMatchObject({ entity: 'history_market_indicators', params: { filters: { indicator: 'IPCA' }, window: 'year:2023' } });
  });

  it('keeps conversations of different clients apart, even with the same conversation_id', async () => {
    await cluster.ask('CNPJ do KNRI11?', { conversation: 'shared-id', who: 'ana' });
    const bia = await cluster.ask('Esse fundo tem Sharpe bom?', { conversation: 'shared-id', who: 'bia' });
    expect(bia.body.meta.context.last_reference_used).toBe(false);
    expect(bia.body.status).toBe('needs_clarification');
  });

  it('shows a client only its own history', async () => {
    const mine = await fetch(`${cluster.baseUrl}/conversations/shared-id/history`, { headers: { authorization: `Bearer ${DEMO.ana.key}` } });
    const body = (await mine.json()) as { turns: Array<{ content: string }> };
    expect(mine.status).toBe(200);
    expect(body.turns.map((t: { content: string }) => t.content)).toContain('CNPJ do KNRI11?');
    const theirs = await (await fetch(`${cluster.baseUrl}/conversations/shared-id/history`, { headers: { authorization: `Bearer ${DEMO.bia.key}` } })).json();
    expect(JSON.stringify(theirs)).not.toContain('KNRI11?');
  });
});

describe('HTTP errors', () => {
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${cluster.baseUrl}/ask`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const auth = { authorization: `Bearer ${DEMO.ana.key}` };
  const valid = { question: 'oi', conversation_id: 'e', nickname: 'Ana', client_id: DEMO.ana.clientId };

  it.each([
    ['no key', JSON.stringify(valid), {}, 401],
    ['unknown key', JSON.stringify(valid), { authorization: 'Bearer chave-que-nao-existe' }, 401],
    ['another client', JSON.stringify({ ...valid, client_id: DEMO.bia.clientId }), auth, 403],
    ['extra field', JSON.stringify({ ...valid, ticker: 'HGLG11' }), auth, 400],
    ['missing field', JSON.stringify({ question: 'oi', conversation_id: 'e', client_id: DEMO.ana.clientId }), auth, 400],
    ['bad JSON', '{', auth, 400],
    ['too large', JSON.stringify({ ...valid, question: 'x'.repeat(20_000) }), auth, 413],
  ])('%s -> %d with a JSON error body', async (_label, body, headers, expected) => {
    const res = await post(body, headers as Record<string, string>);
    expect(res.status).toBe(expected);
    const json = (await res.json()) as Record<string, unknown>;
    expect(json).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    expect(JSON.stringify(json)).not.toMatch(/at \w+ \(|SELECT|node_modules/);
  });

  it('names the missing field', async () => {
    const res = await post(JSON.stringify({ question: 'oi', conversation_id: 'e', client_id: DEMO.ana.clientId }), auth);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('nickname');
  });
});

describe('health and metrics', () => {
  it('is live and ready with real pings of NATS, Postgres and Redis', async () => {
    expect((await fetch(`${cluster.baseUrl}/health/live`)).status).toBe(200);
    const ready = await fetch(`${cluster.baseUrl}/health/ready`);
    const body = (await ready.json()) as { checks: unknown; services: Record<string, { ok: boolean }> };
    expect(ready.status).toBe(200);
    expect(body.checks).toMatchObject({ nats: { ok: true }, postgres: { ok: true }, redis: { ok: true } });
    expect(body.services.planner.ok).toBe(true);
  });

  it('exposes Prometheus metrics to the ops token (COTA_OPS_TOKEN is set here)', async () => {
    expect((await fetch(`${cluster.baseUrl}/metrics`)).status).toBe(401);
    const text = await (await fetch(`${cluster.baseUrl}/metrics`, { headers: { authorization: `Bearer ${cluster.env.COTA_OPS_TOKEN}` } })).text();
    expect(text).toContain('cota_ask_duration_seconds');
    expect(text).toContain('cota_http_requests_total');
  });
});

describe('a burst of 200 concurrent questions', () => {
  it('is answered with no 5xx other than documented 503s (with Retry-After), and no valid key refused', async () => {
    const who = ['ana', 'bia'] as const;
    const outcome = await burst(
      200,
      async (question, c, conversation) => {
        const res = await cluster.ask(question, { conversation, who: who[c] });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body };
      },
      who.length,
    );
    expectOnlyDocumented503s('distributed burst of 200', outcome);
  }, 120_000);
});

describe('a service that dies', () => {
  it('answers 503 naming the service while the planner is down, and recovers when it is back', async () => {
    const planner = cluster.processes.get('planner')!;
    await new Promise<void>((resolve) => {
      planner.once('exit', () => resolve());
      planner.kill('SIGKILL');
    });
    const down = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'outage' });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('service_unavailable');
    expect(down.body.error.message).toContain('planner');
    expect(down.headers.get('retry-after')).toBeTruthy();

    await cluster.spawnService('planner');
    const back = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'outage' });
    expect(back.status).toBe(200);
    expect(back.body.answer).toContain('11.728.688/0001-47');
  });
});

describe('the message bus goes away', () => {
  it('answers 503 while NATS is down and recovers when it is back, without restarting anything', async () => {
    await cluster.nats.stop();
    await new Promise((r) => setTimeout(r, 300)); // clients notice the disconnect
    const down = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'nats-outage' });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('service_unavailable');
    expect(down.body.error.message).toContain('NATS');
    const ready = await fetch(`${cluster.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);

    await cluster.nats.start();
    let back = down;
    for (let i = 0; i < 60 && back.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      back = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'nats-outage' });
    }
    expect(back.status).toBe(200);
    expect(back.body.answer).toContain('11.728.688/0001-47');
  });
});
