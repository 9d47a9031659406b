import 'reflect-metadata';
import ExcelJS from 'exceljs';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ExecutorSubjects, ToolGateSubjects } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { Bus, NatsTransport } from '@cota/messaging';
import { extractArgs } from '@cota/planning';
import { RunningService, startService } from '@cota/service-kit';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { createTestDatabase, freePort, REDIS_TEST_URL, startTestNats, TestDatabase, TestNats, testRedisPrefix } from '@cota/test-support';
import { createContextService } from '../../apps/context/src/context.service';
import { executorService } from '../../apps/executor/src/executor.service';
import { gatewayService } from '../../apps/gateway/src/gateway.service';
import { toolGateService } from '../../apps/tool-gate/src/tool-gate.service';

/**
 * Importing B3 investor-area statements into a client's ledger, over the real servers: the gateway
 * (multipart upload, confirm endpoint), the tool gate (the confirmation), the executor (reading,
 * checking, writing the ledger and deriving positions), context and Redis. The statements are
 * built here in B3's layout; every expected figure is computed by hand in the comments.
 */
const ANA = { clientId: 'cliente-extrato-ana', key: 'chave-extrato-ana-000000001' };
const BIA = { clientId: 'cliente-extrato-bia', key: 'chave-extrato-bia-000000002' };
const gatePolicy = loadToolGatePolicy();

let nats: TestNats;
let db: TestDatabase;
let prefix: string;
let baseUrl: string;
let transport: NatsTransport;
let bus: Bus;
let pg: Client;
const services: RunningService[] = [];

beforeAll(async () => {
  nats = await startTestNats();
  db = await createTestDatabase('ledger');
  prefix = testRedisPrefix('ledger');
  const port = await freePort();
  const env = loadEnv({
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    REDIS_URL: REDIS_TEST_URL,
    COTA_REDIS_PREFIX: prefix,
    COTA_DEMO_KEYS: `${ANA.clientId}:${ANA.key},${BIA.clientId}:${BIA.key}`,
    PORT: String(port),
    COTA_LOG_LEVEL: 'warn',
  });
  for (const def of [executorService, createContextService({ redisPrefix: `${prefix}ctx:` }), toolGateService, gatewayService]) services.push(await startService(def, env));
  baseUrl = `http://127.0.0.1:${port}`;
  transport = await NatsTransport.connect({ url: nats.url, name: 'ledger-test' });
  bus = new Bus(transport, 'gateway');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  // The funds the statements name, with a last close (the market value's price and date).
  await pg.query(`INSERT INTO wh_funds (ticker, fii_cnpj, display_name, source) VALUES
    ('HGLG11', '11.728.688/0001-47', 'CSHG Logística FII', 'test'), ('KNRI11', '12.005.956/0001-65', 'Kinea Renda Imobiliária FII', 'test')`);
  await pg.query(`INSERT INTO wh_prices (ticker, traded_at, frequency, close_price, source) VALUES
    ('HGLG11', '2025-12-30', 'daily', 80.00, 'test'), ('KNRI11', '2025-12-30', 'daily', 110.00, 'test')`);
}, 180_000);

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

const NEGOCIACAO_HEADER = ['Data do Negócio', 'Tipo de Movimentação', 'Mercado', 'Prazo/Vencimento', 'Instituição', 'Código de Negociação', 'Quantidade', 'Preço', 'Valor'];

