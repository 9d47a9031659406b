import 'reflect-metadata';
import Redis from 'ioredis';
import { Client } from 'pg';
import { hashApiKey } from '@cota/access';
import { ContextSubjects, ErasureReceipt } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';
import { RunningService, startService } from '@cota/service-kit';
import { contextTurn, createTestDatabase, freePort, REDIS_TEST_URL, startTestNats, TestDatabase, TestNats, testRedisPrefix } from '@cota/test-support';
import { createContextService } from '../../apps/context/src/context.service';
import { executorService } from '../../apps/executor/src/executor.service';
import { gatewayService } from '../../apps/gateway/src/gateway.service';
import { runErase } from '../../cli/erase';

/**
 * Erasure of one client (issue 11) over the real servers: context, executor and gateway as separate
 * NATS clients on a private nats-server, a fresh Postgres database, the real Redis under a private
 * prefix. Two clients get data in every store; one is erased through `DELETE /me/data`; every table
 * with a client column (found in information_schema, so a future table is covered without touching
 * this test) must then hold nothing of it and everything of the other.
 */
// The second id extends the first: erasure must match ids exactly, never by prefix.
const ANA = { clientId: 'cliente-apagar', key: 'chave-da-ana-para-apagar-01', adminKey: 'chave-admin-da-ana-000001' };
const BIA = { clientId: 'cliente-apagar-2', key: 'chave-da-bia-que-fica-0002', adminKey: 'chave-admin-da-bia-000002' };
const OPS = 'token-de-operacao-de-teste';

let nats: TestNats;
let db: TestDatabase;
let prefix: string;
let baseUrl: string;
let transport: NatsTransport;
let bus: Bus;
let pg: Client;
let redis: Redis;
let env: NodeJS.ProcessEnv;
const services: RunningService[] = [];

beforeAll(async () => {
  nats = await startTestNats();
  db = await createTestDatabase('privacy');
  prefix = testRedisPrefix('privacy');
  const port = await freePort();
  env = {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    REDIS_URL: REDIS_TEST_URL,
    COTA_REDIS_PREFIX: prefix,
    COTA_DEMO_KEYS: `${ANA.clientId}:${ANA.key},${BIA.clientId}:${BIA.key}`,
    COTA_OPS_TOKEN: OPS,
    PORT: String(port),
    COTA_LOG_LEVEL: 'warn',
  };
  const cotaEnv = loadEnv(env);
  for (const def of [executorService, createContextService({ redisPrefix: `${prefix}ctx:` }), gatewayService]) services.push(await startService(def, cotaEnv));
  baseUrl = `http://127.0.0.1:${port}`;
  transport = await NatsTransport.connect({ url: nats.url, name: 'privacy-test' });
  bus = new Bus(transport, 'gateway');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  redis = new Redis(REDIS_TEST_URL);
  for (const c of [ANA, BIA]) await seedEveryStore(c.clientId, c.adminKey, c.key);
}, 180_000);

afterAll(async () => {
  for (const s of services.reverse()) await s.stop().catch(() => undefined);
  await transport?.drain();
  await pg?.end();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  await db?.drop();
  await nats?.stop();
});

let seq = 0;

