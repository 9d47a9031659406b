import { loadEnv } from '@cota/config';
import { runFeedbackExport } from '../../cli/feedback-export';
import { AskReply, Cluster, DEMO, startCluster } from './cluster';

/**
 * The client's conversations over HTTP on the real system (CONTRACT wave 3: `GET /conversations`):
 * scoped to the key's client, newest first, paginated; renamed and deleted; a 👍/👎 on an answer
 * stored, counted in /metrics and exported as answer-eval cases by the ops route and the CLI.
 */
let cluster: Cluster;
const OPS = 'ops-token-de-teste';

beforeAll(async () => {
  cluster = await startCluster();
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
});

const json = async (res: Response | Promise<Response>): Promise<AskReply> => (await (await res).json()) as AskReply;

function call(path: string, init: { method?: string; body?: unknown; who?: keyof typeof DEMO; token?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${init.token ?? DEMO[init.who ?? 'ana'].key}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${cluster.baseUrl}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

describe('GET /conversations, PATCH and DELETE /conversations/:id', () => {
  let requestId: string;

  it("lists only the key's client's conversations, newest first, a page at a time, titled by the first question", async () => {
    const first = await cluster.ask('CNPJ do HGLG11?', { conversation: 'lista-1' });
    requestId = first.body.meta.request_id;
    await cluster.ask('e o dy dele?', { conversation: 'lista-1' });
    await cluster.ask('dy do KNRI11', { conversation: 'lista-2' });
    await cluster.ask('CNPJ do XPML11?', { conversation: 'lista-1', who: 'bia' });

    const res = await call('/conversations?limit=1');
    expect(res.status).toBe(200);
    const page1 = await json(res);
    expect(page1.conversations).toEqual([{ id: 'lista-2', title: 'dy do KNRI11', last_activity: expect.any(String), questions: 1 }]);
    const page2 = await json(call(`/conversations?limit=1&cursor=${page1.next_cursor}`));
    expect(page2.conversations.map((c: { id: string; title: string }) => [c.id, c.title])).toEqual([['lista-1', 'CNPJ do HGLG11?']]);
    expect(page2.next_cursor).toBeNull();
    const bia = await json(call('/conversations', { who: 'bia' }));
    expect(bia.conversations.map((c: { title: string }) => c.title)).toEqual(['CNPJ do XPML11?']);

    expect((await call('/conversations?limit=0')).status).toBe(400);
    expect((await call('/conversations?cursor=bm9wZQ')).status).toBe(400);
    expect((await call('/conversations', { token: 'chave-que-nao-existe' })).status).toBe(401);
  });

  it('renames a conversation of the client; another client cannot', async () => {
    const res = await call('/conversations/lista-1', { method: 'PATCH', body: { title: 'Logística' } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ id: 'lista-1', title: 'Logística' });
    expect((await call('/conversations/lista-2', { method: 'PATCH', body: { title: '  ' } })).status).toBe(400);
    expect((await call('/conversations/lista-2', { method: 'PATCH', body: { title: 'x', outro: 1 } })).status).toBe(400);
    expect((await call('/conversations/lista-2', { method: 'PATCH', body: { title: 'x' }, who: 'bia' })).status).toBe(404);
    const titles = (await json(call('/conversations'))).conversations.map((c: { title: string }) => c.title);
    expect(titles).toEqual(['dy do KNRI11', 'Logística']);
  });

  it('stores a 👎 with a comment on an answer, counts it and exports it as an answer-eval case', async () => {
    const bad = await call('/conversations/lista-1/feedback', { method: 'POST', body: { request_id: requestId, rating: 'meh' } });
    expect(bad.status).toBe(400);
    expect((await call('/conversations/lista-1/feedback', { method: 'POST', body: { request_id: 'nao-existe', rating: 'down' } })).status).toBe(404);
    // Bia's conversation of the same id does not hold Ana's answer.
    expect((await call('/conversations/lista-1/feedback', { method: 'POST', body: { request_id: requestId, rating: 'down' }, who: 'bia' })).status).toBe(404);
    const res = await call('/conversations/lista-1/feedback', {
      method: 'POST',
      body: { request_id: requestId, rating: 'down', comment: 'Queria o CNPJ formatado de outro jeito' },
    });
    expect(res.status).toBe(201);

    const metrics = await (await call('/metrics', { token: OPS })).text();
    expect(metrics).toMatch(/cota_feedback_total\{rating="down",commented="yes"\} 1/);

    expect((await call('/ops/feedback_export', { token: DEMO.ana.key })).status).toBe(403);
    const exported = await call('/ops/feedback_export?rating=down', { token: OPS });
    expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await exported.text()).trim().split('\n');
    expect(lines).toHaveLength(1);
    const item = JSON.parse(lines[0]);
    expect(Object.keys(item).sort()).toEqual(['category', 'client_id', 'evidence', 'id', 'turns']);
    expect(item).toMatchObject({ category: 'feedback_down', client_id: DEMO.ana.clientId, turns: [{ q: 'CNPJ do HGLG11?', expect: { subjects: ['HGLG11'] } }] });
    expect(item.evidence).toContain('Queria o CNPJ formatado de outro jeito');
    expect(item.evidence).toContain('11.728.688/0001-47');
    expect(lines[0]).not.toContain(DEMO.ana.key);

    // The same over NATS, as the operator's command.
    let out = '';
    const code = await runFeedbackExport(
      ['--rating', 'down'],
      loadEnv(cluster.env),
      (t) => (out += t),
      () => undefined,
    );
    expect(code).toBe(0);
    expect(out.trim()).toBe(lines[0]);
  });

  it('deletes a conversation whole: gone from the list, its history empty, its feedback gone', async () => {
    const res = await call('/conversations/lista-1', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deleted: true, turns: 4 });
    expect((await json(call('/conversations'))).conversations.map((c: { id: string }) => c.id)).toEqual(['lista-2']);
    expect((await json(call('/conversations/lista-1/history'))).turns).toEqual([]);
    expect((await (await call('/ops/feedback_export', { token: OPS })).text()).trim()).toBe('');
    // Bia's conversation with the same id is untouched.
    expect((await json(call('/conversations/lista-1/history', { who: 'bia' }))).turns).toHaveLength(2);
    // A fresh question in the deleted conversation inherits no fund.
    const fresh = await cluster.ask('e o dy dele?', { conversation: 'lista-1' });
    expect(fresh.body.meta.context.last_reference_used).toBe(false);
  });
});
