import 'reflect-metadata';
import { loadEnv } from '@cota/config';
import { Bus, InProcessTransport } from '@cota/messaging';
import { openDatabase, RunningService, startService } from '@cota/service-kit';
import { contextTurn, createTestDatabase, TestDatabase } from '@cota/test-support';
import type { DataSource } from 'typeorm';
import { contextService } from '../../apps/context/src/context.service';

/**
 * Embedded mode's wiring (not a shortcut for the real-server suites): in-process bus, no Redis, so
 * hot state is the in-memory store; history still goes to the database it is given. (Embedded mode
 * gives it PGlite; PGlite needs --experimental-vm-modules under jest, so the real Postgres stands in.)
 */
describe('context service in embedded mode', () => {
  let db: TestDatabase;
  let database: DataSource;
  let transport: InProcessTransport;
  let running: RunningService;

  beforeAll(async () => {
    db = await createTestDatabase('ctxembedded');
    database = await openDatabase({ url: db.url });
    transport = new InProcessTransport();
    const env = loadEnv({});
    expect(env.embedded).toBe(true);
    running = await startService(contextService, env, { transport, database, redis: null });
  });

  afterAll(async () => {
    await running?.stop();
    await transport?.drain();
    await database?.destroy();
    await db?.drop();
  });

  it('inherits the ticker and keeps the history in the database', async () => {
    const bus = new Bus(transport, 'gateway');
    const caller = { client_id: 'c1', conversation_id: 'e1' };
    await contextTurn(bus, {
      ...caller,
      request_id: 'r1',
      question: 'CNPJ do HGLG11?',
      entity: 'fiis_cadastro',
      tickers: ['HGLG11'],
      answer: { text: 'O CNPJ do HGLG11 é 11.728.688/0001-47.' },
    });
    const second = (await contextTurn(bus, { ...caller, request_id: 'r2', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' })).resolved;
    expect(second).toMatchObject({ turn_index: 2, ticker: 'HGLG11', context: { last_reference_used: true } });
    const rows = await database.query('SELECT role, turn_index FROM conversation_turns ORDER BY id');
    expect(rows).toEqual([
      { role: 'user', turn_index: 1 },
      { role: 'assistant', turn_index: 1 },
      { role: 'user', turn_index: 2 },
      { role: 'assistant', turn_index: 2 },
    ]);
  });
});
