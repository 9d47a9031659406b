import Decimal from 'decimal.js';
import type { NarrateRequest, QueryResult } from '@cota/contracts';
import { formatMoney } from './format';
import { DeterministicNarrator } from './deterministic-narrator';
import { loadCatalogColumns } from './catalog-columns';
import { createNarrator } from './narrator';
import { DEMO_CLIENTS } from '@cota/warehouse';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { dataDir } from '@cota/config';
import { araquemCsv, realResult, tickerRecords, withRefDate } from './testing/real-rows';
import { narrateRequest } from './testing/requests';

/**
 * One answer per catalog entity, built from real rows (araquem samples read in place) shaped as
 * the executor returns them. The snapshots are the reviewed wording; the explicit expectations
 * pin the facts and formats that must never drift.
 */

const narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
const det: DeterministicNarrator = narrator.deterministic;
const answer = (question: string, data: QueryResult, extra: Partial<NarrateRequest> = {}) => det.narrate(narrateRequest({ question, data, ...extra })).answer;

const byTicker = (csv: string) => new Map(araquemCsv(csv).map((r) => [r.ticker, r]));
const registrations = byTicker('fiis_registrations');
const snapshots = byTicker('fiis_financials_snapshot');

describe('entity answers from real rows', () => {
  it('fiis_cadastro: the CNPJ asked for, in one sentence', () => {
    const text = answer('Qual o CNPJ do HGLG11?', realResult('fiis_cadastro', [registrations.get('HGLG11')!], { ticker: 'HGLG11' }));
    expect(text).toContain('O CNPJ do HGLG11 (Pátria Log Fundo Investimento Imobiliário Responsabilidade Ltda) é 11.728.688/0001-47.');
    expect(text).toMatch(/Fonte: .+\.$/);
    expect(text).toMatchSnapshot();
  });

  it('fiis_cadastro: the head count is dated by its own report, in the sentence and the source line', () => {
    // The registry row comes with the snapshot's date; the head count is CVM's report of December 2023.
    const row = { ...registrations.get('MXRF11')!, shareholders_count: '1022791', shareholders_source: 'cvm', shareholders_as_of: '2023-12-01' };
    const data = { ...realResult('fiis_cadastro', [row], { ticker: 'MXRF11' }), sources: ['araquem'], as_of: '2025-11-22' };
    const text = answer('quantos cotistas tem o MXRF11?', data);
    expect(text).toContain('O MXRF11 tem 1.022.791 cotistas (segundo CVM (Informe Mensal de FII), dezembro de 2023).');
    expect(text).toMatch(/Fonte: CVM \(Informe Mensal de FII\), dados de dezembro de 2023\.$/);
    expect(text).not.toContain('22/11/2025');
    // The CNPJ of the same row keeps the snapshot's date.
    expect(answer('CNPJ do MXRF11', data)).toMatch(/dados até 22\/11\/2025\.$/);
  });

  it('fiis_cadastro: a registry summary when no field is named', () => {
    const text = answer('Me fale do cadastro do KNRI11', realResult('fiis_cadastro', [registrations.get('KNRI11')!], { ticker: 'KNRI11' }));
    expect(text).toContain('12.005.956/0001-65');
    expect(text).toContain('11/08/2010');
    expect(text).toMatchSnapshot();
  });

  it('fiis_cadastro: several funds grouped by fund, in the order asked', () => {
    const data = realResult('fiis_cadastro', [registrations.get('XPML11')!, registrations.get('HGLG11')!], { tickers: ['HGLG11', 'XPML11'] });
    const text = answer('CNPJ do HGLG11 e do XPML11', data);
    expect(text.indexOf('HGLG11')).toBeLessThan(text.indexOf('XPML11'));
    expect(text).toContain('28.757.546/0001-00');
    expect(text).toMatchSnapshot();
  });

  it('fiis_dividendos: the last dividend in a sentence', () => {
    const rec = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date')[0];
    const text = answer('Qual o último dividendo do ABCP11?', realResult('fiis_dividendos', [rec], { ticker: 'ABCP11', agg: 'latest' }));
    expect(text).toContain('Último dividendo do ABCP11: R$ 0,65 por cota, com data-com em 31/10/2025 e pagamento em 07/11/2025.');
    expect(text).toContain('dados até 31/10/2025');
    expect(text).toMatchSnapshot();
  });

  it('fiis_dividendos: many rows become a lead line and a table', () => {
    const recs = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date').slice(0, 6);
    const text = answer('Dividendos do ABCP11 nos últimos 6 pagamentos', realResult('fiis_dividendos', recs, { ticker: 'ABCP11', window: 'rows:6' }));
    expect(text).toContain('nos últimos 6 pagamentos');
    expect(text).toContain('| Data com | Data de pagamento | Dividendo por cota |');
    expect(text.split('\n').filter((l) => l.startsWith('| ') && /\d{2}\/\d{2}\/\d{4}/.test(l))).toHaveLength(6);
    expect(text).toMatchSnapshot();
  });

  it('fiis_dividendos: an average is phrased as such, with its period', () => {
    const recs = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date').slice(0, 6);
    const sum = recs.reduce((s, r) => s.plus(r.dividend_amt), new Decimal(0));
    const dates = recs.map((r) => r.traded_until_date.slice(0, 10)).sort();
    // The executor's aggregate shape (libs/warehouse buildAggregate): key, period, count, AVG(column).
    const data: QueryResult = {
      ...realResult('fiis_dividendos', [], { ticker: 'ABCP11', agg: 'avg', window: 'months:6' }),
      columns: [
        { name: 'ticker', type: 'text', label: 'Ticker' },
        { name: 'period_start', type: 'date', label: 'Início do período' },
        { name: 'period_end', type: 'date', label: 'Fim do período' },
        { name: 'row_count', type: 'integer', label: 'Quantidade de registros' },
        { name: 'dividend_amt', type: 'money', label: 'Média de dividendo por cota (r$)' },
      ],
      rows: [{ ticker: 'ABCP11', period_start: dates[0], period_end: dates.at(-1), row_count: recs.length, dividend_amt: sum.div(recs.length).toFixed(20) }],
      row_count: 1,
      as_of: dates.at(-1)!,
    };
    const text = answer('Média dos dividendos do ABCP11 nos últimos 6 meses', data);
    expect(text).toMatch(/^A média dos dividendos do ABCP11 nos últimos 6 meses foi de R\$ \d+,\d{2} por cota \(6 pagamentos, de \d{2}\/\d{2}\/\d{4} a 31\/10\/2025\)\./);
    expect(text).toMatchSnapshot();
  });

  it('fiis_dividendos: several funds, each with its own table', () => {
    const recs = [...tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date').slice(0, 3), ...tickerRecords('fiis_dividends', 'AFHI11', 'traded_until_date').slice(0, 3)];
    const text = answer('Dividendos do ABCP11 e do AFHI11', realResult('fiis_dividendos', recs, { tickers: ['ABCP11', 'AFHI11'], window: 'rows:3' }));
    expect(text).toContain('**ABCP11**');
    expect(text).toContain('**AFHI11**');
    expect(text).toMatchSnapshot();
  });

  it('fiis_precos: the latest close', () => {
    const rec = tickerRecords('fiis_quota_prices', 'ABCP11', 'traded_at')[0];
    const text = answer('Quanto está a cota do ABCP11?', realResult('fiis_precos', [rec], { ticker: 'ABCP11', agg: 'latest' }));
    expect(text).toContain('A cota do ABCP11 fechou a R$ 74,83 em 14/11/2025, com variação de -0,05% no dia.');
    expect(text).toMatchSnapshot();
  });

  it('fiis_precos: a price history table', () => {
    const recs = tickerRecords('fiis_quota_prices', 'ABCP11', 'traded_at').slice(0, 5);
    const text = answer('Cotações do ABCP11 nos últimos 5 pregões', realResult('fiis_precos', recs, { ticker: 'ABCP11', window: 'rows:5' }));
    expect(text).toContain('nos últimos 5 pregões');
    expect(text).toMatchSnapshot();
  });

  it('fiis_yield_history: months told as months', () => {
    const recs = tickerRecords('fiis_yield_history', 'ABCP11', 'ref_month')
      .slice(0, 6)
      .map((r) => ({
        ...r,
        dy_monthly_pct: new Decimal(r.dy_monthly).times(100).toDecimalPlaces(4).toFixed(4),
      }));
    const text = answer('Histórico de DY do ABCP11 nos últimos 6 meses', realResult('fiis_yield_history', recs, { ticker: 'ABCP11', window: 'months:6' }));
    expect(text).toMatch(/de \w+ de \d{4} a \w+ de \d{4}:/);
    expect(text).toMatchSnapshot();
  });

  it('fiis_dividends_yields: 12-month dividends and yield', () => {
    const rec = tickerRecords('fiis_dividends_yields', 'ABCP11', 'ref_month')[0];
    const text = answer('Qual o DY do ABCP11?', realResult('fiis_dividends_yields', [rec], { ticker: 'ABCP11', agg: 'latest' }));
    expect(text).toContain('Nos últimos 12 meses, o ABCP11 distribuiu R$ 7,40 por cota, um dividend yield de 9,87%.');
    expect(text).toMatchSnapshot();
  });

  it('fiis_financials_snapshot: P/VP asked, P/VP answered', () => {
    const text = answer('Qual o P/VP do HGLG11?', realResult('fiis_financials_snapshot', [withRefDate(snapshots.get('HGLG11')!)], { ticker: 'HGLG11' }));
    expect(text).toMatch(/^O P\/VP do HGLG11 é \d+,\d{2}/);
    expect(text).toMatchSnapshot();
  });

  it("fiis_financials_snapshot: the fund's own vacancy, dated by its own series, or said missing", () => {
    const row = { ...withRefDate(snapshots.get('KNRI11')!), fund_vacancy_ratio: '0.001', fund_vacancy_source: 'market16', fund_vacancy_as_of: '2024-12-30' };
    const text = answer('qual a vacancia fisica do knri11', realResult('fiis_financials_snapshot', [row], { ticker: 'KNRI11' }));
    expect(text).toContain('A vacância do KNRI11 é de 0,10% (o dado do fundo como um todo, sem separar vacância física de financeira).');
    expect(text).toMatch(/dados de 30\/12\/2024\.$/);
    const missing = answer('vacância financeira do XPML11', realResult('fiis_financials_snapshot', [withRefDate(snapshots.get('XPML11')!)], { ticker: 'XPML11' }));
    expect(missing).toContain('Não tenho a vacância do XPML11 como um todo');
  });

  it('fiis_financials_snapshot: a summary with details', () => {
    const text = answer('Indicadores financeiros do XPML11', realResult('fiis_financials_snapshot', [withRefDate(snapshots.get('XPML11')!)], { ticker: 'XPML11' }));
    expect(text).toContain('- DY 12 meses: 10,43%');
    expect(text).toMatchSnapshot();
  });

  it('fiis_financials_revenue_schedule: maturities and indexers', () => {
    const rec = withRefDate(araquemCsv('fiis_financials_revenue_schedule').find((r) => r.ticker === 'ELDO11')!);
    const data = realResult('fiis_financials_revenue_schedule', [rec], { ticker: 'ELDO11' });
    const text = answer('Cronograma de vencimentos do ELDO11', data);
    expect(text).toContain('24,14%');
    expect(text).toMatchSnapshot();
    const indexers = answer('Quais os indexadores dos contratos do ELDO11?', data);
    expect(indexers).toContain('Receitas do ELDO11 por indexador: IPCA 44,47%, IGP-M 55,52%, INPC 0,00%, INCC 0,00%.');
  });

  it('fiis_financials_risk: a metric asked, and a fund without metrics', () => {
    const risk = byTicker('fiis_financials_risk');
    const text = answer('Esse fundo tem Sharpe bom?', realResult('fiis_financials_risk', [withRefDate(risk.get('KNRI11')!)], { ticker: 'KNRI11' }), {
      context_used: true,
    });
    expect(text).toMatch(/^Sobre o KNRI11: o índice de Sharpe do KNRI11 é -?\d+,\d{2}\./);
    expect(text).toMatchSnapshot();
    const empty = answer('Risco do LTMT11', realResult('fiis_financials_risk', [withRefDate(risk.get('LTMT11')!)], { ticker: 'LTMT11' }));
    expect(empty).toContain('Não há indicadores de risco calculados para o LTMT11 na base.');
  });

  it('fiis_imoveis: one property in a sentence, many in a table', () => {
    const one = answer('Imóveis do ABCP11', realResult('fiis_imoveis', tickerRecords('fiis_real_estate', 'ABCP11'), { ticker: 'ABCP11' }));
    expect(one).toContain('O ABCP11 tem o imóvel Grand Plaza Shopping (Imóveis para renda acabados), em Avenida Industrial, 600, Centro, Santo André - SP.');
    expect(one).toContain('69.812 m²');
    expect(one).toMatchSnapshot();
    const many = answer('Imóveis do BTLG11', realResult('fiis_imoveis', tickerRecords('fiis_real_estate', 'BTLG11'), { ticker: 'BTLG11' }));
    expect(many).toContain('O BTLG11 tem 76 imóveis na base:');
    expect(many).toContain('(mais 61 linhas não exibidas');
    expect(many).toMatchSnapshot();
  });

  it("fiis_imoveis: a property the question names is the row answered; the fund's own vacancy leads its properties", () => {
    const recs = tickerRecords('fiis_real_estate', 'BTLG11').map((r) => ({ ...r, occupancy_ratio: r.vacancy_ratio === null ? null : String(1 - Number(r.vacancy_ratio)) }));
    const data = realResult('fiis_imoveis', recs, { ticker: 'BTLG11' });
    expect(answer('qual a ocupação do imóvel Pavuna do BTLG11?', data)).toContain('A ocupação do imóvel Imovel Pavuna, do BTLG11, é de 0,00% (vacância de 100,00%).');
    // ("Cabreuva" names two rows: no one row is asked, the list is)
    expect(answer('vacância do galpão de Cabreuva do BTLG11', data)).toContain('O BTLG11 tem 76 imóveis na base:');
    const withFund = realResult(
      'fiis_imoveis',
      recs.map((r) => ({ ...r, fund_vacancy_ratio: '0.012', fund_vacancy_as_of: '2024-12-30' })),
      { ticker: 'BTLG11' },
    );
    expect(answer('qual a vacância do BTLG11?', withFund)).toContain('A vacância do BTLG11 como um todo é de 1,20% (dado do fundo até 30/12/2024). Por imóvel, 76 na base:');
    expect(answer('imóveis do BTLG11', withFund)).toContain('O BTLG11 tem 76 imóveis na base:');
  });

  it('fiis_noticias: headlines with source and link', () => {
    const recs = tickerRecords('fiis_news', 'ABCP11', 'published_at')
      .slice(0, 3)
      .map((r) => ({ ...r, data_source: 'araquem' }));
    const text = answer('Notícias do ABCP11', realResult('fiis_noticias', recs, { ticker: 'ABCP11', window: 'rows:3' }));
    expect(text).toContain('nas últimas 3 publicações');
    expect(text).toContain('https://');
    expect(text).toMatchSnapshot();
  });

  it('fiis_processos: proceedings in a table', () => {
    const recs = tickerRecords('fiis_legal_proceedings', 'ABCP11', 'initiation_date');
    const text = answer('Processos do ABCP11', realResult('fiis_processos', recs, { ticker: 'ABCP11' }));
    expect(text).toContain(`O ABCP11 tem ${recs.length} processos na base:`);
    expect(text).toContain('R$ 107,97 milhões');
    expect(text).toMatchSnapshot();
  });

  it('fiis_processos: rows kept to a chance of loss say so, and so does finding none', () => {
    const recs = tickerRecords('fiis_legal_proceedings', 'HGLG11', 'initiation_date').filter((r) => r.loss_risk_pct === 'Possível');
    const kept = { ticker: 'HGLG11', filters: { loss_risk: 'Possível' } };
    const counted = { ...realResult('fiis_processos', [], { ...kept, agg: 'count' }), rows: [{ ticker: 'HGLG11', row_count: recs.length }], row_count: 1 };
    expect(answer('quantos sao de risco possivel?', counted)).toContain(`O HGLG11 tem ${recs.length} processos com risco de perda possível na base.`);
    const none = realResult('fiis_processos', [], { ticker: 'HGLG11', filters: { loss_risk: 'Provável' } });
    expect(det.narrate(narrateRequest({ question: 'algum com risco provável?', data: none, problem: 'no_data', entity: 'fiis_processos' })).answer).toBe(
      'Não encontrei os processos judiciais do HGLG11 com risco de perda provável na base de dados.',
    );
  });

  it('fii_overview: a one-fund summary', () => {
    const ov = araquemCsv('fiis_overview').find((r) => r.ticker === 'ABCP11')!;
    const reg = registrations.get('ABCP11')!;
    const rec = { ...ov, fii_cnpj: reg.fii_cnpj, admin_name: reg.admin_name, snapshot_date: ov.snapshot_updated_at };
    const text = answer('Resumo do ABCP11', realResult('fii_overview', [rec], { ticker: 'ABCP11' }));
    expect(text).toContain('O ABCP11 (Fundo Investimento Imobiliario Grand Plaza Shopping) é um fundo imobiliário do segmento Shoppings (classificação: Tijolo)');
    expect(text).toContain('R$ 7,40 por cota, dividend yield de 9,95%');
    expect(text).toMatchSnapshot();
  });

  it('fiis_rankings: a top list ordered by what was asked', () => {
    const recs = araquemCsv('fiis_rankings')
      .filter((r) => Number(r.rank_dy_12m) > 0)
      .sort((a, b) => Number(a.rank_dy_12m) - Number(b.rank_dy_12m))
      .slice(0, 5)
      .map((r) => ({
        ...r,
        display_name: registrations.get(r.ticker)?.display_name,
        sector: registrations.get(r.ticker)?.sector,
        ref_date: r.updated_at,
        dy_12m_pct: snapshots.get(r.ticker)?.dy_pct,
        dividends_12m_amt: snapshots.get(r.ticker)?.sum_anual_dy_amt,
        market_cap_value: snapshots.get(r.ticker)?.market_cap_value,
      }));
    const text = answer('Quais os 5 FIIs com maior dividend yield?', realResult('fiis_rankings', recs, { limit: 5, order_by: 'rank_dy_12m', order: 'asc' }));
    expect(text).toMatch(/^Ranking de 5 fundos por DY 12 meses:/);
    expect(text).toContain('CFHI11');
    expect(text).toMatchSnapshot();
  });

  it('history_b3_indexes: the IFIX asked, and a history table', () => {
    const recs = [...araquemCsv('history_b3_indexes')].sort((a, b) => b.index_date.localeCompare(a.index_date));
    const latest = answer('Como fechou o IFIX?', realResult('history_b3_indexes', [recs[0]], { agg: 'latest' }));
    expect(latest).toContain('O IFIX fechou em 3.617 pontos em 17/11/2025, variação de 0,71% no dia.');
    expect(latest).toMatchSnapshot();
    const table = answer('Índices da B3 nos últimos 5 pregões', realResult('history_b3_indexes', recs.slice(0, 5), { window: 'rows:5' }));
    expect(table).toMatchSnapshot();
  });

  it('history_currency_rates: the dollar', () => {
    const rec = [...araquemCsv('history_currency_rates')].sort((a, b) => b.rate_date.localeCompare(a.rate_date))[0];
    const text = answer('Cotação do dólar hoje', realResult('history_currency_rates', [rec], { agg: 'latest' }));
    expect(text).toContain('O dólar fechou a R$ 5,30 na venda em 17/11/2025 (R$ 5,30 na compra), variação de 0,00% no dia.');
    expect(text).toMatchSnapshot();
  });

  it('history_market_indicators: the SELIC', () => {
    const rec = araquemCsv('history_market_indicators').find((r) => r.indicator_name === 'SELIC')!;
    const text = answer('Qual a SELIC?', realResult('history_market_indicators', [rec], { agg: 'latest', filters: { indicator: 'SELIC' } }));
    expect(text).toContain('SELIC em 14/11/2025: 14,90.');
    expect(text).toMatchSnapshot();
  });

  it('macro_consolidada: a market overview', () => {
    const rec = araquemCsv('consolidated_macroeconomic')[0];
    const text = answer('Panorama do mercado', realResult('macro_consolidada', [rec], { agg: 'latest' }));
    expect(text).toContain('Panorama de mercado em 14/11/2025:');
    expect(text).toContain('14,90%');
    expect(text).toMatchSnapshot();
  });

  it('a list narrowed by a condition says which funds the condition left out, not that they have no data', () => {
    const rows = ['BTHI11', 'MGHT11'].map((t) => snapshots.get(t)!);
    const text = answer(
      'so os com p/vp abaixo de 0,8',
      realResult('fiis_financials_snapshot', rows, {
        tickers: ['HTMX11', 'BTHI11', 'MGHT11'],
        agg: 'list',
        conditions: [{ column: 'price_book_ratio', op: 'lt', value: 0.8 }],
      }),
    );
    expect(text).toContain('Não entram no critério com P/VP abaixo de 0,80: HTMX11.');
    expect(text).not.toContain('Não encontrei');
  });

  it('says which requested fund has no rows', () => {
    const rec = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date')[0];
    const text = answer('Último dividendo do ABCP11 e do HGLG11', realResult('fiis_dividendos', [rec], { tickers: ['ABCP11', 'HGLG11'], agg: 'latest' }));
    expect(text).toContain('Último dividendo do ABCP11: R$ 0,65 por cota');
    expect(text).toContain('Não encontrei os dividendos do HGLG11 na base de dados.');
  });

  it("client_fiis_positions: the demo client's positions, one and many", () => {
    // Demo trades (libs/warehouse, marked demo) at real monthly closes (paulo037), as the positions view computes them.
    const closes = new Map<string, string>();
    const monthly = parse(readFileSync(join(dataDir(), 'paulo037', 'dados_historicos.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    for (const r of monthly) closes.set(`${r.Ticker}:${r.Datetime}`, r.Close);
    const client = DEMO_CLIENTS[0];
    const tickers = [...new Set(client.trades.map((t) => t.ticker))];
    const recs = tickers.map((ticker) => {
      const trades = client.trades.filter((t) => t.ticker === ticker);
      const buys = trades.filter((t) => t.side === 'buy');
      const qty = trades.reduce((q, t) => q + (t.side === 'buy' ? t.quantity : -t.quantity), 0);
      const cost = buys.reduce((c, t) => c.plus(new Decimal(closes.get(`${ticker}:${t.month}`)!).times(t.quantity)), new Decimal(0));
      const avg = cost.div(buys.reduce((q, t) => q + t.quantity, 0));
      const last = new Decimal(closes.get(`${ticker}:2022-12`)!);
      return {
        ticker,
        display_name: registrations.get(ticker)?.display_name,
        sector: registrations.get(ticker)?.sector,
        quantity: String(qty),
        avg_price: avg.toDecimalPlaces(4).toFixed(4),
        invested_amt: avg.times(qty).toDecimalPlaces(2).toFixed(2),
        last_price: last.toFixed(2),
        market_value: last.times(qty).toDecimalPlaces(2).toFixed(2),
        gain_amt: last.minus(avg).times(qty).toDecimalPlaces(2).toFixed(2),
        gain_pct: last.div(avg).minus(1).times(100).toDecimalPlaces(2).toFixed(2),
        is_demo: 'true',
        source: 'demo,paulo037',
      };
    });
    const many = answer('Minha carteira', realResult('client_fiis_positions', recs, {}, ['demo', 'paulo037']));
    expect(many).toMatch(/^Sua carteira tem 4 fundos, com valor de mercado total de R\$ 52\.716,00[ (:]/);
    expect(many).toContain('carteira de demonstração da Cota');
    expect(many).toMatchSnapshot();
    const hglg = recs.find((r) => r.ticker === 'HGLG11')!;
    const one = answer('Minha posição em HGLG11', realResult('client_fiis_positions', [hglg], { ticker: 'HGLG11' }, ['demo', 'paulo037']));
    expect(one).toMatch(
      /^Você tem 120 cotas do HGLG11 \(Pátria Log Fundo Investimento Imobiliário Responsabilidade Ltda\), com preço médio de R\$ \d+,\d{2} \(custo total de R\$ [\d.]+,\d{2}\)\./,
    );
    expect(one).toMatchSnapshot();
    // (asked about the result, the list leads with the portfolio's total result over what it cost)
    const total = recs.reduce((t, r) => t.plus(r.gain_amt), new Decimal(0));
    const invested = recs.reduce((t, r) => t.plus(r.invested_amt), new Decimal(0));
    const result = answer('to perdendo dinheiro na carteira?', realResult('client_fiis_positions', recs, {}, ['demo', 'paulo037']));
    expect(result.startsWith(`Sua carteira tem resultado de ${formatMoney(total.toNumber())} sobre ${formatMoney(invested.toNumber())} investidos`)).toBe(true);
  });

  it('every fund entity answers the same way twice (pure)', () => {
    const data = realResult('fiis_cadastro', [registrations.get('HGLG11')!], { ticker: 'HGLG11' });
    expect(answer('CNPJ do HGLG11', data)).toBe(answer('CNPJ do HGLG11', data));
  });
});
