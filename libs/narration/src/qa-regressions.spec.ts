import type { NarrateRequest, QueryResult } from '@cota/contracts';
import { createNarrator } from './narrator';
import { loadCatalogColumns } from './catalog-columns';
import { displayLabel, formatColumnValue } from './format';
import { araquemCsv, realResult } from './testing/real-rows';
import { narrateRequest } from './testing/requests';

/**
 * Regressions found by asking the running system as a demanding investor would (QA of
 * 2026-11-22). Rows come from the real araquem samples (read in place) or, for the client
 * entities, in the shape the warehouse view returns.
 */

const narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
const answer = (question: string, data: QueryResult, extra: Partial<NarrateRequest> = {}) => narrator.deterministic.narrate(narrateRequest({ question, data, ...extra })).answer;

describe('QA regressions', () => {
  it('a difference of returns reads in percentage points, not percent', () => {
    expect(formatColumnValue('-15.7', { type: 'percent', label: 'Diferença (p.p.)' })).toBe('-15,70 p.p.');
    expect(formatColumnValue('8.25', { type: 'percent', label: 'DY 12 meses (%)' })).toBe('8,25%');
    expect(displayLabel('Diferença (p.p.)')).toBe('Diferença');
  });

  it('benchmark summary: months as months, excess in p.p.', () => {
    const rows = [
      {
        client_id: 'c1',
        benchmark: 'CDI',
        period_start: '2022-02-01',
        period_end: '2024-12-01',
        months_count: '35',
        portfolio_cum_return_pct: '24.08',
        benchmark_cum_return_pct: '39.78',
        excess_return_pct: '-15.70',
        months_beating_benchmark: '12',
        portfolio_value: '52539.2',
        is_demo: 'true',
        source: 'demo,derived',
      },
      {
        client_id: 'c1',
        benchmark: 'IFIX',
        period_start: '2022-02-01',
        period_end: '2024-12-01',
        months_count: '35',
        portfolio_cum_return_pct: '24.08',
        benchmark_cum_return_pct: '12.25',
        excess_return_pct: '11.83',
        months_beating_benchmark: '20',
        portfolio_value: '52539.2',
        is_demo: 'true',
        source: 'demo,derived',
      },
    ];
    const one = answer('Resumo da minha carteira contra o CDI', realResult('client_fiis_performance_vs_benchmark_summary', [rows[0]], {}, ['demo', 'derived']));
    expect(one).toContain('De fevereiro de 2022 a dezembro de 2024, sua carteira acumulou 24,08%, contra 39,78% do CDI (diferença de -15,70 p.p.).');
    expect(one).toContain('dados até dezembro de 2024.');
    const many = answer('Resumo do desempenho da minha carteira', realResult('client_fiis_performance_vs_benchmark_summary', rows, {}, ['demo', 'derived']));
    expect(many).toContain('| CDI | fevereiro de 2022 | dezembro de 2024 | 24,08% | 39,78% | -15,70 p.p. |');
    expect(many).not.toMatch(/\d{2}\/\d{2}\/\d{4} \|/);
  });

  it('dividends without payment dates: the lead keeps its period and the empty column is dropped', () => {
    const rows = ['2024-12-30', '2024-11-29', '2024-10-31'].map((d) => ({ ticker: 'KNRI11', traded_until_date: d, payment_date: null, dividend_amt: '1.00', source: 'dashbord' }));
    const text = answer('Dividendos do KNRI11 em 2024', realResult('fiis_dividendos', rows, { ticker: 'KNRI11', window: 'year:2024' }, ['dashbord']));
    expect(text).toContain('Dividendos do KNRI11 em 2024, de 31/10/2024 a 30/12/2024:');
    expect(text).not.toContain('veja:');
    expect(text).not.toContain('Data de pagamento');
    expect(text).toContain('| 30/12/2024 | R$ 1,00 |');
  });

  it('a table cut by the row limit inside the asked period says so', () => {
    const recs = araquemCsv('history_b3_indexes').slice(0, 10);
    const data = { ...realResult('history_b3_indexes', recs, { window: 'months:6', filters: { index: 'IFIX' } }), truncated: true };
    const text = answer('IFIX nos últimos 6 meses', data);
    expect(text).toContain('(exibidos apenas os 10 registros acima; há mais nos últimos 6 meses, peça um período menor para ver todos)');
    // A row window ("últimos 10 pregões") is complete by definition: no note.
    const rowsWindow = { ...realResult('history_b3_indexes', recs, { window: 'rows:10' }), truncated: true };
    expect(answer('IFIX nos últimos 10 pregões', rowsWindow)).not.toContain('exibidos apenas');
  });

  it('a market indicator carries its unit in the sentence', () => {
    const rec = araquemCsv('history_market_indicators').find((r) => r.indicator_name === 'SELIC')!;
    const text = answer('Qual a Selic atual?', realResult('history_market_indicators', [{ ...rec, unit: '% a.a.' }], { agg: 'latest', filters: { indicator: 'SELIC' } }));
    expect(text).toMatch(/SELIC em \d{2}\/\d{2}\/\d{4}: 14,90% a\.a\./);
    expect(text).not.toContain('(% a.a.)');
  });

  it('a screen across funds that no fund meets says what was asked', () => {
    const data = realResult('fiis_rankings', [], { agg: 'list', filters: { sector: 'Hotelaria' }, conditions: [{ column: 'market_cap_value', op: 'gt', value: 1e11 }] });
    const text = answer('fundos de hotelaria com valor de mercado acima de 100 bi', data, { entity: 'fiis_rankings' });
    expect(text).toBe('Nenhum fundo (Hotelaria) com valor de mercado acima de R$ 100,00 bilhões aparece na base com esse critério; tente um critério mais amplo.');
  });

  it('no quote on the asked day names that day, not "no último dia"', () => {
    const data = realResult('history_currency_rates', [], { agg: 'latest', window: 'rows:1', filters: { date: '2024-03-15', currency: 'USD' } });
    const text = answer('Cotação do dólar em 15/03/2024', data, { entity: 'history_currency_rates' });
    expect(text).toContain('em 15/03/2024');
    expect(text).not.toContain('no último dia');
  });

  it('one indicator row is one sentence', () => {
    const rec = araquemCsv('history_market_indicators').find((r) => r.indicator_name === 'SELIC')!;
    const text = answer('Qual a Selic atual?', realResult('history_market_indicators', [{ ...rec, unit: '% a.a.' }], { agg: 'latest' }));
    expect(text.match(/SELIC em/g)).toHaveLength(1);
  });
});

