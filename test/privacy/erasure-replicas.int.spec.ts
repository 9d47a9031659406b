import 'reflect-metadata';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ErasureReceipt } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { RunningService, startService } from '@cota/service-kit';
import { createTestDatabase, freePort, REDIS_TEST_URL, startTestNats, TestDatabase, TestNats, testRedisPrefix } from '@cota/test-support';
import { SERVICE_DEFINITIONS } from '../../cli/services';

/**
 * Erasure with two gateway replicas on one real NATS, Postgres and Redis (the services each their own
 * NATS client). Gateway B has the client's key in its cache and keeps asking while the client erases
 * itself through gateway A: B must refuse the key within a second of the receipt, and nothing of the
 * client may be recorded after the receipt (no conversation turn, no Redis key naming it).
 */
const ANA = { clientId: 'cliente-apagado-em-a', key: 'chave-da-ana-replicas-0001' };
const BIA = { clientId: 'cliente-que-fica', key: 'chave-da-bia-replicas-0002' };

let nats: TestNats;
let db: TestDatabase;
let prefix: string;
let pg: Client;
let redis: Redis;
const services: RunningService[] = [];
const gateways: string[] = [];

beforeAll(async () => {
  nats = await startTestNats();
  db = await createTestDatabase('replicas');
  prefix = testRedisPrefix('replicas');
  const base = {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    REDIS_URL: REDIS_TEST_URL,
    COTA_REDIS_PREFIX: prefix,
    COTA_DEMO_KEYS: `${ANA.clientId}:${ANA.key},${BIA.clientId}:${BIA.key}`,
    COTA_LOG_LEVEL: 'error',
    COTA_METRICS_PORT: '0',
  };
  for (const [name, def] of Object.entries(SERVICE_DEFINITIONS)) {
    if (name === 'gateway') continue;
    services.push(await startService(def, loadEnv(base)));
  }
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    services.push(await startService(SERVICE_DEFINITIONS.gateway, loadEnv({ ...base, PORT: String(port) })));
    gateways.push(`http://127.0.0.1:${port}`);
  }
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  redis = new Redis(REDIS_TEST_URL);
}, 180_000);

afterAll(async () => {
  for (const s of services.reverse()) await s.stop().catch(() => undefined);
  await pg?.end();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  await db?.drop();
  await nats?.stop();
});

const ask = async (gateway: string, who: typeof ANA, question = 'CNPJ do HGLG11?') => {
  const res = await fetch(`${gateway}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${who.key}` },
    body: JSON.stringify({ question, conversation_id: 'conversa-replicas', nickname: 'Ana', client_id: who.clientId }),
  });
  await res.arrayBuffer();
  return res.status;
};

const turnsOf = async (clientId: string): Promise<number> => (await pg.query('SELECT count(*)::int AS n FROM conversation_turns WHERE client_id = $1', [clientId])).rows[0].n;

/** Redis keys (under this suite's prefix) that name the client: context `{<client>:<conv>}`, counters `{<client>}:...`. */
const redisKeysOf = async (clientId: string): Promise<string[]> =>
  (await redis.keys(`${prefix}*`)).filter((k) => k.includes(`{${encodeURIComponent(clientId)}:`) || k.includes(`{${encodeURIComponent(clientId)}}:`));

describe('erasure through one gateway replica while another keeps asking', () => {
  it('the other replica refuses the key within a second, and nothing is recorded after the receipt', async () => {
    const [a, b] = gateways;
    // Both replicas have answered the client: its key is in both caches.
    expect(await ask(a, ANA)).toBe(200);
    expect(await ask(b, ANA)).toBe(200);
    expect(await ask(b, BIA)).toBe(200);
    expect(await turnsOf(ANA.clientId)).toBeGreaterThan(0);

    // Gateway B keeps asking for the client, two at a time, during and after the erasure.
    let asking = true;
    const after: Array<{ at: number; status: number }> = [];
    const loop = async () => {
      while (asking) {
        const status = await ask(b, ANA);
        after.push({ at: Date.now(), status });
      }
    };
    const loops = [loop(), loop()];
    await new Promise((r) => setTimeout(r, 200));

    const res = await fetch(`${a}/me/data`, { method: 'DELETE', headers: { authorization: `Bearer ${ANA.key}` } });
    expect(res.status).toBe(200);
    const receiptAt = Date.now();
    ErasureReceipt.parse(await res.json());

    await new Promise((r) => setTimeout(r, 1500));
    asking = false;
    await Promise.all(loops);

    // Every answer B gave after the receipt (plus a second) is a refusal; it refused within that second.
    const late = after.filter((x) => x.at > receiptAt + 1000);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((x) => x.status !== 401)).toEqual([]);
    expect(after.find((x) => x.at > receiptAt && x.status === 401)).toBeDefined();
    // Nothing recorded for the client after the receipt, in Postgres or Redis.
    expect(await turnsOf(ANA.clientId)).toBe(0);
    expect(await redisKeysOf(ANA.clientId)).toEqual([]);
    // The other client is untouched and still served by both replicas.
    expect(await turnsOf(BIA.clientId)).toBeGreaterThan(0);
    expect(await ask(a, BIA)).toBe(200);
  });
});
