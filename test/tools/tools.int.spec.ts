import 'reflect-metadata';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ContextSubjects, ExecutorSubjects, InvokeResponse, TelemetryEvent, ToolGateSubjects } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';
import { openDatabase, RunningService, startService } from '@cota/service-kit';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { extractArgs } from '@cota/planning';

const gatePolicy = loadToolGatePolicy();
import { Report, segmentMatches } from '@cota/tools';
import { ensureWarehouse } from '@cota/warehouse';
import { createTestDatabase, REDIS_TEST_URL, startTestNats, TestDatabase, TestNats, testRedisPrefix } from '@cota/test-support';
import { createContextService } from '../../apps/context/src/context.service';
import { executorService } from '../../apps/executor/src/executor.service';
import { toolGateService } from '../../apps/tool-gate/src/tool-gate.service';

/**
 * The tool flow of the product brief over the real servers: tool-gate, context and executor as
 * separate NATS clients on a private nats-server, a fresh Postgres database with the warehouse
 * ingested from the shared data (demo clients included), hot session state on the real Redis.
 */
const ANA = 'cliente-demo-1';
const BIA = 'cliente-demo-2';
const segments = loadToolGatePolicy().filters.segments;

let nats: TestNats;
let db: TestDatabase;
let prefix: string;
let transport: NatsTransport;
let bus: Bus;
let pg: Client;
const services: RunningService[] = [];
const events: TelemetryEvent[] = [];

beforeAll(async () => {
  nats = await startTestNats();
  db = await createTestDatabase('tools');
  prefix = testRedisPrefix('tools');
  const ds = await openDatabase({ url: db.url });
  await ensureWarehouse(ds, { dataDir: loadEnv({}).dataDir, log: { info: () => undefined, warn: () => undefined } });
  await ds.destroy();

  const env = loadEnv({ NATS_URL: nats.url, DATABASE_URL: db.url, REDIS_URL: REDIS_TEST_URL });
  for (const def of [executorService, createContextService({ redisPrefix: prefix }), toolGateService]) services.push(await startService(def, env));
  transport = await NatsTransport.connect({ url: nats.url, name: 'tools-test' });
  bus = new Bus(transport, 'gateway');
  bus.listen('cota.events.>', (_s, payload) => events.push(payload as TelemetryEvent));
  pg = new Client({ connectionString: db.url });
  await pg.connect();
}, 600_000);

