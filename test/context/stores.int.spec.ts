import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { conversationMigrations, PostgresHistoryStore, RedisContextStore } from '@cota/conversation';
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
});