describe('QA regressions: prices and properties', () => {
  it('market16 sessions (adjusted close only) show the adjusted close instead of an empty table', () => {
    const rows = ['2024-12-30', '2024-12-27', '2024-12-26'].map((d, i) => ({
      ticker: 'HGLG11',
      traded_at: d,
      close_price: null,
      adj_close_price: String(150 + i),
      open_price: null,
      max_price: null,
      min_price: null,
      volume: '1000',
      daily_variation_pct: null,
      frequency: 'daily',
      source: 'market16',
    }));
    const text = answer('Preço do HGLG11 em 2024', realResult('fiis_precos', rows, { ticker: 'HGLG11', window: 'year:2024' }, ['market16']));
    expect(text).toContain('| 30/12/2024 | R$ 150,00 |');
    const one = answer('Preço do HGLG11 em 30/12/2024', realResult('fiis_precos', [rows[0]], { ticker: 'HGLG11', agg: 'latest' }, ['market16']));
    expect(one).toContain('ajustado por proventos foi de R$ 150,00');
  });

  it('the internal property order (seq) is not a table column', () => {
    const recs = araquemCsv('fiis_real_estate')
      .filter((r) => r.ticker === araquemCsv('fiis_real_estate')[0].ticker)
      .slice(0, 3)
      .map((r, i) => ({ ...r, seq: String(i + 1) }) as Record<string, string>);
    const text = answer('Vacância dos imóveis', realResult('fiis_imoveis', recs, { ticker: recs[0].ticker, order_by: 'seq', order: 'asc' }));
    expect(text).not.toContain('Nº');
  });
});

describe('QA regressions: several funds', () => {
  it('summaries of two funds are two headed blocks, not bullets holding lists', () => {
    const recs = araquemCsv('fiis_financials_revenue_schedule').filter((r) => r.ticker === 'HGLG11' || r.ticker === 'KNRI11');
    const text = answer('Cronograma de vencimentos do KNRI11 e do HGLG11', realResult('fiis_financials_revenue_schedule', recs, { tickers: ['KNRI11', 'HGLG11'] }));
    expect(text).toContain('**KNRI11**');
    expect(text).toContain('**HGLG11**');
    expect(text).not.toMatch(/^- Vencimento/m);
  });
});