afterAll(async () => {
  for (const s of services.reverse()) await s.stop().catch(() => undefined);
  await transport?.drain();
  await pg?.end();
  const redis = new Redis(REDIS_TEST_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await db?.drop();
  await nats?.stop();
});

let seq = 0;
function invoke(
  question: string,
  tool: { name: string; args?: Record<string, unknown> } | null,
  opts: { client?: string; conv?: string; confirmation?: 'yes' | 'no' } = {},
): Promise<InvokeResponse> {
  return bus.call(ToolGateSubjects.invoke, {
    request_id: `tools-${++seq}`,
    client_id: opts.client ?? ANA,
    conversation_id: opts.conv ?? 'conv-tools',
    // What the planner reads from the message: the arguments the tool's extractors find in it.
    tool: tool ? { name: tool.name, args: { ...extractArgs(question, gatePolicy.tools[tool.name].extractors, gatePolicy), ...tool.args }, continuation: 'none', own: true } : null,
    confirmation: opts.confirmation ?? null,
  });
}

const session = (client: string, conv: string) => bus.call(ContextSubjects.sessionGet, { client_id: client, conversation_id: conv });
const outbox = async () => (await pg.query('SELECT client_id, report_id, recipient, status FROM email_outbox ORDER BY created_at')).rows;

describe('tool flow of the product brief', () => {
  let briefing: Report;
  let filtered: Report;

  it('"o que temos pra hoje?" builds the daily briefing from the warehouse and makes it the active report', async () => {
    const res = await invoke('o que temos pra hoje?', { name: 'gerar_relatorio_diario' });
    expect(res.status).toBe('ok');
    expect(res.tool).toMatchObject({ name: 'gerar_relatorio_diario', status: 'executed', injected: [] });
    briefing = res.result as Report;
    expect(briefing.report_id).toMatch(/^rel_\d{8}_\d{6}_[0-9a-f]{6}$/);
    expect(briefing.sections.map((s) => s.id)).toEqual(['mercado', 'carteira', 'proventos', 'noticias']);

    const market = briefing.sections[0];
    expect(market.rows.map((r) => r.indicador)).toEqual(expect.arrayContaining(['IFIX', 'SELIC', 'Dólar']));
    // The demo client's own positions (and only theirs), each with its segment.
    const held = briefing.sections[1].rows.map((r) => r.ticker).sort();
    expect(held).toEqual(['HGLG11', 'KNRI11', 'VISC11', 'XPML11']);
    expect(briefing.sections[1].rows.every((r) => typeof r.segmento === 'string')).toBe(true);
    // Dividends and news only of held funds.
    for (const s of briefing.sections.slice(2)) for (const r of s.rows) expect(held).toContain(r.ticker);
    expect(briefing.sections[2].rows.length).toBeGreaterThan(0);
    expect(briefing.text).toContain('### Sua carteira');

    const values = (await session(ANA, 'conv-tools')).values;
    expect(values).toMatchObject({ active_report_id: briefing.report_id, last_report_id: briefing.report_id });
    const stored = await pg.query('SELECT client_id, kind FROM tool_reports WHERE report_id = $1', [briefing.report_id]);
    expect(stored.rows).toEqual([{ client_id: ANA, kind: 'daily_briefing' }]);
  });

  it('"filtre só os de logística" gets the active report id injected from the session', async () => {
    const res = await invoke('filtre só os de logística', { name: 'filtrar_relatorio' });
    expect(res.status).toBe('ok');
    expect(res.tool).toEqual({
      name: 'filtrar_relatorio',
      args: { report_id: briefing.report_id, segmento: 'logistica' },
      injected: [{ arg: 'report_id', value: briefing.report_id, source: 'session:active_report_id' }],
      status: 'executed',
    });
    filtered = res.result as Report;
    expect(filtered.parent_report_id).toBe(briefing.report_id);
    const fundRows = filtered.sections.flatMap((s) => s.rows);
    expect(fundRows.length).toBeGreaterThan(0);
    expect(fundRows.every((r) => segmentMatches(r.segmento, 'logistica', segments))).toBe(true);
    expect(fundRows.map((r) => r.ticker)).toContain('HGLG11');
    expect((await session(ANA, 'conv-tools')).values).toMatchObject({ active_report_id: briefing.report_id, last_report_id: filtered.report_id });
  });

  it('"manda por e-mail" asks for confirmation with a preview, and "sim" queues it in the outbox', async () => {
    const ask = await invoke('manda por e-mail', { name: 'enviar_relatorio_email' });
    expect(ask.status).toBe('confirmation_required');
    expect(ask.message).toBe(
      `Posso enviar o relatório "${filtered.title}" para ${ANA}@exemplo.com.br? Aviso: neste ambiente não há servidor de e-mail configurado, então o relatório fica guardado na caixa de saída e não é enviado. Responda sim ou não.`,
    );
    expect(ask.tool).toMatchObject({ status: 'confirmation_required', injected: [{ arg: 'report_id', source: 'session:last_report_id' }] });
    expect(await outbox()).toEqual([]);
    expect((await session(ANA, 'conv-tools')).values.pending_action).toMatchObject({ tool: 'enviar_relatorio_email' });

    const yes = await invoke('sim', null, { confirmation: 'yes' });
    expect(yes).toMatchObject({ status: 'ok', tool: { name: 'enviar_relatorio_email', status: 'executed' }, result: { status: 'queued' } });
    // No SMTP_URL here: the message is stored, and the answer says it was not sent.
    expect(yes.result).toMatchObject({ entrega: 'desativada' });
    expect((yes.result as { text: string }).text).toMatch(/foi guardado na caixa de saída, mas não foi enviado para cliente-demo-1@exemplo\.com\.br/);
    expect(await outbox()).toEqual([{ client_id: ANA, report_id: filtered.report_id, recipient: `${ANA}@exemplo.com.br`, status: 'queued' }]);
    expect((await session(ANA, 'conv-tools')).values.pending_action).toBeUndefined();

    const again = await invoke('sim', null, { confirmation: 'yes' });
    expect(again.status).toBe('error');
    expect(await outbox()).toHaveLength(1);
  });

  it('"não" cancels a pending e-mail; nothing is queued', async () => {
    const ask = await invoke('manda pra outra.pessoa@exemplo.com', { name: 'enviar_relatorio_email' });
    expect(ask.message).toContain('para outra.pessoa@exemplo.com?');
    const no = await invoke('não', null, { confirmation: 'no' });
    expect(no).toMatchObject({ status: 'ok', tool: { status: 'cancelled' } });
    expect(await outbox()).toHaveLength(1);
  });

  it('a confirmed send delivered twice to the executor (e.g. a retry) is queued once', async () => {
    const run = () =>
      bus.call(ExecutorSubjects.runTool, {
        request_id: 'tools-retry',
        client_id: ANA,
        conversation_id: 'conv-tools',
        name: 'enviar_relatorio_email',
        args: { report_id: briefing.report_id, destinatario: 'retry@exemplo.com', confirmacao_id: 'preview-retry' },
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect((a.result as { message_id: string }).message_id).toBe((b.result as { message_id: string }).message_id);
    expect((await outbox()).filter((m) => m.recipient === 'retry@exemplo.com')).toHaveLength(1);
  });

  it("another client can neither filter nor send Ana's report, even with its id", async () => {
    const filter = await invoke(`filtre o ${briefing.report_id} só proventos`, { name: 'filtrar_relatorio' }, { client: BIA, conv: 'conv-bia' });
    expect(filter).toMatchObject({ status: 'error', tool: { status: 'failed' } });
    expect(filter.message).toMatch(/Não encontrei o relatório/);
    const send = await invoke(`manda o ${briefing.report_id} por e-mail`, { name: 'enviar_relatorio_email' }, { client: BIA, conv: 'conv-bia' });
    expect(send.status).toBe('error');
    // And Ana's session values are invisible from Bia's conversation.
    const noReport = await invoke('filtre só os de logística', { name: 'filtrar_relatorio' }, { client: BIA, conv: 'conv-tools' });
    expect(noReport.message).toMatch(/Nenhum relatório ativo/);
    expect((await outbox()).filter((m) => m.client_id === BIA)).toEqual([]);
  });

  it('"quanto rende R$ 10.000 a 1% ao mês por 24 meses?" is computed exactly with the formula', async () => {
    const res = await invoke('quanto rende R$ 10.000 a 1% ao mês por 24 meses?', { name: 'calcular_financas' });
    expect(res.status).toBe('ok');
    expect(res.result).toMatchObject({ operacao: 'juros_compostos', resultado: { montante: '12697.35', juros: '2697.35' } });
    expect((res.result as { text: string }).text).toContain('o montante final é R$ 12.697,35');
  });

  it('published telemetry for the gate and the executor, without client ids', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const gate = events.filter((e) => e.service === 'tool-gate' && e.event === 'invoked');
    const ran = events.filter((e) => e.service === 'executor' && e.event === 'tool-ran');
    expect(gate.length).toBeGreaterThanOrEqual(8);
    expect(ran.some((e) => e.attributes.tool === 'gerar_relatorio_diario' && e.outcome === 'ok')).toBe(true);
    expect(JSON.stringify([...gate, ...ran])).not.toContain(ANA);
  });
});
