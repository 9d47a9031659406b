import 'reflect-metadata';
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { loadEnv, policiesDir } from '@cota/config';
import { conversationMigrations, PostgresHistoryStore } from '@cota/conversation';
import { openDatabase, RunningService, runMigrations, startService } from '@cota/service-kit';
import { createTestDatabase, REDIS_TEST_URL, startTestNats, TestDatabase, TestNats, testRedisPrefix } from '@cota/test-support';
import { createContextService } from '../../apps/context/src/context.service';

/**
 * Retention of conversation turns (policies/retention.yaml) over the real servers: the context
 * service's scheduled job deletes the turns past max_age_days, every sweep_interval_seconds, in
 * batches, for every client, and keeps the rest.
 */
const DAY = 86_400_000;
let nats: TestNats;
let db: TestDatabase;
let prefix: string;
let policies: string;
let pg: Client;
let service: RunningService | null = null;

beforeAll(async () => {
  nats = await startTestNats();
  db = await createTestDatabase('retention');
  prefix = testRedisPrefix('retention');
  // The shipped context policy, and a retention policy that sweeps every second in batches of 2.
  policies = mkdtempSync(join(tmpdir(), 'cota-retention-policies-'));
  copyFileSync(join(policiesDir(), 'context.yaml'), join(policies, 'context.yaml'));
  // The context policy reads each entity's class from the catalog.
  cpSync(join(policiesDir(), 'entities'), join(policies, 'entities'), { recursive: true });
  writeFileSync(
    join(policies, 'retention.yaml'),
    'retention:\n  conversation_turns:\n    enabled: true\n    max_age_days: 30\n    sweep_interval_seconds: 1\n    batch_size: 2\n    max_batches_per_sweep: 100\n',
  );
  const ds = await openDatabase({ url: db.url });
  await runMigrations(ds, conversationMigrations);
  await ds.destroy();
  pg = new Client({ connectionString: db.url });
  await pg.connect();
});

afterAll(async () => {
  await service?.stop();
  await pg?.end();
  const redis = new Redis(REDIS_TEST_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await db?.drop();
  await nats?.stop();
  rmSync(policies, { recursive: true, force: true });
});

let index = 0;
async function turn(clientId: string, ageMs: number, content: string): Promise<void> {
  await pg.query(`INSERT INTO conversation_turns (client_id, conversation_id, turn_index, role, content, created_at) VALUES ($1, 'conversa', $2, 'user', $3, $4)`, [
    clientId,
    ++index,
    content,
    new Date(Date.now() - ageMs).toISOString(),
  ]);
}

const contents = async () => (await pg.query('SELECT client_id, content FROM conversation_turns ORDER BY client_id, content')).rows;

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('retention of conversation turns', () => {
  it('deletes old turns in batches at a cutoff, skipping nothing recent (the store)', async () => {
    const ds = await openDatabase({ url: db.url });
    try {
      const store = new PostgresHistoryStore(ds);
      for (let i = 0; i < 5; i++) await turn('cliente-x', 40 * DAY + i, `velha ${i}`);
      await turn('cliente-x', DAY, 'recente');
      const cutoff = new Date(Date.now() - 30 * DAY);
      expect(await store.deleteOlderThan(cutoff, 2)).toBe(2);
      expect(await store.deleteOlderThan(cutoff, 2)).toBe(2);
      expect(await store.deleteOlderThan(cutoff, 2)).toBe(1);
      expect(await store.deleteOlderThan(cutoff, 2)).toBe(0);
      expect(await contents()).toEqual([{ client_id: 'cliente-x', content: 'recente' }]);
      await pg.query('DELETE FROM conversation_turns');
    } finally {
      await ds.destroy();
    }
  });

  it("the context service's scheduled job deletes turns past max_age_days for every client, and keeps the others", async () => {
    for (const c of ['cliente-a', 'cliente-b']) {
      for (let i = 0; i < 3; i++) await turn(c, (31 + i) * DAY, `antiga ${i}`);
      await turn(c, 400 * DAY, 'muito antiga');
      await turn(c, 29 * DAY, 'quase no limite');
      await turn(c, 60_000, 'de agora');
    }
    service = await startService(
      createContextService({ redisPrefix: `${prefix}ctx:`, policiesDir: policies }),
      loadEnv({ NATS_URL: nats.url, DATABASE_URL: db.url, REDIS_URL: REDIS_TEST_URL }),
    );
    await until(async () => (await contents()).length === 4);
    expect(await contents()).toEqual([
      { client_id: 'cliente-a', content: 'de agora' },
      { client_id: 'cliente-a', content: 'quase no limite' },
      { client_id: 'cliente-b', content: 'de agora' },
      { client_id: 'cliente-b', content: 'quase no limite' },
    ]);
  });

  it('sweeps again on its interval: a turn that ages past the limit later is deleted by a later sweep', async () => {
    await turn('cliente-c', 45 * DAY, 'chegou depois');
    await until(async () => !(await contents()).some((r) => r.content === 'chegou depois'), 5_000);
    expect(await contents()).toHaveLength(4);
  });

  it('stops sweeping with the service', async () => {
    await service!.stop();
    service = null;
    await turn('cliente-d', 45 * DAY, 'depois da parada');
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await contents()).some((r) => r.content === 'depois da parada')).toBe(true);
  });
});
