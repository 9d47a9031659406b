import 'reflect-metadata';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ContextSubjects, Events, TelemetryEvent } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { ContextManager } from '@cota/conversation';
import { loadContextPolicy } from '@cota/dialogue';
import { Bus, NatsTransport } from '@cota/messaging';
import { RunningService, startService } from '@cota/service-kit';
import { contextTurn, createTestDatabase, REDIS_TEST_URL, startTestNats, TestDatabase, TestNats, testRedisPrefix } from '@cota/test-support';
import { createContextService } from '../../apps/context/src/context.service';

/**
 * The context service over real NATS, Postgres and Redis: the seeds' two follow-up flows, every
 * inheritance rule of the contract, isolation, two replicas under concurrency, and a restart.
 */
const policy = loadContextPolicy();
let nats: TestNats;
let db: TestDatabase;
let prefix: string;
let transport: NatsTransport;
let bus: Bus;
let redis: Redis;
let replicas: RunningService[] = [];
const events: TelemetryEvent[] = [];

const env = () => loadEnv({ NATS_URL: nats.url, DATABASE_URL: db.url, REDIS_URL: REDIS_TEST_URL });
const startReplica = async () => {
  const r = await startService(createContextService({ redisPrefix: prefix }), env());
  replicas.push(r);
  return r;
};
const stopAll = async () => {
  for (const r of replicas) await r.stop();
  replicas = [];
};

beforeAll(async () => {
  nats = await startTestNats();
  db = await createTestDatabase('context');
  prefix = testRedisPrefix('context');
  redis = new Redis(REDIS_TEST_URL);
  await startReplica();
  transport = await NatsTransport.connect({ url: nats.url, name: 'context-test' });
  bus = new Bus(transport, 'gateway');
  bus.listen('cota.events.context.>', (_s, payload) => events.push(payload as TelemetryEvent));
});

afterAll(async () => {
  await stopAll();
  await transport?.drain();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  await db?.drop();
  await nats?.stop();
});

let seq = 0;
type Source = 'text' | 'context';
const FUND_SOURCES: Source[] = ['text', 'context'];

/** One question as the pipeline runs it: open, the planner's fund decision, commit with the tickers the answer used. */
async function ask(
  q: { client?: string; conv: string; question: string; entity: string | null; tickers?: string[]; sources?: Source[] },
  answer: { status?: 'ok' | 'error' | 'needs_clarification'; accepted?: boolean; tickers?: string[] } = {},
) {
  const request_id = `req-${++seq}`;
  const turn = await contextTurn(bus, {
    request_id,
    client_id: q.client ?? 'cliente-a',
    conversation_id: q.conv,
    question: q.question,
    entity: q.entity,
    tickers: q.tickers,
    sources: q.sources ?? (q.entity && q.entity.startsWith('fii') ? FUND_SOURCES : []),
    answer,
  });
  return { ...turn, request_id };
}

const debug = (conv: string, client = 'cliente-a') => bus.call(ContextSubjects.debug, { client_id: client, conversation_id: conv });