describe('QA regressions: the client portfolio', () => {
  it('the portfolio lead gives the total, its cost and unrealised result, the monthly income and the price date', () => {
    const rows = [
      {
        client_id: 'c1',
        ticker: 'HGLG11',
        display_name: null,
        sector: 'Logística',
        sub_sector: null,
        classification: null,
        quantity: '120',
        avg_price: '169.53',
        invested_amt: '20343.6',
        last_price: '157.6',
        last_price_date: '2025-06-25',
        market_value: '18912',
        gain_pct: '-7.04',
        gain_amt: '-1431.6',
        weight_pct: '70.0',
        dy_12m_pct: '8.25',
        price_book_ratio: '0.99',
        last_dividend_amt: '1.1',
        expected_monthly_income_amt: '132',
        volatility_ratio: null,
        sharpe_ratio: null,
        is_demo: 'true',
        source: 'demo,dashbord',
      },
      {
        client_id: 'c1',
        ticker: 'KNRI11',
        display_name: null,
        sector: 'Híbrido',
        sub_sector: null,
        classification: null,
        quantity: '60',
        avg_price: '133.5',
        invested_amt: '8010',
        last_price: '143.34',
        last_price_date: '2025-06-24',
        market_value: '8600.4',
        gain_pct: '7.37',
        gain_amt: '590.4',
        weight_pct: '30.0',
        dy_12m_pct: '8.13',
        price_book_ratio: '0.9',
        last_dividend_amt: '1',
        expected_monthly_income_amt: '60',
        volatility_ratio: null,
        sharpe_ratio: null,
        is_demo: 'true',
        source: 'demo,dashbord',
      },
    ];
    const text = answer('Minha carteira', realResult('client_fiis_enriched_portfolio', rows, { order_by: 'weight_pct', order: 'desc' }, ['demo', 'dashbord']));
    // Cost 20 343,60 + 8 010,00 = 28 353,60; result (18 912,00 − 20 343,60) + (8 600,40 − 8 010,00) = −1 431,60 + 590,40 = −841,20.
    expect(text).toContain(
      'Sua carteira (2 fundos) vale R$ 27.512,40 (preços até 25/06/2025), custou R$ 28.353,60 (resultado não realizado de -R$ 841,20) e rende cerca de R$ 192,00 por mês',
    );
    expect(text).toContain('| Ticker | Quantidade de cotas | Valor investido | Valor de mercado | Ganho/perda |');
  });
});

describe('QA regressions: a field the fund does not have', () => {
  it('"cap rate do HGLG11" with no cap rate says so before the summary', () => {
    const rec = araquemCsv('fiis_financials_snapshot').find((r) => r.ticker === 'HGLG11')!;
    const text = answer('Qual o cap rate do HGLG11?', realResult('fiis_financials_snapshot', [{ ...rec, ref_date: rec.updated_at, cap_rate: null }], { ticker: 'HGLG11' }));
    expect(text).toMatch(/^Não encontrei o dado "Cap rate" do HGLG11 na base de dados\.\n\n/);
    expect(text).toContain('P/VP');
  });
});

describe('QA regressions: volatility', () => {
  const rec = araquemCsv('fiis_financials_risk').find((r) => r.ticker === 'MXRF11')!;
  const row = { ...rec, ref_date: rec.updated_at, calc_volatility_ratio: null, calc_window_start: null, calc_window_end: null };

  it('without the Cota figure, the published one is given with its caveat, next to the drawdown', () => {
    const text = answer('Volatilidade e drawdown do MXRF11', realResult('fiis_financials_risk', [row], { ticker: 'MXRF11' }));
    expect(text).toContain('A volatilidade do MXRF11 publicada pela base araquem é 1,31 (a fonte não informa a unidade');
    expect(text).toContain('O drawdown máximo do MXRF11 é de 13,77%.');
  });

  it('with it, the annualised percentage leads', () => {
    const text = answer(
      'Qual a volatilidade do MXRF11?',
      realResult('fiis_financials_risk', [{ ...row, calc_volatility_ratio: '0.0912', calc_window_start: '2023-12-27', calc_window_end: '2024-12-30' }], { ticker: 'MXRF11' }),
    );
    expect(text).toContain('A volatilidade anualizada do MXRF11 é de 9,12%, calculada pela Cota com as cotações de 27/12/2023 a 30/12/2024');
  });
});
