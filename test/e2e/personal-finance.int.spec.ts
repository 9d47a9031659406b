import { Client } from 'pg';
import { Cluster, startCluster } from './cluster';

/**
 * Personal finance through POST /ask over real NATS, Postgres and Redis: an expense said in words is
 * previewed, confirmed once (even when two "sim" race), queried back in totals, and never visible to
 * another client. Missing arguments are asked for and completed by the next message.
 */
let cluster: Cluster;
let pg: Client;

beforeAll(async () => {
  cluster = await startCluster({});
  pg = new Client({ connectionString: cluster.db.url });
  await pg.connect();
}, 300_000);

afterAll(async () => {
  await pg?.end();
  await cluster?.stop();
});

const rows = async (client: string) =>
  (await pg.query("SELECT tipo, valor::text AS valor, categoria, to_char(data, 'YYYY-MM-DD') AS data FROM client_transactions WHERE client_id = $1 ORDER BY created_at", [client])).rows;

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