/** Data of one client in every store Cota has: through the services where they write it, by SQL where a tool would. */
async function seedEveryStore(clientId: string, adminKey: string, demoKey: string): Promise<void> {
  // Conversation turns (Postgres) and hot state + session values (Redis), through the context service.
  for (const conversation_id of ['conversa-1', 'conversa-2']) {
    const caller = { request_id: `req-${++seq}`, client_id: clientId, conversation_id };
    await contextTurn(bus, { ...caller, question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'], answer: { text: 'O CNPJ do HGLG11 é 11.728.688/0001-47.' } });
    await bus.call(ContextSubjects.sessionSet, { client_id: clientId, conversation_id, key: 'active_report_id', value: `rel_${clientId}_${conversation_id}`, ttl_seconds: null });
    // A title given on the page and a 👎 on the answer.
    expect(await bus.call(ContextSubjects.rename, { client_id: clientId, conversation_id, title: 'CNPJ' })).toEqual({ renamed: true });
    expect(await bus.call(ContextSubjects.feedback, { ...caller, rating: 'down', comment: 'teste' })).toEqual({ stored: true });
  }
  // A second key (an admin one) besides the demo key of COTA_DEMO_KEYS.
  await pg.query(`INSERT INTO api_keys (key_hash, client_id, source) VALUES ($1, $2, 'admin')`, [hashApiKey(adminKey), clientId]);
  // Rate-limit counters (Redis), through the gateway: the history shares /ask's limiter.
  const res = await fetch(`${baseUrl}/conversations/conversa-1/history`, { headers: { authorization: `Bearer ${demoKey}` } });
  expect(res.status).toBe(200);
  // Tool tables: a report, its filtered child, an e-mail of it, and personal transactions.
  const report = `rel_${clientId}`;
  await pg.query(
    `INSERT INTO tool_reports (report_id, client_id, conversation_id, kind, parent_report_id, title, content) VALUES
       ($1, $2, 'conversa-1', 'daily_briefing', NULL, 'Relatório diário', '{}'::jsonb),
       ($1 || '_f', $2, 'conversa-1', 'filtered', $1, 'Relatório filtrado', '{}'::jsonb)`,
    [report, clientId],
  );
  await pg.query(
    `INSERT INTO email_outbox (message_id, client_id, report_id, recipient, subject, body, status, request_id)
     VALUES ($1, $2, $3, 'pessoa@exemplo.com.br', 'Relatório', 'corpo', 'queued', 'req-mail')`,
    [`msg_${clientId}`, clientId, report],
  );
  await pg.query(
    `INSERT INTO client_transactions (transaction_id, client_id, tipo, valor, categoria, descricao, data, request_id) VALUES
       ($1 || '_1', $2, 'despesa', 120.50, 'mercado', 'feira', '2026-01-10', 'req-tx'),
       ($1 || '_2', $2, 'receita', 5000, 'salario', NULL, '2026-01-05', 'req-tx')`,
    [`tx_${clientId}`, clientId],
  );
  // An alert rule and a notification it fired (libs/alerts).
  await pg.query(
    `INSERT INTO alert_rules (rule_id, client_id, rule, description, status) VALUES ($1, $2, '{"kind":"distribution","ticker":"XPML11"}', 'quando o XPML11 anunciar um provento', 'active')`,
    [`alr_${clientId}`, clientId],
  );
  await pg.query(
    `INSERT INTO client_notifications (client_id, rule_id, event_id, title, body) VALUES ($1, $2, 'evt-1', 'XPML11 anunciou provento', 'O XPML11 anunciou R$ 0,92 por cota.')`,
    [clientId, `alr_${clientId}`],
  );
  // The warehouse's client tables: the client, its ledger (trades, income, a split), an import of a B3 statement,
  // the positions and sales derived from the ledger, its performance.
  await pg.query(`INSERT INTO wh_clients (client_id, display_name, email, is_demo, source) VALUES ($1, $1, 'pessoa@exemplo.com.br', false, 'client')`, [clientId]);
  await pg.query(
    `INSERT INTO wh_client_ledger (client_id, entry_id, seq, kind, event_date, ticker, quantity, price, amount, fees, institution, import_id, line, is_demo, source) VALUES
       ($1, 'e1', 1, 'buy', '2024-01-31', 'HGLG11', 10, 160.5, 1605, 0, 'CORRETORA', 'imp_1', 2, false, 'b3_negociacao'),
       ($1, 'e2', 2, 'buy', '2024-02-29', 'KNRI11', 5, 150.1, 750.5, 0, 'CORRETORA', 'imp_1', 3, false, 'b3_negociacao'),
       ($1, 'e3', 3, 'income', '2024-03-14', 'HGLG11', 10, 1.1, 11, 0, 'CORRETORA', NULL, NULL, false, 'b3_movimentacao'),
       ($1, 'e4', 4, 'split', '2024-04-10', 'HGLG11', 10, 0, 0, 0, NULL, NULL, NULL, false, 'b3_movimentacao'),
       ($1, 'e5', 5, 'sell', '2024-05-10', 'KNRI11', 5, 155, 775, 0, NULL, NULL, NULL, false, 'chat')`,
    [clientId],
  );
  await pg.query(
    `INSERT INTO wh_client_imports (client_id, import_id, file_name, content_sha256, statement, status, conversation_id, entries, summary, added, created_at, confirmed_at, is_demo, source)
     VALUES ($1, 'imp_1', 'negociacao.xlsx', 'abc', 'negociacao', 'confirmed', 'conversa-1', '[]'::jsonb, '{}'::jsonb, 2, now(), now(), false, 'b3_negociacao')`,
    [clientId],
  );
  await pg.query(
    `INSERT INTO wh_client_positions (client_id, ticker, quantity, cost_amt, avg_price, first_buy_date, is_demo, source) VALUES ($1, 'HGLG11', 20, 1605, 80.25, '2024-01-31', false, 'client')`,
    [clientId],
  );
  await pg.query(
    `INSERT INTO wh_client_sales (client_id, seq, ticker, sold_on, quantity, sell_price, avg_cost, cost_basis_amt, proceeds_amt, fees_amt, result_amt, is_demo, source)
     VALUES ($1, 1, 'KNRI11', '2024-05-10', 5, 155, 150.1, 750.5, 775, 0, 24.5, false, 'client')`,
    [clientId],
  );
  await pg.query(
    `INSERT INTO wh_client_performance (client_id, benchmark, ref_month, portfolio_value, portfolio_return_pct, benchmark_return_pct,
       portfolio_cum_return_pct, benchmark_cum_return_pct, excess_return_pct, is_demo, source)
     VALUES ($1, 'IFIX', '2024-02-01', 2355.5, 1.2, 0.8, 1.2, 0.8, 0.4, false, 'client')`,
    [clientId],
  );
}

/** Every base table and every view with a client column, from the catalog (a future table is found too). */
async function clientRelations(): Promise<Array<{ name: string; column: string; kind: 'BASE TABLE' | 'VIEW' }>> {
  const { rows } = await pg.query(
    `SELECT c.table_name AS name, c.column_name AS column, t.table_type AS kind
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND c.column_name ~ 'client_id$'
      ORDER BY 1, 2`,
  );
  return rows;
}

async function rowCounts(clientId: string, kind: 'BASE TABLE' | 'VIEW'): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const r of (await clientRelations()).filter((x) => x.kind === kind)) {
    const { rows } = await pg.query(`SELECT count(*)::int AS n FROM "${r.name}" WHERE "${r.column}" = $1`, [clientId]);
    out[r.name] = (out[r.name] ?? 0) + rows[0].n;
  }
  return out;
}

