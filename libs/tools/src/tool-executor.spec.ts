import { InMemoryTransactionRepository } from './transactions';
import { Column, CotaError, QueryParams, QueryResult, Row } from '@cota/contracts';
import { loadToolGatePolicy } from '@cota/tool-gating';
import { InMemoryClientDirectory, InMemoryOutbox, InMemoryReportRepository } from './repositories';
import { Report } from './report';
import { ToolExecutor } from './tool-executor';
import { WarehouseQuery } from './warehouse-query';

// Synthetic rows for unit tests only (not market data): shapes follow the catalog's QueryResult.
const col = (name: string, type: Column['type'], label = name): Column => ({ name, type, label });
function result(entity: string, columns: Column[], rows: Row[]): QueryResult {
  return {
    entity,
    columns,
    rows,
    row_count: rows.length,
    truncated: false,
    as_of: null,
    sources: [`test:${entity}`],
    params: { ticker: null, tickers: [], agg: 'list', window: null, limit: null, order: null, order_by: null, filters: {} },
  };
}

class FakeWarehouse implements WarehouseQuery {
  readonly calls: Array<{ entity: string; params: Partial<QueryParams>; client_id: string }> = [];
  failing = new Set<string>();
  positions: Record<string, Row[]> = {
    cli1: [
      { ticker: 'HGLG11', sector: 'Logística', quantity: 10, market_value: '1600.00' },
      { ticker: 'XPML11', sector: 'Shoppings', quantity: 5, market_value: '550.50' },
    ],
  };
  async query(entity: string, params: Partial<QueryParams>, ctx: { request_id: string; client_id: string }): Promise<QueryResult> {
    this.calls.push({ entity, params, client_id: ctx.client_id });
    if (this.failing.has(entity)) throw new CotaError('NOT_FOUND', 'sem dados');
    const held = (rows: Row[]) => rows.filter((r) => (params.tickers ?? []).includes(String(r.ticker)));
    switch (entity) {
      case 'macro_consolidada':
        return result(
          entity,
          [
            col('ref_date', 'date'),
            col('selic', 'percent', 'SELIC (% a.a.)'),
            col('ipca', 'percent', 'IPCA (% no mês)'),
            col('ifix_points', 'number'),
            col('ifix_var_pct', 'percent'),
            col('usd_sell_amt', 'money'),
          ],
          [
            { ref_date: '2030-01-10', selic: '10.50', ipca: null, ifix_points: '3000', ifix_var_pct: '-0.25', usd_sell_amt: '5.10' },
            { ref_date: '2030-01-02', selic: '10.50', ipca: '0.40', ifix_points: '2990', ifix_var_pct: '0.10', usd_sell_amt: '5.00' },
          ],
        );
      case 'history_market_indicators':
        return result(
          entity,
          [col('indicator_date', 'date'), col('indicator_name', 'text'), col('indicator_amt', 'percent', 'Valor (%)')],
          [
            { indicator_date: '2030-01-09', indicator_name: 'CDI', indicator_amt: '10.40' },
            { indicator_date: '2030-01-09', indicator_name: 'META-SELIC', indicator_amt: '10.75' },
          ],
        );
      case 'history_b3_indexes':
      case 'history_currency_rates':
        return result(entity, [col('index_date', 'date')], []);
      case 'client_fiis_enriched_portfolio':
        return result(
          entity,
          [col('ticker', 'text'), col('sector', 'text', 'Segmento'), col('quantity', 'integer', 'Cotas'), col('market_value', 'money', 'Valor de mercado')],
          this.positions[ctx.client_id] ?? [],
        );
      case 'fiis_dividendos':
        return result(
          entity,
          [col('ticker', 'text'), col('traded_until_date', 'date'), col('payment_date', 'date'), col('dividend_amt', 'money')],
          held([
            { ticker: 'HGLG11', traded_until_date: '2030-02-27', payment_date: '2030-03-06', dividend_amt: '1.10' },
            { ticker: 'HGLG11', traded_until_date: '2029-12-30', payment_date: '2030-01-07', dividend_amt: '1.10' },
            { ticker: 'HGLG11', traded_until_date: '2029-11-28', payment_date: '2029-12-06', dividend_amt: '1.05' },
            { ticker: 'XPML11', traded_until_date: '2029-12-30', payment_date: '2030-01-08', dividend_amt: '0.92' },
          ]),
        );
      case 'fiis_noticias':
        return result(
          entity,
          [col('ticker', 'text'), col('title', 'text'), col('source', 'text'), col('url', 'url'), col('published_at', 'datetime')],
          held([
            { ticker: 'HGLG11', title: 'Manchete de teste A', source: 'Fonte X', url: 'https://exemplo.com/a', published_at: '2030-01-05T10:00:00' },
            { ticker: 'XPML11', title: 'Manchete de teste B', source: 'Fonte Y', url: 'https://exemplo.com/b', published_at: '2030-01-06T10:00:00' },
          ]),
        );
      default:
        throw new CotaError('NOT_FOUND', `entity ${entity}`);
    }
  }
}

