import { Client } from 'pg';
import { startTestSmtp, TestSmtp } from '@cota/test-support';
import { Cluster, startCluster } from './cluster';

/**
 * Tools through POST /ask over real NATS, Postgres and Redis: an expense said in words is previewed,
 * confirmed once (even when two "sim" race), queried back in totals, and never visible to another
 * client; missing arguments are asked for and completed by the next message; a report e-mailed after
 * "sim" reaches a real SMTP server (the executor has SMTP_URL).
 */
let cluster: Cluster;
let pg: Client;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  cluster = await startCluster({ serviceEnv: { executor: { SMTP_URL: smtp.url, COTA_MAIL_POLL_MS: '500' } } });
  pg = new Client({ connectionString: cluster.db.url });
  await pg.connect();
}, 300_000);

afterAll(async () => {
  await pg?.end();
  await cluster?.stop();
  await smtp?.stop();
});

describe('e-mail through /ask', () => {
  it('the briefing, "manda por e-mail", "sim, confirmo o envio": the message arrives at the SMTP server once', async () => {
    const conversation = 'mail-1';
    const report = await cluster.ask('o que temos pra hoje?', { conversation });
    expect(report.body.meta.tool).toMatchObject({ name: 'gerar_relatorio_diario', status: 'executed' });
    const ask = await cluster.ask('manda esse relatório pro meu e-mail', { conversation });
    expect(ask.body.status).toBe('confirmation_required');
    expect(ask.body.answer).toContain('O e-mail sai em instantes');
    expect(smtp.received).toHaveLength(0);
    const yes = await cluster.ask('sim, confirmo o envio', { conversation });
    expect(yes.body.meta.tool).toMatchObject({ name: 'enviar_relatorio_email', status: 'executed' });
    expect(yes.body.answer).toMatch(/será entregue em instantes/);
    const [mail] = await smtp.waitFor(1, 20_000);
    expect(mail.to).toEqual(['cliente-demo-1@exemplo.com.br']);
    expect(mail.subject).toContain('Briefing diário');
    expect(mail.html).toContain('Mercado');
    expect(mail.text).toContain('Mercado');
    // A second yes finds nothing pending: the message is not sent again.
    const again = await cluster.ask('sim', { conversation });
    expect(again.body.answer).toMatch(/[Nn]ão há nenhuma ação aguardando/);
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.received).toHaveLength(1);
  });
});

const rows = async (client: string) =>
  (await pg.query("SELECT tipo, valor::text AS valor, categoria, to_char(data, 'YYYY-MM-DD') AS data FROM client_transactions WHERE client_id = $1 ORDER BY created_at", [client]))
    .rows;

describe('transactions end to end', () => {
  it('previews, records once under two concurrent "sim", then answers the month total; another client sees nothing', async () => {
    const conversation = 'pf-1';
    const preview = await cluster.ask('gastei 85,90 na farmácia hoje', { conversation });
    expect(preview.status).toBe(200);
    expect(preview.body.status).toBe('confirmation_required');
    expect(preview.body.meta.tool).toMatchObject({ name: 'registrar_transacao', status: 'confirmation_required', args: { tipo: 'despesa', valor: '85.9', categoria: 'farmacia' } });
    expect(preview.body.answer).toContain('R$ 85,90');
    expect(await rows('cliente-demo-1')).toEqual([]);

    const [a, b] = await Promise.all([cluster.ask('sim', { conversation }), cluster.ask('sim, pode registrar', { conversation })]);
    const statuses = [a.body.meta.tool?.status, b.body.meta.tool?.status];
    expect(statuses).toContain('executed');
    expect(await rows('cliente-demo-1')).toEqual([expect.objectContaining({ tipo: 'despesa', valor: '85.90', categoria: 'farmacia' })]);

    await cluster.ask('recebi 3.000 de salário ontem', { conversation: 'pf-2' });
    const yes = await cluster.ask('confirmo', { conversation: 'pf-2' });
    expect(yes.body.meta.tool).toMatchObject({ name: 'registrar_transacao', status: 'executed' });

    const month = await cluster.ask('quanto gastei esse mês?', { conversation: 'pf-3' });
    expect(month.body.meta.tool).toMatchObject({ name: 'consultar_transacoes', status: 'executed', args: { tipo: 'despesa' } });
    expect(month.body.answer).toContain('R$ 85,90');
    const all = await cluster.ask('mostra minhas transações', { conversation: 'pf-3' });
    expect(all.body.answer).toMatch(/saldo de R\$ 2\.914,10/);

    const other = await cluster.ask('quanto gastei esse mês?', { conversation: 'pf-1', who: 'bia' });
    expect(other.body.meta.tool).toMatchObject({ name: 'consultar_transacoes', status: 'executed' });
    expect(other.body.answer).not.toContain('85,90');
    expect(other.body.results.tool).toMatchObject({ quantidade: 0 });
  });

  it('"não" cancels the pending entry and nothing is written', async () => {
    const before = (await rows('cliente-demo-2')).length;
    await cluster.ask('paguei 120 reais de uber', { conversation: 'pf-4', who: 'bia' });
    const no = await cluster.ask('cancela', { conversation: 'pf-4', who: 'bia' });
    expect(no.body.meta.tool).toMatchObject({ name: 'registrar_transacao', status: 'cancelled' });
    expect(await rows('cliente-demo-2')).toHaveLength(before);
  });

  it('asks for exactly the missing argument and completes the call with the next message', async () => {
    const first = await cluster.ask('qual a TIR?', { conversation: 'pf-5' });
    expect(first.body.status).toBe('needs_clarification');
    expect(first.body.meta.tool).toMatchObject({ name: 'calcular_financas', status: 'needs_argument', args: { operacao: 'tir' } });
    expect(first.body.answer).toMatch(/fluxos de caixa/);
    const second = await cluster.ask('-1000, 300, 400 e 500', { conversation: 'pf-5' });
    expect(second.body.meta.tool).toMatchObject({ name: 'calcular_financas', status: 'executed', args: { operacao: 'tir', fluxos: ['-1000', '300', '400', '500'] } });
    expect(second.body.answer).toContain('8,90%');
    // A follow-up edits the last call: the same flows at another rate.
    const npv = await cluster.ask('VPL dos fluxos -1000, 300, 400 e 500 a 10% ao ano', { conversation: 'pf-6' });
    expect(npv.body.answer).toContain('-R$ 21,04');
    const edit = await cluster.ask('e a 5%?', { conversation: 'pf-6' });
    expect(edit.body.meta.tool).toMatchObject({ name: 'calcular_financas', status: 'executed', args: { operacao: 'vpl', taxa: '5' } });
  });
});