/** Redis keys (under this suite's prefix) that name the client: context keys `{<client>:<conv>}`, counters `{<client>}:<kind>:<window>`. */
async function redisKeysOf(clientId: string): Promise<string[]> {
  const all = await redis.keys(`${prefix}*`);
  // The client's hash tag inside a key (`ctx:{client}:...`) or ending it (the rate limiter's `rl:m:{client}`).
  const tag = encodeURIComponent(clientId);
  return all.filter((k) => k.includes(`{${tag}:`) || k.includes(`{${tag}}:`) || k.endsWith(`{${tag}}`)).sort();
}

const eraseMine = (key?: string) => fetch(`${baseUrl}/me/data`, { method: 'DELETE', headers: key ? { authorization: `Bearer ${key}` } : {} });
const opsErase = (body: unknown, token: string | null = OPS) =>
  fetch(`${baseUrl}/ops/erase`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe('erasure of one client across every store', () => {
  let anaBefore: Record<string, number>;
  let biaBefore: Record<string, number>;
  let biaViewsBefore: Record<string, number>;
  let anaRedisBefore: string[];
  let biaRedisBefore: string[];
  let receipt: ErasureReceipt;

  it('the fixture puts both clients in every table with a client column and in Redis', async () => {
    const tables = (await clientRelations()).filter((r) => r.kind === 'BASE TABLE').map((r) => r.name);
    // The stores known today; a new one is found by the query above and must get fixture rows here.
    expect(tables).toEqual(
      expect.arrayContaining([
        'alert_rules',
        'answer_feedback',
        'api_keys',
        'client_notifications',
        'client_transactions',
        'conversation_titles',
        'conversation_turns',
        'email_outbox',
        'tool_reports',
        'wh_client_imports',
        'wh_client_ledger',
        'wh_client_performance',
        'wh_client_positions',
        'wh_client_sales',
        'wh_clients',
      ]),
    );
    anaBefore = await rowCounts(ANA.clientId, 'BASE TABLE');
    biaBefore = await rowCounts(BIA.clientId, 'BASE TABLE');
    biaViewsBefore = await rowCounts(BIA.clientId, 'VIEW');
    for (const t of tables) {
      expect({ table: t, ana: anaBefore[t] > 0, bia: biaBefore[t] > 0 }).toEqual({ table: t, ana: true, bia: true });
    }
    anaRedisBefore = await redisKeysOf(ANA.clientId);
    biaRedisBefore = await redisKeysOf(BIA.clientId);
    expect(anaRedisBefore.some((k) => k.startsWith(`${prefix}ctx:`))).toBe(true);
    expect(anaRedisBefore.some((k) => k.startsWith(`${prefix}rl:`))).toBe(true);
    expect(biaRedisBefore.some((k) => k.startsWith(`${prefix}ctx:`))).toBe(true);
    expect(biaRedisBefore.some((k) => k.startsWith(`${prefix}rl:`))).toBe(true);
  });

  it('DELETE /me/data without a key, or with an unknown one, is 401 and erases nothing', async () => {
    for (const res of [await eraseMine(), await eraseMine('chave-que-nao-existe-123')]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
    expect(await rowCounts(ANA.clientId, 'BASE TABLE')).toEqual(anaBefore);
  });

  it("DELETE /me/data erases the key's client and answers a receipt listing every store with its count", async () => {
    const res = await eraseMine(ANA.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    receipt = ErasureReceipt.parse(await res.json());
    expect(receipt).toMatchObject({ client_id: ANA.clientId, requested_by: 'client', receipt_id: expect.stringMatching(/^erasure_/) });
    expect(Math.abs(Date.parse(receipt.erased_at) - Date.now())).toBeLessThan(60_000);
    // Every Postgres table with a client column is in the receipt, with exactly the rows it held.
    const postgres = Object.fromEntries(receipt.erased.filter((s) => s.backend === 'postgres').map((s) => [s.store, s.count]));
    expect(postgres).toEqual(anaBefore);
    const redisCount = receipt.erased.filter((s) => s.backend === 'redis').reduce((n, s) => n + s.count, 0);
    expect(redisCount).toBe(anaRedisBefore.length);
    expect(receipt.erased.map((s) => s.store)).toEqual(expect.arrayContaining(['conversation_hot_state', 'rate_limit_counters']));
    expect(receipt.total).toBe(receipt.erased.reduce((n, s) => n + s.count, 0));
    expect(receipt.message).toMatch(/Apagamos/);
  });

  it('no row of the erased client remains in any table or view, nor any Redis key', async () => {
    const after = await rowCounts(ANA.clientId, 'BASE TABLE');
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    const views = await rowCounts(ANA.clientId, 'VIEW');
    expect(Object.entries(views).filter(([, n]) => n > 0)).toEqual([]);
    expect(await redisKeysOf(ANA.clientId)).toEqual([]);
  });

  it("the other client's rows, views and Redis keys are intact, and its keys still work", async () => {
    expect(await rowCounts(BIA.clientId, 'BASE TABLE')).toEqual(biaBefore);
    expect(await rowCounts(BIA.clientId, 'VIEW')).toEqual(biaViewsBefore);
    expect((await redisKeysOf(BIA.clientId)).filter((k) => k.includes(`${prefix}ctx:`))).toEqual(biaRedisBefore.filter((k) => k.includes(`${prefix}ctx:`)));
    for (const key of [BIA.key, BIA.adminKey]) {
      const res = await fetch(`${baseUrl}/conversations/conversa-1/history`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { turns: unknown[] }).turns).toHaveLength(2);
    }
    const session = await bus.call(ContextSubjects.sessionGet, { client_id: BIA.clientId, conversation_id: 'conversa-1' });
    expect(session.values).toEqual({ active_report_id: `rel_${BIA.clientId}_conversa-1` });
  });

  it('is idempotent: the erased keys no longer open anything (401), and a repeated erasure finds nothing', async () => {
    const again = await eraseMine(ANA.key);
    expect(again.status).toBe(401);
    const other = await fetch(`${baseUrl}/conversations/conversa-1/history`, { headers: { authorization: `Bearer ${ANA.adminKey}` } });
    expect(other.status).toBe(401);
    const res = await opsErase({ client_id: ANA.clientId });
    expect(res.status).toBe(200);
    const second = ErasureReceipt.parse(await res.json());
    expect(second).toMatchObject({ client_id: ANA.clientId, requested_by: 'ops', total: 0 });
    expect(second.receipt_id).not.toBe(receipt.receipt_id);
    expect(second.erased.map((s) => s.store).sort()).toEqual(receipt.erased.map((s) => s.store).sort());
    expect(second.message).toMatch(/Nada a apagar/);
    expect(await rowCounts(BIA.clientId, 'BASE TABLE')).toEqual(biaBefore);
  });
});

describe('operator erasure', () => {
  it('/ops/erase needs the ops token and a client_id', async () => {
    expect((await opsErase({ client_id: BIA.clientId }, null)).status).toBe(401);
    expect((await opsErase({ client_id: BIA.clientId }, 'token-errado-1234')).status).toBe(403);
    const missing = await opsErase({});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('client_id');
    expect((await opsErase({ client_id: 'a\u0000b' })).status).toBe(400);
    expect((await rowCounts(BIA.clientId, 'BASE TABLE')).conversation_turns).toBeGreaterThan(0);
  });

  it('`npm run erase -- --client <id>` erases a client over NATS and prints the receipt', async () => {
    const before = await rowCounts(BIA.clientId, 'BASE TABLE');
    const out: string[] = [];
    const err: string[] = [];
    const code = await runErase(
      ['--client', BIA.clientId],
      loadEnv(env),
      (l) => out.push(l),
      (l) => err.push(l),
    );
    expect({ code, err }).toEqual({ code: 0, err: [] });
    const printed = ErasureReceipt.parse(JSON.parse(out.join('\n')));
    expect(printed).toMatchObject({ client_id: BIA.clientId, requested_by: 'ops' });
    expect(Object.fromEntries(printed.erased.filter((s) => s.backend === 'postgres').map((s) => [s.store, s.count]))).toEqual(before);
    expect(Object.entries(await rowCounts(BIA.clientId, 'BASE TABLE')).filter(([, n]) => n > 0)).toEqual([]);
    expect(await redisKeysOf(BIA.clientId)).toEqual([]);
  });
});
