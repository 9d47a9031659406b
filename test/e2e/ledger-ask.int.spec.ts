import { Client } from 'pg';
import ExcelJS from 'exceljs';
import { hashApiKey } from '@cota/access';
import { AskReply, Cluster, startCluster } from './cluster';

/**
 * A client with no portfolio uploads a small B3 statement, confirms it, and asks in the chat (POST
 * /ask, the seven services on NATS, the real warehouse) what the acceptance asks: the average price,
 * the gain or loss, the income received in a month and the tax due on a sale. Figures by hand below.
 */
const NEW = { clientId: 'cliente-sem-carteira', key: 'chave-do-cliente-sem-carteira-01' };

let cluster: Cluster;
let pg: Client;

beforeAll(async () => {
  cluster = await startCluster();
  pg = new Client({ connectionString: cluster.db.url });
  await pg.connect();
  await pg.query(`INSERT INTO api_keys (key_hash, client_id, source) VALUES ($1, $2, 'admin')`, [hashApiKey(NEW.key), NEW.clientId]);
}, 900_000);

afterAll(async () => {
  await pg?.end();
  await cluster?.stop();
});

async function ask(question: string, conversation = 'conversa-carteira'): Promise<AskReply> {
  const res = await fetch(`${cluster.baseUrl}/ask`, {
    method: 'POST',
    headers: { authorization: `Bearer ${NEW.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ question, conversation_id: conversation, nickname: 'Rui', client_id: NEW.clientId }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as AskReply;
}

/** HGLG11: 100 at R$ 150,00 and 50 at R$ 160,00 (average 153,3333), 60 sold at R$ 140,00 (−800,00) and 30 at R$ 170,00 (+500,00). */
async function negociacao(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Negociação');
  ws.addRow(['Data do Negócio', 'Tipo de Movimentação', 'Mercado', 'Prazo/Vencimento', 'Instituição', 'Código de Negociação', 'Quantidade', 'Preço', 'Valor']);
  ws.addRow(['10/01/2024', 'Compra', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11', 100, 150, 15000]);
  ws.addRow(['15/02/2024', 'Compra', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11', 50, 160, 8000]);
  ws.addRow(['20/03/2024', 'Venda', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11', 60, 140, 8400]);
  ws.addRow(['20/05/2024', 'Venda', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'HGLG11', 30, 170, 5100]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const MOVIMENTACAO = [
  'Entrada/Saída;Data;Movimentação;Produto;Instituição;Quantidade;Preço unitário;Valor da Operação',
  'Credito;14/03/2024;Rendimento;HGLG11 - CSHG LOGISTICA FDO INV IMOB;XP INVESTIMENTOS CCTVM S/A;150;1,10;165,00',
].join('\r\n');

async function importFile(file: Buffer, name: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([file]), name);
  const up = await fetch(`${cluster.baseUrl}/me/imports`, { method: 'POST', headers: { authorization: `Bearer ${NEW.key}` }, body: form });
  expect(up.status).toBe(201);
  const { import_id } = (await up.json()) as { import_id: string };
  const ok = await fetch(`${cluster.baseUrl}/me/imports/${import_id}/confirm`, { method: 'POST', headers: { authorization: `Bearer ${NEW.key}` } });
  expect(ok.status).toBe(200);
}

describe('a new client imports a B3 statement and asks about it', () => {
  it('answers the average price, the gain or loss, the income of a month and the tax of a sale', async () => {
    await importFile(await negociacao(), 'negociacao.xlsx');
    await importFile(Buffer.from(MOVIMENTACAO, 'utf8'), 'movimentacao.csv');
    const { rows } = await pg.query(`SELECT close_price::float AS p FROM wh_latest_price WHERE ticker = 'HGLG11'`);
    const last = rows[0].p as number;

    // 23 000 / 150 = 153,33 (sales do not move it).
    const avg = await ask('qual o meu preço médio do HGLG11?');
    expect(avg.answer).toContain('R$ 153,33');

    // 60 shares left at a cost of 60 × 153,3333 = 9 200,00; the gain at the last close.
    const gain = await ask('estou ganhando ou perdendo com o HGLG11?');
    const expected = (60 * last - 9200).toFixed(2).replace('.', ',');
    expect(gain.answer.replace(/\./g, '')).toContain(expected.replace('-', ''));

    const income = await ask('quanto recebi de rendimentos em março de 2024?');
    expect(income.answer).toContain('R$ 165,00');

    // May: 30 × 170 − 30 × 153,3333 = 500,00, less the 800,00 lost in March: nothing taxable; March's loss leaves 300,00 to carry.
    const tax = await ask('qual o DARF das minhas vendas de maio de 2024?');
    expect(tax.meta.tool.name).toBe('apurar_ir_vendas');
    expect(tax.answer).toContain('Não há DARF a pagar');
    expect(tax.answer).toContain('R$ 300,00');

    const realized = await ask('quanto lucrei na venda de HGLG11 em maio de 2024?');
    expect(realized.answer).toContain('R$ 500,00');

    // The money-weighted return of 2024 from the first trade (10/01), against the IFIX over the same dates: from its
    // close before 10/01 to its last of 2024; the base has only adjusted closes of HGLG11 in 2024, and says so.
    const ret = await ask('quanto minha carteira rendeu em 2024 contra o cdi?');
    const point = async (date: string) =>
      (await pg.query(`SELECT points::float AS p FROM wh_index_history WHERE index_name = 'IFIX' AND index_date <= $1 ORDER BY index_date DESC LIMIT 1`, [date])).rows[0]
        .p as number;
    const ifix = ((await point('2024-12-31')) / (await point('2024-01-09')) - 1) * 100;
    expect(ret.meta.tool.name).toBe('rentabilidade_carteira');
    expect(ret.answer).toContain('De 10/01/2024 a 31/12/2024');
    expect(ret.answer).toContain('Modified Dietz');
    expect(ret.answer).toContain(`${ifix.toFixed(2).replace('.', ',')}% do IFIX`);
    expect(ret.answer).toContain('ajustados por proventos');

    // "devo" as owing a tax reaches the tax tool, not the advice rule.
    const owe = await ask('devo pagar imposto das vendas de maio de 2024?');
    expect(owe.meta.tool.name).toBe('apurar_ir_vendas');
  });
});