/** A "Negociação" export as B3's investor area writes it (.xlsx, one sheet named Negociação). */
async function negociacaoXlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Negociação');
  ws.addRow(NEGOCIACAO_HEADER);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const TRADES = [
  ['05/01/2024', 'Compra', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'KNRI11', 10, 100, 1000],
  ['10/01/2024', 'Compra', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11', 100, 150, 15000],
  ['15/02/2024', 'Compra', 'Mercado Fracionário', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11F', 50, 160, 8000],
  ['20/03/2024', 'Venda', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11', 60, 140, 8400],
  ['21/03/2024', 'Compra', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'PETR4', 100, 38.5, 3850],
  ['22/03/2024', 'Compra', 'Opção de Compra', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLGA150', 100, 1.2, 120],
  ['20/05/2024', 'Venda', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11', 80, 90, 7200],
];

/** A "Movimentação" export as .csv (semicolons, decimal commas), with a split and two income payments. */
const MOVIMENTACAO_CSV = [
  'Entrada/Saída;Data;Movimentação;Produto;Instituição;Quantidade;Preço unitário;Valor da Operação',
  'Credito;14/03/2024;Rendimento;HGLG11 - CSHG LOGISTICA FDO INV IMOB;XP INVESTIMENTOS CCTVM S/A;150;1,10;165,00',
  'Credito;10/04/2024;Desdobramento;HGLG11 - CSHG LOGISTICA FDO INV IMOB;XP INVESTIMENTOS CCTVM S/A;90;-;-',
  'Credito;15/05/2024;Rendimento;HGLG11 - CSHG LOGISTICA FDO INV IMOB;XP INVESTIMENTOS CCTVM S/A;180;0,55;99,00',
  'Credito;20/05/2024;Transferência - Liquidação;HGLG11 - CSHG LOGISTICA FDO INV IMOB;XP INVESTIMENTOS CCTVM S/A;80;90,00;7.200,00',
].join('\r\n');

function upload(key: string, file: Buffer | string, name: string, conversationId?: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([typeof file === 'string' ? Buffer.from(file, 'utf8') : file]), name);
  if (conversationId) form.append('conversation_id', conversationId);
  return fetch(`${baseUrl}/me/imports`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const bodyOf = async (res: Response): Promise<any> => res.json();

const confirm = (key: string, id: string) => fetch(`${baseUrl}/me/imports/${id}/confirm`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });

async function ledgerCount(clientId: string): Promise<number> {
  const { rows } = await pg.query('SELECT count(*)::int AS n FROM wh_client_ledger WHERE client_id = $1', [clientId]);
  return rows[0].n;
}

async function position(clientId: string, ticker: string) {
  const { rows } = await pg.query(
    'SELECT quantity, avg_price::float AS avg_price, invested_amt::float AS invested_amt, gain_amt::float AS gain_amt, last_price_date FROM client_fiis_positions WHERE client_id = $1 AND ticker = $2',
    [clientId, ticker],
  );
  return rows[0];
}

let seq = 0;
const invoke = (clientId: string, conversationId: string, tool: { name: string; args: Record<string, unknown> } | null, confirmation: 'yes' | 'no' | null = null) =>
  bus.call(ToolGateSubjects.invoke, {
    request_id: `ledger-${++seq}`,
    client_id: clientId,
    conversation_id: conversationId,
    tool: tool ? { ...tool, continuation: 'none', own: true } : null,
    confirmation,
  });

describe('importing B3 statements into the ledger', () => {
  let negociacaoId: string;

  it('previews a Negociação .xlsx in Portuguese and writes nothing until confirmed', async () => {
    const res = await upload(ANA.key, await negociacaoXlsx(TRADES), 'negociacao-2024.xlsx');
    expect(res.status).toBe(201);
    const body = await bodyOf(res);
    expect(body.status).toBe('confirmation_required');
    negociacaoId = body.import_id;
    expect(body.preview).toContain('5 negociações (3 compras, 2 vendas) de 2 fundos (HGLG11, KNRI11), de 01/2024 a 05/2024');
    // Line 6 (PETR4) and line 7 (an option) are left out, each with its reason.
    expect(body.preview).toContain('2 linhas ignoradas: linha 6 (PETR4 não é cota de fundo imobiliário); linha 7 (mercado "Opção de Compra" não é de cotas à vista)');
    expect(body.message).toContain('Posso incluir na sua carteira?');
    expect(await ledgerCount(ANA.clientId)).toBe(0);
  });

  it('confirms through the tool gate and derives positions with the B3 average price', async () => {
    const res = await confirm(ANA.key, negociacaoId);
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body).toMatchObject({ status: 'confirmed', added: 5 });
    expect(body.message).toContain('Sua carteira com custo e ganho');
    expect(await ledgerCount(ANA.clientId)).toBe(5);
    // KNRI11: 10 × 100. HGLG11 before the split: 100 × 150 + 50 × 160 = 23 000 for 150 (153,3333); the sale of 60
    // takes 9 200 (13 800 left for 90); the sale of 80 takes 80 × 153,3333 = 12 266,67: 10 shares at 1 533,33.
    expect(await position(ANA.clientId, 'KNRI11')).toMatchObject({ quantity: 10, avg_price: 100, invested_amt: 1000 });
    expect(await position(ANA.clientId, 'HGLG11')).toMatchObject({ quantity: 10, invested_amt: 1533.33 });
  });

  it('importing the same file again adds nothing', async () => {
    const res = await upload(ANA.key, await negociacaoXlsx(TRADES), 'negociacao-copia.xlsx');
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).status).toBe('already_imported');
    expect((await confirm(ANA.key, negociacaoId)).status).toBe(200);
    expect(await ledgerCount(ANA.clientId)).toBe(5);
  });

  it('a Movimentação .csv (income, a split) confirmed with "sim" in the conversation re-derives the average price', async () => {
    const res = await upload(ANA.key, MOVIMENTACAO_CSV, 'movimentacao.csv', 'conversa-extrato');
    expect(res.status).toBe(201);
    const body = await bodyOf(res);
    expect(body.preview).toContain('2 rendimentos e 1 desdobramento de 1 fundo (HGLG11), de 03/2024 a 05/2024');
    expect(body.preview).toContain('linha 5 (as compras e vendas vêm do extrato de Negociação)');
    const yes = await invoke(ANA.clientId, 'conversa-extrato', null, 'yes');
    expect(yes.status).toBe('ok');
    expect(await ledgerCount(ANA.clientId)).toBe(8);
    // With the 1:2 split on 10/04 (90 → 180 shares, cost 13 800, average 76,6667) the sale of 80 on 20/05 takes
    // 80 × 76,6667 = 6 133,33: 100 shares left at a cost of 7 666,67; at the last close (80,00) a gain of 333,33.
    const hglg = await position(ANA.clientId, 'HGLG11');
    expect(hglg).toMatchObject({ quantity: 100, invested_amt: 7666.67, gain_amt: 333.33 });
    expect(hglg.avg_price).toBeCloseTo(76.6667, 4);
    // Each sale's result: 8 400 − 9 200 = −800,00; 7 200 − 6 133,33 = 1 066,67.
    const { rows: sales } = await pg.query(`SELECT sold_on::text, result_amt::float AS r FROM client_realized_gains WHERE client_id = $1 ORDER BY sold_on`, [ANA.clientId]);
    expect(sales).toEqual([
      { sold_on: '2024-03-20', r: -800 },
      { sold_on: '2024-05-20', r: 1066.67 },
    ]);
    // Income by payment date, as the statement says.
    const { rows: income } = await pg.query(`SELECT ref_month::text, dividends_amt::float AS v FROM client_fiis_dividends_evolution WHERE client_id = $1 ORDER BY 1`, [
      ANA.clientId,
    ]);
    expect(income).toEqual([
      { ref_month: '2024-03-01', v: 165 },
      { ref_month: '2024-05-01', v: 99 },
    ]);
  });

  it('the yearly report: positions at cost, exempt income with the payer CNPJ, the DARF of May after the March loss', async () => {
    const report = await bus.call(ExecutorSubjects.taxReport, { client_id: ANA.clientId, year: 2024 });
    expect(report.empty).toBe(false);
    expect(report.csv).toContain('"07";"03";"HGLG11";"11.728.688/0001-47"');
    expect(report.csv).toContain('0,00;7666,67');
    expect(report.csv).toContain('"99 - Outros";"11.728.688/0001-47";"CSHG Logística FII (HGLG11)";264,00');
    // 1 066,67 − 800,00 of loss carried = 266,67; 20% = 53,33, due on the last business day of June 2024.
    expect(report.csv).toContain('"2024-05";1066,67;0,00;266,67;53,33;53,33;"6015";"2024-06-28"');
    expect(report.csv).toContain('"2024-03";-800,00;800,00;0,00;0,00;0,00;"6015";"2024-04-30"');
  });

  it('a trade told in the chat goes through the same ledger, after "sim"', async () => {
    const question = 'comprei 20 HGLG11 a 158,40 hoje';
    const args = extractArgs(question, gatePolicy.tools.registrar_operacao.extractors, gatePolicy, { today: '2026-11-27', expecting: [] });
    const asked = await invoke(ANA.clientId, 'conversa-chat', { name: 'registrar_operacao', args });
    expect(asked.status).toBe('confirmation_required');
    expect(asked.message).toContain('a compra de 20 cotas de HGLG11 a R$ 158,40 em 27/11/2026 (total de R$ 3.168,00)');
    expect(await ledgerCount(ANA.clientId)).toBe(8);
    const done = await invoke(ANA.clientId, 'conversa-chat', null, 'yes');
    expect(done.status).toBe('ok');
    // 7 666,67 + 3 168,00 = 10 834,67 for 120 shares.
    expect(await position(ANA.clientId, 'HGLG11')).toMatchObject({ quantity: 120, invested_amt: 10834.67 });
    // Yield on cost: 165 + 99 received in the 12 months to the last payment (15/05/2024) over the cost, 264 ÷ 10 834,67 = 2,44%.
    const { rows: yoc } = await pg.query(
      `SELECT yield_on_cost_pct::float AS y, income_amt::float AS i, ref_date::text AS d FROM client_yield_on_cost WHERE client_id = $1 AND ticker = 'HGLG11' AND income_window = '12m'`,
      [ANA.clientId],
    );
    expect(yoc).toEqual([{ y: 2.44, i: 264, d: '2024-05-15' }]);
    const sale = await invoke(ANA.clientId, 'conversa-chat', { name: 'registrar_operacao', args: { tipo: 'venda', ticker: 'KNRI11', quantidade: 11, preco: '140' } });
    expect(sale.status).toBe('error');
    expect(sale.message).toContain('apenas 10 em carteira');
  });

  it('a malformed row is reported by line and reason, and nothing of the file is written', async () => {
    const before = await ledgerCount(ANA.clientId);
    const bad = await negociacaoXlsx([
      ['02/06/2024', 'Compra', 'Mercado à Vista', '-', 'XP', 'KNRI11', 5, 120, 600],
      ['31/02/2024', 'Compra', 'Mercado à Vista', '-', 'XP', 'KNRI11', 5, 120, 600],
      ['03/06/2024', 'Compra', 'Mercado à Vista', '-', 'XP', 'KNRI11', 'cinco', 120, 600],
    ]);
    const res = await upload(ANA.key, bad, 'ruim.xlsx');
    expect(res.status).toBe(422);
    const body = await bodyOf(res);
    expect(body.error.message).toContain('linha 3: "Data do Negócio" não é uma data válida (31/02/2024)');
    expect(body.error.message).toContain('linha 4: "cinco" não é um número');
    expect(await ledgerCount(ANA.clientId)).toBe(before);
    const { rows } = await pg.query(`SELECT count(*)::int AS n FROM wh_client_imports WHERE client_id = $1`, [ANA.clientId]);
    expect(rows[0].n).toBe(2);
  });

  it('a sale of shares the ledger does not have is refused with its line', async () => {
    const res = await upload(ANA.key, await negociacaoXlsx([['03/06/2024', 'Venda', 'Mercado à Vista', '-', 'XP', 'KNRI11', 50, 120, 6000]]), 'venda.xlsx');
    expect(res.status).toBe(422);
    expect((await bodyOf(res)).error.message).toMatch(/linha 2: venda de 50 cotas de KNRI11 em 2024-06-03 com apenas 10 em carteira/);
  });

  it("only the importing client's data: another client cannot confirm it, and importing the same file is theirs alone", async () => {
    expect((await confirm(BIA.key, negociacaoId)).status).toBe(404);
    expect(await ledgerCount(BIA.clientId)).toBe(0);
    const res = await upload(BIA.key, await negociacaoXlsx(TRADES), 'negociacao-2024.xlsx');
    expect(res.status).toBe(201);
    const body = await bodyOf(res);
    expect(body.import_id).not.toBe(negociacaoId);
    expect((await confirm(BIA.key, body.import_id)).status).toBe(200);
    expect(await ledgerCount(BIA.clientId)).toBe(5);
    expect(await position(ANA.clientId, 'HGLG11')).toMatchObject({ quantity: 120 });
  });

  it('refuses an oversized file, a request without a file, and a file that is not a statement', async () => {
    const big = await upload(ANA.key, Buffer.alloc(600 * 1024, 'a'), 'grande.csv');
    expect(big.status).toBe(413);
    expect((await bodyOf(big)).error.code).toBe('payload_too_large');
    const none = await fetch(`${baseUrl}/me/imports`, { method: 'POST', headers: { authorization: `Bearer ${ANA.key}` }, body: new FormData() });
    expect(none.status).toBe(400);
    const other = await upload(ANA.key, 'nome;idade\nana;30\n', 'planilha.csv');
    expect(other.status).toBe(422);
    expect((await bodyOf(other)).error.message).toContain('não encontrei o cabeçalho do extrato da B3');
    const anon = await fetch(`${baseUrl}/me/imports`, { method: 'POST', body: new FormData() });
    expect(anon.status).toBe(401);
  });

  it('the monthly tax and the yearly report answer in the chat, and the report downloads as CSV', async () => {
    const tax = await invoke(ANA.clientId, 'conversa-ir', { name: 'apurar_ir_vendas', args: { data_inicio: '2024-05-01', data_fim: '2024-05-31' } });
    expect(tax.status).toBe('ok');
    const month = tax.result as { total_darf: string; text: string; meses: Array<Record<string, unknown>> };
    expect(month.total_darf).toBe('53.33');
    expect(month.meses).toEqual([
      expect.objectContaining({ mes: '2024-05', resultado: '1066.67', base_calculo: '266.67', imposto: '53.33', codigo_darf: '6015', vencimento: '2024-06-28' }),
    ]);
    expect(month.text).toContain('R$ 53,33');
    const yearly = await invoke(ANA.clientId, 'conversa-ir', { name: 'relatorio_ir_anual', args: { ano: 2024 } });
    expect(yearly.status).toBe('ok');
    const report = yearly.result as { text: string; csv_url: string };
    expect(report.text).toContain('| HGLG11 | 11.728.688/0001-47 |');
    expect(report.text).toContain('R$ 264,00');
    const csv = await fetch(`${baseUrl}${report.csv_url}`, { headers: { authorization: `Bearer ${ANA.key}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('cota-imposto-de-renda-2024.csv');
    expect(await csv.text()).toContain('"2024-05";1066,67;0,00;266,67;53,33;53,33;"6015";"2024-06-28"');
    // The report is the conversation's last report: "manda por e-mail" sends it after "sim".
    const mail = await invoke(ANA.clientId, 'conversa-ir', { name: 'enviar_relatorio_email', args: { destinatario: 'ana@exemplo.com.br' } });
    expect(mail.status).toBe('confirmation_required');
    expect(mail.message).toContain('Imposto de renda 2025 (ano-calendário 2024): FIIs');
    expect((await invoke(ANA.clientId, 'conversa-ir', null, 'yes')).status).toBe('ok');
    const { rows: outbox } = await pg.query(`SELECT o.recipient, r.kind FROM email_outbox o JOIN tool_reports r ON r.report_id = o.report_id WHERE o.client_id = $1`, [
      ANA.clientId,
    ]);
    expect(outbox).toEqual([{ recipient: 'ana@exemplo.com.br', kind: 'income_tax' }]);
    expect((await fetch(`${baseUrl}/me/reports/ir/dois-mil.csv`, { headers: { authorization: `Bearer ${ANA.key}` } })).status).toBe(404);
    expect((await fetch(`${baseUrl}/me/reports/ir/2024.csv`)).status).toBe(401);
  });

  it('erasure removes the ledger, its imports and what derives from them', async () => {
    const res = await fetch(`${baseUrl}/me/data`, { method: 'DELETE', headers: { authorization: `Bearer ${BIA.key}` } });
    expect(res.status).toBe(200);
    for (const table of ['wh_client_ledger', 'wh_client_imports', 'wh_client_positions', 'wh_client_sales']) {
      const { rows } = await pg.query(`SELECT count(*)::int AS n FROM ${table} WHERE client_id = $1`, [BIA.clientId]);
      expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
    }
    expect(await ledgerCount(ANA.clientId)).toBe(9);
  });
});
