import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { conversationMigrations, PostgresConversationDirectory, PostgresFeedbackStore, PostgresHistoryStore, RedisContextStore } from '@cota/conversation';
import { describeContextStoreContract } from '../../libs/conversation/src/testing/store-contract';
import { openDatabase, runMigrations } from '@cota/service-kit';
import { createTestDatabase, REDIS_TEST_URL, TestDatabase, testRedisPrefix } from '@cota/test-support';

const prefix = testRedisPrefix('ctxstore');
let redis: Redis;

describeContextStoreContract(
  'redis',
  async () => {
    redis = new Redis(REDIS_TEST_URL);
    const store = new RedisContextStore(redis, { prefix });
    await store.ready();
    return store;
  },
  async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  },
);

describe('PostgresHistoryStore', () => {
  let db: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase('ctxhistory');
    ds = await openDatabase({ url: db.url });
    await runMigrations(ds, conversationMigrations);
    expect(await runMigrations(ds, conversationMigrations)).toEqual([]);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('keeps every turn of a conversation, in turn order, with meta and timestamps', async () => {
    const h = new PostgresHistoryStore(ds);
    const k = { clientId: 'c', conversationId: 'x' };
    const t = (role: 'user' | 'assistant', content: string, meta: Record<string, unknown> = {}) => ({ role, content, created_at: '2026-01-01T10:00:00.000Z', meta });
    expect(await h.lastTurnIndex(k)).toBe(0);
    await h.append(k, 1, t('user', 'CNPJ do HGLG11?', { turn_index: 1 }));
    await h.append(k, 2, t('user', 'Esse fundo tem Sharpe bom?'));
    await h.append(k, 1, t('assistant', 'O CNPJ é 11.728.688/0001-47.', { tickers: ['HGLG11'] }));
    await h.append({ clientId: 'outro', conversationId: 'x' }, 5, t('user', 'não é seu'));
    expect(await h.list(k, 10)).toEqual([
      t('user', 'CNPJ do HGLG11?', { turn_index: 1 }),
      t('assistant', 'O CNPJ é 11.728.688/0001-47.', { tickers: ['HGLG11'] }),
      t('user', 'Esse fundo tem Sharpe bom?'),
    ]);
    expect((await h.list(k, 1)).map((x) => x.content)).toEqual(['Esse fundo tem Sharpe bom?']);
    expect(await h.lastTurnIndex(k)).toBe(2);
  });

  it('keeps questions marked unanswered for audit, out of the visible list until their answer lands', async () => {
    const h = new PostgresHistoryStore(ds);
    const k = { clientId: 'c', conversationId: 'unanswered' };
    const t = (role: 'user' | 'assistant', i: number) => ({ role, content: `${role} ${i}`, created_at: '2026-01-01T10:00:00.000Z', meta: { turn_index: i } });
    for (const i of [1, 2, 3]) await h.append(k, i, t('user', i));
    await h.append(k, 1, t('assistant', 1));
    await h.markUnanswered(k, [1, 2, 3]);
    await h.markUnanswered(k, [2]);
    expect((await h.list(k, 10)).map((x) => x.content)).toEqual(['user 1', 'assistant 1']);
    expect((await h.recent(k, 10)).map((x) => [x.turnIndex, x.turn.content, x.turn.meta.unanswered ?? false])).toEqual([
      [1, 'user 1', false],
      [1, 'assistant 1', false],
      [2, 'user 2', true],
      [3, 'user 3', true],
    ]);
    expect((await h.recent(k, 1)).map((x) => x.turnIndex)).toEqual([3]);
    // A late answer brings its question back.
    await h.append(k, 3, t('assistant', 3));
    expect((await h.list(k, 10)).map((x) => x.content)).toEqual(['user 1', 'assistant 1', 'user 3', 'assistant 3']);
  });

  it('records a turn once when the append is repeated (a retry after a lost reply)', async () => {
    const h = new PostgresHistoryStore(ds);
    const k = { clientId: 'c', conversationId: 'twice' };
    const turn = { role: 'assistant' as const, content: 'R$ 1,10 por cota.', created_at: '2026-01-01T10:00:00.000Z', meta: { turn_index: 1 } };
    await h.append(k, 1, turn);
    await h.append(k, 1, turn);
    expect(await h.list(k, 10)).toEqual([turn]);
  });

  it('records a turn once when two replicas append it at the same moment (a commit retried while the first still runs)', async () => {
    const replicas = [new PostgresHistoryStore(ds), new PostgresHistoryStore(ds), new PostgresHistoryStore(ds)];
    const k = { clientId: 'c', conversationId: 'raced' };
    const turn = { role: 'assistant' as const, content: 'R$ 1,10 por cota.', created_at: '2026-01-01T10:00:00.000Z', meta: { turn_index: 1 } };
    for (let round = 0; round < 5; round++) {
      const kr = { ...k, conversationId: `raced-${round}` };
      await Promise.all(replicas.map((h) => h.append(kr, 1, turn)));
      expect(await replicas[0].list(kr, 10)).toEqual([turn]);
    }
  });

  it('commits concurrent appends in one statement, a turn repeated in the batch once', async () => {
    const h = new PostgresHistoryStore(ds);
    const k = { clientId: 'c', conversationId: 'batch-ok' };
    const turn = (i: number) => ({ role: 'assistant' as const, content: `resposta ${i}`, created_at: '2026-01-01T10:00:00.000Z', meta: { turn_index: i, aspas: 'a "b" \\ c' } });
    const queries = jest.spyOn(ds, 'query');
    try {
      await Promise.all([...Array.from({ length: 12 }, (_, i) => h.append(k, i + 1, turn(i + 1))), h.append(k, 5, turn(5))]);
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
    }
    expect(await h.list(k, 100)).toEqual(Array.from({ length: 12 }, (_, i) => turn(i + 1)));
  });

  it('commits concurrent appends in one batch: each resolves once kept, a repeated turn is one row, a bad row fails alone', async () => {
    const h = new PostgresHistoryStore(ds);
    const k = { clientId: 'c', conversationId: 'batched' };
    const turn = (i: number, content = `pergunta ${i}`) => ({ role: 'user' as const, content, created_at: '2026-01-01T10:00:00.000Z', meta: { turn_index: i } });
    const results = await Promise.allSettled([
      ...Array.from({ length: 30 }, (_, i) => h.append(k, i + 1, turn(i + 1))),
      h.append(k, 3, turn(3)),
      h.append(k, 31, turn(31, 'nul \u0000 byte')), // Postgres text refuses NUL
    ]);
    expect(results.slice(0, 31).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results[31].status).toBe('rejected');
    const kept = await h.list(k, 100);
    expect(kept.map((t) => t.content)).toEqual(Array.from({ length: 30 }, (_, i) => `pergunta ${i + 1}`));
  });

  it('keeps the turn when Postgres terminated the pooled connection (the next query is retried on a fresh one)', async () => {
    const h = new PostgresHistoryStore(ds);
    const k = { clientId: 'c', conversationId: 'terminated' };
    const turn = (i: number) => ({ role: 'user' as const, content: `pergunta ${i}`, created_at: '2026-01-01T10:00:00.000Z', meta: { turn_index: i } });
    await h.append(k, 1, turn(1)); // the pool now holds an idle connection
    const admin = await openDatabase({ url: db.url });
    try {
      const { n } = (
        await admin.query('SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')
      )[0] as { n: number };
      expect(n).toBeGreaterThan(0);
    } finally {
      await admin.destroy();
    }
    await h.append(k, 2, turn(2));
    expect((await h.list(k, 10)).map((t) => t.content)).toEqual(['pergunta 1', 'pergunta 2']);
  });
});