describe('context service: follow-up flows of the seeds', () => {
  it('registry -> risk -> overview: "Esse fundo" means HGLG11', async () => {
    const a = await ask({ conv: 'flow-1', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    expect(a.resolved).toMatchObject({ turn_index: 1, ticker: 'HGLG11', context: { last_reference_used: false, reason: 'explicit_ticker_in_text' } });
    expect(a.committed.reference_updated).toBe(true);
    const b = await ask({ conv: 'flow-1', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(b.resolved).toMatchObject({ turn_index: 2, ticker: 'HGLG11', tickers: ['HGLG11'], context: { last_reference_used: true, reason: 'inherited_last_reference' } });
    const c = await ask({ conv: 'flow-1', question: 'E o overview dele?', entity: 'fii_overview' });
    expect(c.resolved).toMatchObject({ turn_index: 3, ticker: 'HGLG11', context: { last_reference_used: true } });
    // The narrator got the previous cycles verbatim.
    expect(c.resolved.memory.recent.map((t) => t.content)).toEqual([
      'CNPJ do HGLG11?',
      `Resposta a ${a.request_id} (HGLG11).`,
      'Esse fundo tem Sharpe bom?',
      `Resposta a ${b.request_id} (HGLG11).`,
    ]);
  });

  it('news -> legal proceedings -> risk', async () => {
    await ask({ conv: 'flow-2', question: 'Quais são as últimas notícias do HGLG11?', entity: 'fiis_noticias', tickers: ['HGLG11'] });
    const p = await ask({ conv: 'flow-2', question: 'Quantos processos tem ele?', entity: 'fiis_processos' });
    expect(p.resolved).toMatchObject({ ticker: 'HGLG11', context: { last_reference_used: true } });
    const r = await ask({ conv: 'flow-2', question: 'E o risco dele?', entity: 'fiis_financials_risk' });
    expect(r.resolved).toMatchObject({ ticker: 'HGLG11', context: { last_reference_used: true } });
  });
});

describe('context service: inheritance rules', () => {
  it('an explicit ticker wins over the reference, and becomes the new reference', async () => {
    await ask({ conv: 'explicit', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const m = await ask({ conv: 'explicit', question: 'E o Sharpe do MXRF11?', entity: 'fiis_financials_risk', tickers: ['MXRF11'] });
    expect(m.resolved).toMatchObject({ ticker: 'MXRF11', context: { last_reference_used: false, reason: 'explicit_ticker_in_text' } });
    const f = await ask({ conv: 'explicit', question: 'E o overview dele?', entity: 'fii_overview' });
    expect(f.resolved.ticker).toBe('MXRF11');
  });

  it('a market entity does not inherit and does not erase the reference', async () => {
    await ask({ conv: 'market', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const usd = await ask({ conv: 'market', question: 'E o dólar hoje?', entity: 'history_currency_rates' });
    expect(usd.resolved).toMatchObject({ ticker: null, tickers: [], context: { last_reference_used: false } });
    expect(usd.committed.reference_updated).toBe(false);
    expect((await debug('market')).last_reference).toMatchObject({ ticker: 'HGLG11', entity: 'fiis_cadastro', turn_index: 1 });
    const back = await ask({ conv: 'market', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(back.resolved.ticker).toBe('HGLG11');
  });

  it('client entities never inherit, even when the caller says they accept a context ticker', async () => {
    await ask({ conv: 'client', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    for (const entity of ['client_fiis_positions', 'client_fiis_enriched_portfolio', 'client_fiis_performance_vs_benchmark']) {
      const r = await ask({ conv: 'client', question: 'E na minha carteira?', entity, sources: FUND_SOURCES });
      expect(r.resolved).toMatchObject({ ticker: null, context: { last_reference_used: false, reason: 'entity_never_inherits' } });
    }
  });

  it(`the reference expires after max_age_turns (${policy.last_reference.max_age_turns}) questions`, async () => {
    await ask({ conv: 'expiry', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    for (let i = 0; i < policy.last_reference.max_age_turns - 1; i++) {
      await ask({ conv: 'expiry', question: 'E a Selic?', entity: 'history_market_indicators' });
    }
    const fresh = await ask({ conv: 'expiry', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' }, { accepted: false });
    expect(fresh.resolved).toMatchObject({ turn_index: 1 + policy.last_reference.max_age_turns, ticker: 'HGLG11' });
    const stale = await ask({ conv: 'expiry', question: 'E o overview dele?', entity: 'fii_overview' });
    expect(stale.resolved).toMatchObject({ ticker: null, context: { last_reference_used: false, reason: 'last_reference_expired' } });
  });

  it('isolation: other conversations and other clients with the same conversation_id see nothing', async () => {
    await ask({ conv: 'iso', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const other = await ask({ conv: 'iso-2', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(other.resolved).toMatchObject({ turn_index: 1, ticker: null, context: { reason: 'no_last_reference' }, memory: { recent: [], summary: null } });
    const otherClient = await ask({ client: 'cliente-b', conv: 'iso', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(otherClient.resolved).toMatchObject({ turn_index: 1, ticker: null, context: { reason: 'no_last_reference' }, memory: { recent: [], summary: null } });
    const hist = await bus.call(ContextSubjects.history, { client_id: 'cliente-b', conversation_id: 'iso', limit: 100 });
    expect(hist.turns.map((t) => t.content)).toEqual(['Esse fundo tem Sharpe bom?', `Resposta a ${otherClient.request_id} (sem ticker).`]);
  });

  it('a failed or unaccepted answer does not update the reference', async () => {
    await ask({ conv: 'failed', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    const err = await ask({ conv: 'failed', question: 'Preço do MXRF11?', entity: 'fiis_precos', tickers: ['MXRF11'] }, { status: 'error' });
    expect(err.committed.reference_updated).toBe(false);
    const notAccepted = await ask({ conv: 'failed', question: 'Dividendos do KNRI11?', entity: 'fiis_dividendos', tickers: ['KNRI11'] }, { accepted: false });
    expect(notAccepted.committed.reference_updated).toBe(false);
    const follow = await ask({ conv: 'failed', question: 'E o overview dele?', entity: 'fii_overview' }, { status: 'needs_clarification' });
    expect(follow.resolved).toMatchObject({ turn_index: 4, ticker: 'HGLG11', context: { last_reference_used: true } });
    expect(follow.committed.reference_updated).toBe(false);
    const two = await ask({ conv: 'failed', question: 'Compare XPML11 e VISC11', entity: 'fiis_precos', tickers: ['XPML11', 'VISC11'] });
    expect(two.resolved).toMatchObject({ ticker: null, tickers: ['XPML11', 'VISC11'], context: { reason: 'multiple_tickers_in_text' } });
    expect(two.committed.reference_updated).toBe(false);
    expect((await debug('failed')).last_reference).toMatchObject({ ticker: 'HGLG11', turn_index: 1 });
  });

  it('publishes telemetry without the raw conversation id', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const opened = events.filter((e) => e.event === 'opened');
    expect(opened.length).toBeGreaterThan(5);
    expect(events.every((e) => e.conversation_hash && !JSON.stringify(e).includes('flow-1'))).toBe(true);
    expect(opened.some((e) => e.attributes.has_reference === true)).toBe(true);
    expect(events.some((e) => e.event === 'committed' && e.attributes.reference_updated === true)).toBe(true);
    expect(Events.contextOpened.subject).toBe('cota.events.context.opened.v1');
  });
});

describe('context service: history, session, debug, clear', () => {
  it('keeps the full history in Postgres, one row per turn', async () => {
    const hist = await bus.call(ContextSubjects.history, { client_id: 'cliente-a', conversation_id: 'flow-1', limit: 100 });
    expect(hist.turns.map((t) => [t.role, t.meta.turn_index])).toEqual([
      ['user', 1],
      ['assistant', 1],
      ['user', 2],
      ['assistant', 2],
      ['user', 3],
      ['assistant', 3],
    ]);
    // How the turn was read (its funds under the last-reference rule) is recorded with its answer.
    expect(hist.turns[3].meta.context).toEqual({ last_reference_used: true, reason: 'inherited_last_reference' });
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query("SELECT count(*)::int AS n FROM conversation_turns WHERE client_id = 'cliente-a' AND conversation_id = 'flow-1'");
      expect(rows[0].n).toBe(6);
    } finally {
      await pg.end();
    }
  });

  it('session values round-trip, expire with their own TTL, and can be deleted', async () => {
    const key = { client_id: 'cliente-a', conversation_id: 'session' };
    await bus.call(ContextSubjects.sessionSet, { ...key, key: 'active_report_id', value: 'rel_20260114_095826', ttl_seconds: null });
    await bus.call(ContextSubjects.sessionSet, { ...key, key: 'pending_action', value: { tool: 'enviar_relatorio_email', args: { para: 'x' } }, ttl_seconds: 1 });
    expect((await bus.call(ContextSubjects.sessionGet, key)).values).toEqual({
      active_report_id: 'rel_20260114_095826',
      pending_action: { tool: 'enviar_relatorio_email', args: { para: 'x' } },
    });
    expect((await bus.call(ContextSubjects.sessionGet, { client_id: 'cliente-b', conversation_id: 'session' })).values).toEqual({});
    await new Promise((r) => setTimeout(r, 1100));
    expect((await bus.call(ContextSubjects.sessionGet, key)).values).toEqual({ active_report_id: 'rel_20260114_095826' });
    await bus.call(ContextSubjects.sessionSet, { ...key, key: 'active_report_id', value: null, ttl_seconds: null });
    expect((await bus.call(ContextSubjects.sessionGet, { ...key, keys: ['active_report_id'] })).values).toEqual({});
    await expect(bus.call(ContextSubjects.sessionSet, { ...key, key: 'x', value: 1, ttl_seconds: policy.session.max_ttl_seconds + 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('summarises cycles older than the verbatim window for the narrator', async () => {
    for (let i = 1; i <= 5; i++) await ask({ conv: 'memory', question: `Qual o dividendo ${i} do HGLG11?`, entity: 'fiis_dividendos', tickers: ['HGLG11'] });
    let summary: string | null = null;
    for (let tries = 0; tries < 50 && !summary?.includes('Pergunta 3:'); tries++) {
      summary = (await debug('memory')).summary;
      if (!summary?.includes('Pergunta 3:')) await new Promise((r) => setTimeout(r, 50));
    }
    expect(summary).toContain('Pergunta 1: Qual o dividendo 1 do HGLG11?');
    expect(summary).toContain('Pergunta 3:');
    const next = await ask({ conv: 'memory', question: 'E o 6?', entity: 'fiis_dividendos', tickers: ['HGLG11'] });
    expect(next.resolved.memory.summary).toContain('Pergunta 3:');
    expect(next.resolved.memory.recent.map((t) => t.meta.turn_index)).toEqual([4, 4, 5, 5]);
  });

  it('debug shows the hot state and clear forgets it (history stays)', async () => {
    const d = await debug('flow-1');
    expect(d).toMatchObject({ key: { client_id: 'cliente-a', conversation_id: 'flow-1' }, turn_count: 3, last_reference: { ticker: 'HGLG11' } });
    expect(d.recent).toHaveLength(6);
    expect(await bus.call(ContextSubjects.clear, { client_id: 'cliente-a', conversation_id: 'flow-1' })).toEqual({ cleared: true });
    expect(await debug('flow-1')).toMatchObject({ turn_count: 0, last_reference: null, recent: [] });
    const after = await ask({ conv: 'flow-1', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(after.resolved).toMatchObject({ turn_index: 4, ticker: null, context: { reason: 'no_last_reference' } });
  });
});

describe('context service: replicas and restart', () => {
  it('two replicas in one queue group serve one conversation under 50 concurrent requests', async () => {
    const second = await startReplica();
    const managers = replicas.map((r) => r.app.get(ContextManager));
    const spies = managers.map((m) => jest.spyOn(m, 'open'));
    const runs = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => ask({ conv: 'busy', question: `Preço do HGLG11 número ${i}?`, entity: 'fiis_precos', tickers: ['HGLG11'] })),
      ...Array.from({ length: 10 }, (_, i) => ask({ conv: 'busy-other', question: `Outra conversa ${i}`, entity: 'fiis_precos', tickers: ['MXRF11'] })),
    ]);
    expect(spies.every((s) => s.mock.calls.length > 0)).toBe(true);
    spies.forEach((s) => s.mockRestore());

    const busy = runs.slice(0, 50);
    expect(busy.map((r) => r.resolved.turn_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const hist = await bus.call(ContextSubjects.history, { client_id: 'cliente-a', conversation_id: 'busy', limit: 500 });
    expect(hist.turns).toHaveLength(100);
    expect(hist.turns.every((t) => t.content.includes('HGLG11'))).toBe(true);
    // Every question and its answer carry the same turn index: nothing lost, nothing crossed.
    for (const r of busy) {
      const mine = hist.turns.filter((t) => t.meta.turn_index === r.resolved.turn_index);
      expect(mine.map((t) => t.role).sort()).toEqual(['assistant', 'user']);
      expect(mine.find((t) => t.role === 'assistant')!.meta.request_id).toBe(r.request_id);
    }
    expect((await debug('busy')).turn_count).toBe(50);
    const other = await bus.call(ContextSubjects.history, { client_id: 'cliente-a', conversation_id: 'busy-other', limit: 500 });
    expect(other.turns).toHaveLength(20);
    expect(other.turns.every((t) => !t.content.includes('HGLG11'))).toBe(true);
    expect((await debug('busy-other')).last_reference?.ticker).toBe('MXRF11');
    expect(second.infra.bus.instance).not.toBe(replicas[0].infra.bus.instance);
  });

  it('the reference survives a restart of the context service', async () => {
    await ask({ conv: 'restart', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    await stopAll();
    await startReplica();
    const after = await ask({ conv: 'restart', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(after.resolved).toMatchObject({ turn_index: 2, ticker: 'HGLG11', context: { last_reference_used: true } });
  });

  it('after Redis loses the conversation, the next turn is read against the same state, rebuilt from Postgres', async () => {
    await ask({ conv: 'redis-lost', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    await ask({ conv: 'redis-lost', question: 'Quanto está o dólar?', entity: 'history_currency_rates' });
    const before = await debug('redis-lost');
    // Redis restarted empty: every hot key of the conversation is gone, the durable history stays.
    const keys = await redis.keys(`${prefix}*redis-lost*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    expect(await debug('redis-lost')).toMatchObject({ turn_count: 0, last_reference: null });
    const after = await ask({ conv: 'redis-lost', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(after.resolved).toMatchObject({ turn_index: 3, ticker: 'HGLG11', context: { last_reference_used: true, reason: 'inherited_last_reference' } });
    expect(after.resolved.state).toMatchObject({ turn_index: 3, last_entity: before.recent.at(-1)!.meta.entity, last_reference: before.last_reference });
    expect(after.resolved.memory.recent.map((t) => t.content)).toEqual(before.recent.map((t) => t.content));
    // The rebuilt hot state carries on from there.
    expect(await debug('redis-lost')).toMatchObject({ turn_count: 3, last_reference: { ticker: 'HGLG11', turn_index: 3 } });
  });

  it('a question that never got its answer leaves the visible history and does not age the reference', async () => {
    await ask({ conv: 'never-answered', question: 'CNPJ do HGLG11?', entity: 'fiis_cadastro', tickers: ['HGLG11'] });
    for (let i = 0; i < 3; i++)
      await bus.call(ContextSubjects.open, { request_id: `falhou-${i}`, client_id: 'cliente-a', conversation_id: 'never-answered', question: `Pergunta que falhou ${i}` });
    await ask({ conv: 'never-answered', question: 'E o IPCA?', entity: 'history_market_indicators' });
    const late = await ask({ conv: 'never-answered', question: 'Esse fundo tem Sharpe bom?', entity: 'fiis_financials_risk' });
    expect(late.resolved).toMatchObject({ turn_index: 6, ticker: 'HGLG11', context: { last_reference_used: true } });
    const visible = await bus.call(ContextSubjects.history, { client_id: 'cliente-a', conversation_id: 'never-answered', limit: 50 });
    expect(visible.turns.map((t) => t.meta.turn_index)).toEqual([1, 1, 5, 5, 6, 6]);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query(
        `SELECT turn_index FROM conversation_turns WHERE conversation_id = 'never-answered' AND role = 'user' AND meta @> '{"unanswered": true}' ORDER BY turn_index`,
      );
      expect(rows.map((r) => r.turn_index)).toEqual([2, 3, 4]);
    } finally {
      await pg.end();
    }
  });
});