function setup(outbox = new InMemoryOutbox()) {
  const policy = loadToolGatePolicy();
  const warehouse = new FakeWarehouse();
  const reports = new InMemoryReportRepository();
  let n = 0;
  const tools = new ToolExecutor({
    reports,
    mailer: outbox,
    clients: new InMemoryClientDirectory({ cli1: 'cli1@exemplo.com.br' }),
    warehouse,
    transactions: new InMemoryTransactionRepository(),
    vocabulary: policy.filters,
    now: () => new Date('2030-01-15T12:00:00Z'),
    randomId: () => String(++n).padStart(6, '0'),
  });
  const run = (name: string, args: Record<string, unknown> = {}, client_id = 'cli1') => tools.run({ request_id: 'r1', client_id, conversation_id: 'c1', name, args });
  return { warehouse, reports, outbox, run };
}

describe('gerar_relatorio_diario', () => {
  it('builds the briefing from the warehouse, stores it and sets the active report', async () => {
    const { run, reports, warehouse } = setup();
    const out = await run('gerar_relatorio_diario');
    const report = out.result as Report;
    expect(report.report_id).toBe('rel_20300115_120000_000001');
    expect(report.title).toBe('Briefing diário de 15/01/2030');
    expect(report.sections.map((s) => s.id)).toEqual(['mercado', 'carteira', 'proventos', 'noticias']);
    expect(out.session_updates).toEqual([
      { key: 'active_report_id', value: report.report_id, ttl_seconds: null },
      { key: 'last_report_id', value: report.report_id, ttl_seconds: null },
    ]);
    expect(reports.entries).toHaveLength(1);

    const market = report.sections[0];
    expect(market.rows.map((r) => [r.indicador, r.valor_formatado, r.data])).toEqual([
      ['IFIX', '3.000 pontos', '2030-01-10'],
      ['SELIC', '10,50% a.a.', '2030-01-10'],
      ['CDI', '10,40% a.a.', '2030-01-09'], // from the long table: exact code, never META-SELIC
      ['IPCA', '0,40% no mês', '2030-01-02'], // newest non-blank value of a monthly indicator
      ['Dólar', 'R$ 5,10', '2030-01-10'],
    ]);
    expect(market.rows[0].variacao_formatada).toBe('-0,25%');

    const carteira = report.sections[1];
    expect(carteira.rows.map((r) => [r.ticker, r.segmento])).toEqual([
      ['HGLG11', 'Logística'],
      ['XPML11', 'Shoppings'],
    ]);
    const proventos = report.sections[2];
    expect(proventos.rows.map((r) => [r.ticker, r.data_pagamento, r.situacao])).toEqual([
      ['HGLG11', '2030-03-06', 'a pagar'],
      ['XPML11', '2030-01-08', 'pago'],
      ['HGLG11', '2030-01-07', 'pago'],
    ]);
    expect(report.sections[3].rows.map((r) => r.titulo)).toEqual(['Manchete de teste B', 'Manchete de teste A']);

    expect(report.text).toContain('## Briefing diário de 15/01/2030');
    expect(report.text).toContain('- **IFIX**: 3.000 pontos (-0,25% no dia) — 10/01/2030');
    expect(report.text).toContain('| HGLG11 | Logística | 10 | R$ 1.600,00 |');
    expect(report.text).toContain('[Manchete de teste A](https://exemplo.com/a) — Fonte X');
    // Fund entities are asked only for the held funds; the portfolio for the calling client.
    expect(warehouse.calls.find((c) => c.entity === 'fiis_dividendos')!.params.tickers).toEqual(['HGLG11', 'XPML11']);
    expect(warehouse.calls.every((c) => c.client_id === 'cli1')).toBe(true);
  });

  it('says what is missing instead of inventing it', async () => {
    const { run, warehouse } = setup();
    warehouse.failing.add('macro_consolidada');
    warehouse.positions = {};
    const report = (await run('gerar_relatorio_diario')).result as Report;
    expect(report.sections[0].note).toMatch(/Sem dados no warehouse para: IFIX, SELIC, IPCA, Dólar\..*Consultas indisponíveis: macro_consolidada/);
    expect(report.sections[1].note).toBe('Você não tem posições em FIIs registradas.');
    expect(report.sections[2].rows).toEqual([]);
    expect(warehouse.calls.some((c) => c.entity === 'fiis_dividendos')).toBe(false);
  });

  it('an outage of the warehouse propagates (the gate turns it into 503)', async () => {
    const { run, warehouse } = setup();
    warehouse.query = async () => {
      throw new CotaError('UNAVAILABLE', 'down');
    };
    await expect(run('gerar_relatorio_diario')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('filtrar_relatorio', () => {
  it('keeps only the logistics funds, as a new report pointing at the original', async () => {
    const { run } = setup();
    const base = (await run('gerar_relatorio_diario')).result as Report;
    const out = await run('filtrar_relatorio', { report_id: base.report_id, segmento: 'logistica' });
    const f = out.result as Report;
    expect(f.parent_report_id).toBe(base.report_id);
    expect(f.title).toBe('Briefing diário de 15/01/2030 — filtro: Logística');
    expect(f.sections.map((s) => s.id)).toEqual(['carteira', 'proventos', 'noticias']);
    expect(f.sections.flatMap((s) => s.rows.map((r) => r.ticker))).toEqual(['HGLG11', 'HGLG11', 'HGLG11', 'HGLG11']);
    expect(out.session_updates).toEqual([{ key: 'last_report_id', value: f.report_id, ttl_seconds: null }]);
  });

  it('filters by section and by ticker', async () => {
    const { run } = setup();
    const base = (await run('gerar_relatorio_diario')).result as Report;
    const bySection = (await run('filtrar_relatorio', { report_id: base.report_id, secao: 'mercado' })).result as Report;
    expect(bySection.sections.map((s) => s.id)).toEqual(['mercado']);
    const byTicker = (await run('filtrar_relatorio', { report_id: base.report_id, tickers: ['XPML11'], secao: 'proventos' })).result as Report;
    expect(byTicker.sections[0].rows.map((r) => r.ticker)).toEqual(['XPML11']);
  });

  it("never reads another client's report", async () => {
    const { run } = setup();
    const base = (await run('gerar_relatorio_diario')).result as Report;
    await expect(run('filtrar_relatorio', { report_id: base.report_id, segmento: 'logistica' }, 'cli2')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/Não encontrei o relatório/),
    });
  });
});

describe('enviar_relatorio_email', () => {
  it('previews without queuing, then queues to the registered address and says so honestly', async () => {
    const { run, outbox } = setup();
    const base = (await run('gerar_relatorio_diario')).result as Report;
    const preview = await run('enviar_relatorio_email', { report_id: base.report_id, previa: true });
    expect(preview.result).toEqual({
      report_id: base.report_id,
      titulo: base.title,
      destinatario: 'cli1@exemplo.com.br',
      destinatario_origem: 'cadastro',
      entrega_prevista: expect.stringMatching(/não é enviado/),
    });
    expect(outbox.messages).toHaveLength(0);

    const sent = await run('enviar_relatorio_email', { report_id: base.report_id, destinatario: 'cli1@exemplo.com.br' });
    expect(sent.result).toMatchObject({ status: 'queued', destinatario: 'cli1@exemplo.com.br' });
    // No SMTP server here (InMemoryOutbox delivers nothing): stored, and the answer says it was not sent.
    expect(sent.result).toMatchObject({ entrega: 'desativada' });
    expect((sent.result as { text: string }).text).toMatch(
      /^O relatório "Briefing diário de 15\/01\/2030" foi guardado na caixa de saída, mas não foi enviado para cli1@exemplo\.com\.br: não há servidor de e-mail configurado/,
    );
    expect((sent.result as { text: string }).text).not.toMatch(/fila de envio/);
    expect(outbox.messages).toEqual([
      expect.objectContaining({ client_id: 'cli1', report_id: base.report_id, recipient: 'cli1@exemplo.com.br', body: base.text, status: 'queued' }),
    ]);
  });

  it('with a delivering mailer (SMTP configured) says the report is in the send queue for the address', async () => {
    const { run } = setup(new InMemoryOutbox(true));
    const base = (await run('gerar_relatorio_diario')).result as Report;
    const sent = await run('enviar_relatorio_email', { report_id: base.report_id });
    expect(sent.result).toMatchObject({ status: 'queued', entrega: 'smtp', destinatario: 'cli1@exemplo.com.br' });
    expect((sent.result as { text: string }).text).toBe(
      'O relatório "Briefing diário de 15/01/2030" foi colocado na fila de envio para cli1@exemplo.com.br e será entregue em instantes.',
    );
  });

  it('a repeated confirmation queues the message once', async () => {
    const { run, outbox } = setup();
    const base = (await run('gerar_relatorio_diario')).result as Report;
    const args = { report_id: base.report_id, destinatario: 'cli1@exemplo.com.br', confirmacao_id: 'req-preview-1' };
    const first = await run('enviar_relatorio_email', args);
    const second = await run('enviar_relatorio_email', args);
    expect((second.result as { message_id: string }).message_id).toBe((first.result as { message_id: string }).message_id);
    expect(outbox.messages).toHaveLength(1);
    expect(outbox.messages[0].idempotency_key).toBe('cli1:req-preview-1');
  });

  it("refuses another client's report and explains a missing address", async () => {
    const { run, outbox } = setup();
    const base = (await run('gerar_relatorio_diario')).result as Report;
    await expect(run('enviar_relatorio_email', { report_id: base.report_id }, 'cli2')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(outbox.messages).toHaveLength(0);
  });

  it('asks for an address when none is registered, and rejects malformed ones', async () => {
    const { run, reports } = setup();
    const base = (await run('gerar_relatorio_diario')).result as Report;
    // A client without registered e-mail owning a report.
    await reports.save({ client_id: 'cli9', conversation_id: 'c1', report: { ...base, report_id: 'rel_20300115_120000_999999' } });
    await expect(run('enviar_relatorio_email', { report_id: 'rel_20300115_120000_999999', previa: true }, 'cli9')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/Não encontrei um e-mail cadastrado/),
    });
    await expect(run('enviar_relatorio_email', { report_id: base.report_id, destinatario: 'nao-e-email' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