describe("the client's conversation list, titles and feedback (Postgres)", () => {
  let db: TestDatabase;
  let ds: DataSource;
  const t = (role: 'user' | 'assistant', content: string, at: string, meta: Record<string, unknown> = {}) => ({ role, content, created_at: at, meta });
  beforeAll(async () => {
    db = await createTestDatabase('ctxdirectory');
    ds = await openDatabase({ url: db.url });
    await runMigrations(ds, conversationMigrations);
    const h = new PostgresHistoryStore(ds);
    // Three conversations of Ana (one per day), one of Bia with the same id as one of Ana's.
    for (const [i, id] of ['a', 'b', 'c'].entries()) {
      const k = { clientId: 'ana', conversationId: id };
      const day = `2026-11-2${i + 1}T10:00:00.000Z`;
      await h.append(k, 1, t('user', `pergunta 1 de ${id}`, day, { request_id: `q-${id}-1` }));
      await h.append(
        k,
        1,
        t('assistant', `resposta 1 de ${id}`, day, { request_id: `q-${id}-1`, entity: 'fii_overview', question: { subjects: [{ kind: 'fund', id: 'HGLG11' }] } }),
      );
      await h.append(k, 2, t('user', `pergunta 2 de ${id}`, day, { request_id: `q-${id}-2` }));
      await h.append(k, 2, t('assistant', `resposta 2 de ${id}`, day, { request_id: `q-${id}-2` }));
    }
    await h.append({ clientId: 'bia', conversationId: 'a' }, 1, t('user', 'da Bia', '2026-11-26T10:00:00.000Z'));
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it("lists only the client's conversations, newest first, page by page, titled by their first question", async () => {
    const d = new PostgresConversationDirectory(ds);
    const first = await d.list('ana', 2, null);
    expect(first.conversations).toEqual([
      { id: 'c', title: 'pergunta 1 de c', last_activity: '2026-11-23T10:00:00.000Z', questions: 2 },
      { id: 'b', title: 'pergunta 1 de b', last_activity: '2026-11-22T10:00:00.000Z', questions: 2 },
    ]);
    expect(first.next_cursor).not.toBeNull();
    const second = await d.list('ana', 2, first.next_cursor);
    expect(second.conversations.map((c) => c.id)).toEqual(['a']);
    expect(second.next_cursor).toBeNull();
    expect((await d.list('bia', 10, null)).conversations.map((c) => c.title)).toEqual(['da Bia']);
    await expect(d.list('ana', 2, 'bm90LWEtY3Vyc29y')).rejects.toThrow('cursor');
  });

  it('renames only a conversation the client has', async () => {
    const d = new PostgresConversationDirectory(ds);
    expect(await d.rename({ clientId: 'ana', conversationId: 'b' }, 'Logística')).toBe(true);
    expect(await d.rename({ clientId: 'ana', conversationId: 'b' }, 'Logística 2')).toBe(true);
    expect(await d.rename({ clientId: 'ana', conversationId: 'nao-existe' }, 'x')).toBe(false);
    expect(await d.rename({ clientId: 'carla', conversationId: 'a' }, 'x')).toBe(false);
    const titles = (await d.list('ana', 10, null)).conversations.map((c) => c.title);
    expect(titles).toEqual(['pergunta 1 de c', 'Logística 2', 'pergunta 1 de a']);
    expect((await d.list('bia', 10, null)).conversations[0].title).toBe('da Bia');
  });

  it('stores a verdict with the questions up to the answer and its meta; a second verdict replaces it', async () => {
    const f = new PostgresFeedbackStore(ds);
    const k = { clientId: 'ana', conversationId: 'a' };
    expect(await f.record(k, { requestId: 'q-a-1', rating: 'up', comment: null })).toBe(true);
    expect(await f.record(k, { requestId: 'q-a-1', rating: 'down', comment: 'errado' })).toBe(true);
    expect(await f.record(k, { requestId: 'q-nao-existe', rating: 'down', comment: null })).toBe(false);
    // Another client's conversation with the same id holds no such answer.
    expect(await f.record({ clientId: 'bia', conversationId: 'a' }, { requestId: 'q-a-1', rating: 'down', comment: null })).toBe(false);
    const all = await f.export({ rating: null, since: null, limit: 10 });
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      client_id: 'ana',
      conversation_id: 'a',
      request_id: 'q-a-1',
      turn_index: 1,
      rating: 'down',
      comment: 'errado',
      questions: ['pergunta 1 de a'],
      answer: 'resposta 1 de a',
    });
    expect(all[0].meta).toMatchObject({ entity: 'fii_overview', question: { subjects: [{ kind: 'fund', id: 'HGLG11' }] } });
    expect(await f.export({ rating: 'up', since: null, limit: 10 })).toEqual([]);
    await f.record(k, { requestId: 'q-a-2', rating: 'up', comment: null });
    expect((await f.export({ rating: 'up', since: null, limit: 10 }))[0].questions).toEqual(['pergunta 1 de a', 'pergunta 2 de a']);
  });

  it("deletes one conversation whole (turns, title, feedback) and erases a client's titles and feedback", async () => {
    const d = new PostgresConversationDirectory(ds);
    const f = new PostgresFeedbackStore(ds);
    await f.record({ clientId: 'ana', conversationId: 'b' }, { requestId: 'q-b-1', rating: 'down', comment: null });
    expect(await d.remove({ clientId: 'ana', conversationId: 'a' })).toBe(4);
    expect(await d.remove({ clientId: 'ana', conversationId: 'a' })).toBe(0);
    expect((await d.list('ana', 10, null)).conversations.map((c) => c.id)).toEqual(['c', 'b']);
    expect((await d.list('bia', 10, null)).conversations.map((c) => c.id)).toEqual(['a']);
    expect((await f.export({ rating: null, since: null, limit: 10 })).map((x) => x.conversation_id)).toEqual(['b']);
    // Retention takes verdicts older than the cutoff (with the turns whose text they copy).
    expect(await f.deleteOlderThan(new Date('2000-01-01'), 10)).toBe(0);
    expect(await f.deleteOlderThan(new Date(Date.now() + 60_000), 10)).toBe(1);
    await f.record({ clientId: 'ana', conversationId: 'b' }, { requestId: 'q-b-1', rating: 'down', comment: null });
    expect(await d.eraseClient('ana')).toBe(1);
    expect(await f.eraseClient('ana')).toBe(1);
    expect(await f.export({ rating: null, since: null, limit: 10 })).toEqual([]);
  });
});
