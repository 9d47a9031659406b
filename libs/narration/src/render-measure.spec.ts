import { loadMeasureCatalog } from '@cota/catalog';
import type { MeasureResult } from '@cota/contracts';
import { calendarNote, renderMeasure as render, skippedNote } from './render-measure';

const words = loadMeasureCatalog().measures;
const renderMeasure = (r: MeasureResult, q: Parameters<typeof render>[1]) => render(r, q, words);

const value = (over: Partial<MeasureResult['values'][number]> = {}): MeasureResult['values'][number] => ({
  subject: { kind: 'index', id: 'IFIX' },
  value: -5.893224,
  date: '2024-12-30',
  start: { date: '2023-12-28', value: 3311.43 },
  end: { date: '2024-12-30', value: 3116.28 },
  traded: null,
  count: 251,
  rows: [],
  funds: [],
  coverage: { from: '2010-12-30', to: '2025-12-23' },
  period: { from: '2024-01-01', to: '2024-12-31' },
  adjusted: false,
  price_kind: null,
  published: null,
  sources: ['opbrreit'],
  extra: [],
  paid_on: null,
  fallback: null,
  skipped: [],
  nearest: null,
  grain: null,
  matched: null,
  measure: null,
  unit: null,
  agg: null,
  ...over,
});
const result = (over: Partial<MeasureResult> = {}): MeasureResult => ({
  today: null,
  measure: 'index_points',
  entity: 'history_b3_indexes',
  agg: 'variation',
  unit: 'points',
  value_unit: 'pct',
  group_by: null,
  grain: 'day',
  fallback_note: null,
  values: [value()],
  winner: null,
  portfolio: null,
  screened: null,
  ...over,
});
const period = { kind: 'range' as const, from: '2024-01-01', to: '2024-12-31', grain: 'year' as const };
const question = {
  subjects: [{ kind: 'index' as const, id: 'IFIX' }],
  measure: 'index_points',
  agg: 'variation' as const,
  also: [],
  period,
  group_by: null,
  compare: null,
  condition: null,
};

describe('a level crossed', () => {
  const crossing = (agg: 'first' | 'last', v: number | null, date: string | null) => {
    const condition = { op: 'gt' as const, value: 3500 };
    const r = result({ agg, value_unit: 'points', values: [value({ value: v, date, start: null, end: null, count: 3718, matched: date ? [date] : [], period: null })] });
    return renderMeasure(r, { ...question, agg, period: null, condition });
  };

  it('says when the series first (last) went beyond the level, and how many values were searched', () => {
    expect(crossing('first', 3500.33, '2025-09-05')).toBe(
      'A primeira vez que o IFIX ficou acima de 3.500,00 pontos foi em 05/09/2025, com 3.500,33 pontos; procurei em 3.718 valores da série.',
    );
    expect(crossing('last', 3755.15, '2025-12-23')).toContain('A última vez que o IFIX ficou acima de 3.500,00 pontos foi em 23/12/2025');
  });

  it('says plainly that the level was never crossed', () => {
    expect(crossing('first', null, null)).toBe('O IFIX não ficou acima de 3.500,00 pontos; procurei em 3.718 valores da série.');
  });
});

describe('measure answers lead with the number', () => {
  /** One fund's current value of a measure, and the question that asked it. */
  const fundValue = (measure: string, entity: string, unit: MeasureResult['unit'], id: string, v: number, date: string) => ({
    result: result({
      measure,
      entity,
      agg: 'value',
      unit,
      value_unit: unit,
      values: [value({ subject: { kind: 'fund', id }, value: v, date, start: null, end: null, count: 1, period: null, sources: ['araquem'] })],
    }),
    question: { ...question, subjects: [{ kind: 'fund' as const, id }], measure, agg: 'value' as const, period: null },
  });

  it('warns when a value is outside the range its measure can plausibly take (a 12-month DY of 187,30%)', () => {
    const dy = (v: number) => {
      const f = fundValue('dy', 'fiis_dividends_yields', 'pct', 'SJAU11', v, '2025-06-25');
      return renderMeasure(f.result, f.question);
    };
    expect(dy(187.3)).toContain('Atenção: o valor de SJAU11 está fora da faixa plausível (abaixo de 40,00%)');
    expect(dy(12.5)).not.toContain('faixa plausível');
    expect(dy(0)).not.toContain('faixa plausível');
  });

  it('says a fraction as a percent, exactly (a drawdown of 0,1526 is 15,26%)', () => {
    const f = fundValue('max_drawdown', 'fiis_financials_risk', 'fraction', 'KNRI11', 0.1526, '2025-11-22');
    expect(renderMeasure(f.result, f.question).split('\n')[0]).toBe('O drawdown máximo (a maior queda do topo ao fundo) do KNRI11 em 22/11/2025 foi 15,26%.');
  });

  it('states the variation with its sign, the period and both ends, the Brazilian way', () => {
    const text = renderMeasure(result(), question);
    expect(text).toBe('O IFIX variou -5,89% em 2024, caindo de 3.311,43 pontos em 28/12/2023 para 3.116,28 pontos em 30/12/2024.');
  });

  it('names the winner of a comparison', () => {
    const text = renderMeasure(result({ values: [value(), value({ subject: { kind: 'index', id: 'IBOV' }, value: -10.36 })], winner: { kind: 'index', id: 'IFIX' } }), {
      ...question,
      subjects: [
        { kind: 'index', id: 'IFIX' },
        { kind: 'index', id: 'IBOV' },
      ],
      compare: 'max',
    });
    // (by how much: -5,89% against -10,36%)
    expect(text).toContain('Entre eles, o maior valor é o do IFIX, 4,47 p.p. acima do IBOV.');
    expect(text).toContain('-10,36%');
  });

  it('compares series of different kinds by each one’s return over the period', () => {
    const selic = value({
      subject: { kind: 'indicator', id: 'SELIC' },
      value: 6.4278,
      start: { date: '2018-01-02', value: 0.026 },
      end: { date: '2018-12-31', value: 0.024 },
      count: 250,
      period: { from: '2018-01-01', to: '2018-12-31' },
      measure: 'annual_rate',
      unit: 'pct_year',
      agg: 'accumulated',
      date: '2018-12-31',
    });
    const ifix = value({
      value: 5.62,
      start: { date: '2017-12-28', value: 2226.46 },
      end: { date: '2018-12-28', value: 2351.59 },
      period: { from: '2018-01-01', to: '2018-12-31' },
      measure: 'index_points',
      unit: 'points',
      agg: 'variation',
      date: '2018-12-28',
    });
    const text = renderMeasure(
      result({
        measure: 'panel',
        entity: 'macro_consolidada',
        agg: 'variation',
        unit: 'pct',
        value_unit: 'pct',
        values: [ifix, selic],
        winner: { kind: 'indicator', id: 'SELIC' },
      }),
      { ...question, subjects: [selic.subject, ifix.subject], measure: null, compare: 'max', period: { ...period, from: '2018-01-01', to: '2018-12-31' } },
    );
    expect(text.split('\n')[0]).toMatch(/^A Selic acumulou 6,43% em 2018/);
    expect(text).toContain('O IFIX variou +5,62% em 2018, subindo de 2.226,46 pontos em 28/12/2017 para 2.351,59 pontos em 30/12/2024'.replace('30/12/2024', '28/12/2018'));
    expect(text).toContain('Entre eles, o maior rendimento no período é da Selic, 0,81 p.p. acima do IFIX.');
  });

  it('states a price difference as the shown prices give it (no float residue)', () => {
    const xpml = value({ subject: { kind: 'fund', id: 'XPML11' }, value: -7.6, start: { date: '2023-12-28', value: 96.57 }, end: { date: '2024-12-30', value: 89.23 } });
    const text = renderMeasure(result({ measure: 'price', entity: 'fiis_precos', unit: 'brl', values: [xpml] }), { ...question, subjects: [xpml.subject], measure: 'price' });
    expect(text).toContain('diferença de -R$ 7,34');
  });

  it('says what dates exist when the period has none', () => {
    const text = renderMeasure(result({ agg: 'value', values: [value({ value: null, nearest: { before: '2022-04-29', after: '2022-09-01' } })] }), question);
    expect(text).toMatch(/^Não encontrei o fechamento do IFIX em 2024\. Os dados do IFIX mais próximos são de 29\/04\/2022 \(antes\) e de 01\/09\/2022 \(depois\)/);
  });

  it("dates monthly series by month and keeps a per-share amount's precision", () => {
    const ipca = renderMeasure(
      result({
        measure: 'monthly_rate',
        entity: 'history_market_indicators',
        agg: 'max',
        unit: 'pct_month',
        value_unit: 'pct_month',
        grain: 'month',
        values: [value({ subject: { kind: 'indicator', id: 'IPCA' }, value: 1.25, date: '2021-10-01', period: { from: '2021-01-01', to: '2021-12-31' } })],
      }),
      { ...question, period: { ...period, from: '2021-01-01', to: '2021-12-31' } },
    );
    expect(ipca).toContain('1,25% no mês, em outubro de 2021');
    const div = renderMeasure(
      result({
        measure: 'dividend',
        entity: 'fiis_dividendos',
        agg: 'total',
        unit: 'brl',
        value_unit: 'brl',
        values: [value({ subject: { kind: 'fund', id: 'IRDM11' }, value: 0.948, count: 1, period: { from: '2023-02-01', to: '2023-02-28' } })],
      }),
      { ...question, period: { kind: 'range', from: '2023-02-01', to: '2023-02-28', grain: 'month' } },
    );
    expect(div).toBe('Os dividendos por cota do IRDM11 em fevereiro de 2023 somam R$ 0,948 (1 pagamento).');
  });
});

describe('the calendar, honestly', () => {
  it('"ontem" past the data: the dates said plainly; none when the data reaches it', () => {
    const v = value({ coverage: { from: '2010-12-30', to: '2025-12-23' } });
    expect(calendarNote(result({ today: '2026-11-27', values: [v] }), { kind: 'previous_session' })).toBe(
      'Os dados vão até 23/12/2025 e hoje é 27/11/2026: não há dados de ontem; o valor acima é o mais recente da base.',
    );
    expect(calendarNote(result({ today: '2025-12-24', values: [v] }), { kind: 'previous_session' })).toBeNull();
    expect(calendarNote(result({ today: '2026-11-27', values: [v] }), { kind: 'relative_month', offset: 0 })).toContain('não há dados deste mês');
    // "O P/VP este ano" answered by the snapshot of 2025, or "quanto o IFIX subiu este ano" by 2025 (the latest year the data has),
    // says 2026 has no data; a year with no value at all says so itself.
    expect(calendarNote(result({ today: '2026-11-27', values: [v] }), { kind: 'relative_year', offset: 0, to_date: true })).toBe(
      'Os dados vão até 23/12/2025 e hoje é 27/11/2026: não há dados deste ano; a resposta acima é de 2025, o ano mais recente da base.',
    );
    expect(calendarNote(result({ today: '2026-11-27', values: [{ ...v, value: null }] }), { kind: 'relative_year', offset: 0, to_date: true })).toBeNull();
  });

  it('"mês passado" is the calendar\'s: past the data, the latest month is the answer, said so; none when the data reaches it', () => {
    const ipca = value({ coverage: { from: '1994-07-01', to: '2025-10-01' } });
    expect(calendarNote(result({ today: '2026-11-29', grain: 'month', values: [ipca] }), { kind: 'relative_month', offset: -1, calendar: true })).toBe(
      'Os dados vão até outubro de 2025 e hoje é 29/11/2026: não há dados de outubro de 2026; a resposta acima é de outubro de 2025, o mês mais recente da base.',
    );
    expect(calendarNote(result({ today: '2025-11-20', grain: 'month', values: [ipca] }), { kind: 'relative_month', offset: -1, calendar: true })).toBeNull();
  });
});

describe('days left out for a corrupted value', () => {
  it('are said where the answer covers them (araquem history_currency_rates.csv: USD at 0,16 on 27 and 31/12/2024)', () => {
    const v = value({
      subject: { kind: 'currency', id: 'USD' },
      skipped: [
        { date: '2024-12-27', value: 0.16 },
        { date: '2024-12-31', value: 0.16 },
      ],
    });
    expect(skippedNote(v)).toBe('Os dias 27/12/2024 e 31/12/2024 ficaram de fora da série do dólar (USD) (a fonte publicou 0,16, um valor corrompido).');
    expect(skippedNote(value())).toBeNull();
  });
});

describe('an extreme of the payments by payment date', () => {
  it('says its data-com too (araquem fiis_dividends.csv BBRC11: R$ 1,15 paid 12/07/2024, data-com 28/06/2024)', () => {
    const r: MeasureResult = {
      today: null,
      measure: 'dividend_paid',
      entity: 'fiis_dividendos',
      agg: 'max',
      unit: 'brl',
      value_unit: 'brl',
      group_by: null,
      grain: 'day',
      fallback_note: null,
      values: [value({ subject: { kind: 'fund', id: 'BBRC11' }, value: 1.15, date: '2024-07-12', paid_on: '2024-06-28', count: 12, start: null, end: null, sources: ['araquem'] })],
      winner: null,
      portfolio: null,
      screened: null,
    };
    const text = renderMeasure(r, {
      subjects: [{ kind: 'fund', id: 'BBRC11' }],
      measure: 'dividend_paid',
      agg: 'max',
      also: [],
      period: { kind: 'range', from: '2024-01-01', to: '2024-12-31', grain: 'year' },
      group_by: null,
      compare: null,
      condition: null,
    });
    expect(text).toContain('R$ 1,15, em 12/07/2024 (o de julho), com data-com em 28/06/2024.');
    // Dated by its data-com, the same payment says when it was paid.
    const byRecord = renderMeasure(
      {
        ...r,
        measure: 'dividend',
        values: [
          value({ subject: { kind: 'fund', id: 'ABCP11' }, value: 8.45, date: '2025-01-15', paid_on: '2025-01-23', count: 40, start: null, end: null, sources: ['araquem'] }),
        ],
      },
      { subjects: [{ kind: 'fund', id: 'ABCP11' }], measure: 'dividend', agg: 'max', also: [], period: null, group_by: null, compare: null, condition: null },
    );
    expect(byRecord).toContain('R$ 8,45, em 15/01/2025 (o de janeiro), pago em 23/01/2025.');
    expect(byRecord).toMatch(/^O maior dividendo por cota do ABCP11 foi/);
  });

  it("says each payment's other date: one payment's in its sentence, several in the table's own column", () => {
    // araquem fiis_dividends.csv AFHI11: R$ 0,98 paid 25/03/2025 (data-com 18/03/2025); BCRI11 data-com 30/12/2024 paid 15/01/2025
    const base = {
      today: null,
      entity: 'fiis_dividendos',
      unit: 'brl',
      value_unit: 'brl',
      group_by: null,
      grain: 'day',
      fallback_note: null,
      winner: null,
      portfolio: null,
      screened: null,
    } as const;
    const q = { also: [], group_by: null, compare: null, condition: null, period: { kind: 'range' as const, from: '2025-03-01', to: '2025-03-31', grain: 'month' as const } };
    const row = { date: '2025-03-25', value: 0.98, other_date: '2025-03-18' };
    const one = value({ subject: { kind: 'fund', id: 'AFHI11' }, value: 0.98, date: '2025-03-25', count: 1, rows: [row], start: null, end: null, sources: ['araquem'] });
    const total = renderMeasure({ ...base, measure: 'dividend_paid', agg: 'total', values: [one] }, { ...q, subjects: [one.subject], measure: 'dividend_paid', agg: 'total' });
    expect(total).toContain('somam R$ 0,98 (1 pagamento, em 25/03/2025, com data-com em 18/03/2025).');
    const listed = renderMeasure(
      { ...base, measure: 'dividend', agg: 'list', values: [{ ...one, value: 0.78, date: '2024-12-30', rows: [{ date: '2024-12-30', value: 0.78, other_date: '2025-01-15' }] }] },
      { ...q, subjects: [one.subject], measure: 'dividend', agg: 'list' },
    );
    expect(listed).toContain('R$ 0,78, em 30/12/2024, pago em 15/01/2025.');
    const two = { ...one, value: 1.93, count: 2, rows: [row, { date: '2025-04-24', value: 0.95 }] };
    const table = renderMeasure({ ...base, measure: 'dividend_paid', agg: 'total', values: [two] }, { ...q, subjects: [one.subject], measure: 'dividend_paid', agg: 'total' });
    expect(table).toContain('| Pagamento | Valor | Data-com |');
    expect(table).toContain('| 25/03/2025 | R$ 0,98 | 18/03/2025 |');
    expect(table).toContain('| 24/04/2025 | R$ 0,95 | — |');
  });

  it("names an extreme by the catalog's name for it, else as the largest value of the measure", () => {
    const q = {
      subjects: [{ kind: 'fund' as const, id: 'HGLG11' }],
      measure: 'claim_value',
      agg: 'max' as const,
      also: [],
      period: null,
      group_by: null,
      compare: null,
      condition: null,
    };
    const one = value({ subject: { kind: 'fund', id: 'HGLG11' }, value: 2034796.11, date: '2024-03-20', count: 5, start: null, end: null, sources: ['cvm'] });
    const r = result({ measure: 'claim_value', entity: 'fiis_processos', agg: 'max', unit: 'brl', value_unit: 'brl', values: [one] });
    expect(renderMeasure(r, q)).toMatch(/^O maior valor de causa do HGLG11 foi R\$ 2,03 milhões/);
    expect(renderMeasure({ ...r, measure: 'nav', agg: 'min' }, { ...q, measure: 'nav', agg: 'min' })).toMatch(/^O menor valor do patrimônio líquido do HGLG11 foi/);
  });
});

describe('a current DY says the price it divides by, and what kind of price it is', () => {
  // KNRI11: 12 data-com of R$ 1,00 (dashbord dividendos.csv, 28/06/2024..30/05/2025) over araquem's reference price of
  // 22/11/2025 (P/VP 0,9040 × VP por cota 163,254 = R$ 147,58), or over the last traded close (R$ 143,34, 25/06/2025).
  const dy = (over: Partial<MeasureResult['values'][number]>) =>
    result({
      measure: 'dy',
      entity: 'fiis_dividends_yields',
      agg: 'value',
      unit: 'pct',
      value_unit: 'pct',
      values: [
        value({
          subject: { kind: 'fund', id: 'KNRI11' },
          value: 8.13,
          date: '2025-11-22',
          start: { date: '2024-06-01', value: 12 },
          end: { date: '2025-11-22', value: 147.58 },
          count: 12,
          period: { from: '2024-06-01', to: '2025-05-30' },
          sources: ['derived', 'araquem'],
          ...over,
        }),
      ],
    });
  const q = { ...question, subjects: [{ kind: 'fund' as const, id: 'KNRI11' }], measure: 'dy', agg: 'value' as const, period: null };

  it("a reference price is said as the publisher's, not as a close", () => {
    const text = renderMeasure(dy({ price_kind: 'reference' }), q);
    expect(text).toContain('R$ 12,00 em dividendos por cota sobre o preço de referência de R$ 147,58 publicado em 22/11/2025');
    expect(text).toContain('não é um fechamento negociado');
    expect(text).not.toContain('sobre o fechamento');
  });

  it("the publisher's own DY is said beside Cota's when it differs, with why", () => {
    const newer = renderMeasure(dy({ price_kind: 'reference', published: { value: 13.32, date: '2025-11-22', paid_to: '2025-11-13' } }), q);
    expect(newer).toContain(
      'O dividend yield publicado pela fonte dos indicadores em 22/11/2025 é 13,32%, com pagamentos até 13/11/2025, mais recentes que os dividendos que tenho (até 30/05/2025).',
    );
    const sameMonths = renderMeasure(dy({ price_kind: 'reference', published: { value: 8.1, date: '2025-11-22', paid_to: '2025-05-14' } }), q);
    expect(sameMonths).toContain('é 8,10%, contando os 12 meses até o pagamento de 14/05/2025 (aqui, pela data-com).');
    expect(renderMeasure(dy({ price_kind: 'reference' }), q)).not.toContain('publicado pela fonte dos indicadores');
  });

  it('a traded close is said as the close', () => {
    const text = renderMeasure(dy({ value: 8.37, price_kind: 'close', end: { date: '2025-06-25', value: 143.34 } }), q);
    expect(text).toContain('R$ 12,00 em dividendos por cota sobre o fechamento de R$ 143,34 em 25/06/2025');
  });
});

describe('the best or worst month, trades listed, the source figure beside', () => {
  it('says the extreme month with its move, and every month tied at the extreme', () => {
    const monthly = (rows: Array<[string, number]>, over: Partial<MeasureResult['values'][number]> = {}) => value({ rows: rows.map(([date, v]) => ({ date, value: v })), ...over });
    const best = result({
      agg: 'max',
      group_by: 'month',
      extreme_group: true,
      values: [
        monthly(
          [
            ['2023-04-28', 3.52],
            ['2023-05-31', 5.43],
          ],
          {
            value: 5.43,
            date: '2023-05-31',
            period: { from: '2023-01-01', to: '2023-12-31' },
            start: { date: '2023-04-28', value: 2858.23 },
            end: { date: '2023-05-31', value: 3013.46 },
          },
        ),
      ],
    });
    const text = renderMeasure(best, { ...question, agg: 'max', group_by: 'month', period: { ...period, from: '2023-01-01', to: '2023-12-31' } });
    expect(text).toContain('O melhor mês do IFIX em 2023 foi maio de 2023: +5,43% (de 2.858,23 pontos em 28/04/2023 para 3.013,46 pontos em 31/05/2023).');
    expect(text).toContain('| Mês | Variação |');
    const tie = result({
      measure: 'dividend',
      unit: 'brl',
      value_unit: 'brl',
      agg: 'max',
      group_by: 'month',
      extreme_group: true,
      values: [
        monthly(
          [
            ['2024-01-01', 1.1],
            ['2024-02-01', 1.1],
          ],
          { subject: { kind: 'fund', id: 'HGLG11' }, value: 1.1, date: '2024-01-01', start: null, end: null, matched: ['2024-01-01', '2024-02-01'] },
        ),
      ],
    });
    expect(renderMeasure(tie, { ...question, subjects: [{ kind: 'fund', id: 'HGLG11' }], measure: 'dividend', agg: 'max', group_by: 'month' })).toContain(
      'Os dividendos por cota do HGLG11 em 2024 foram de R$ 1,10 em todos os 2 meses, sem um mês de maior valor.',
    );
  });

  it('lists one trade with its date and, over the whole portfolio, its fund', () => {
    const sold = result({
      measure: 'shares_sold',
      entity: 'client_fiis_positions',
      agg: 'list',
      unit: 'count',
      value_unit: 'count',
      values: [
        value({ subject: { kind: 'portfolio', id: 'PORTFOLIO' }, value: 40, date: '2022-09-30', rows: [{ date: '2022-09-30', value: 40 }], funds: ['HGCR11'], period: null }),
      ],
    });
    expect(renderMeasure(sold, { ...question, subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'shares_sold', agg: 'list', period: null })).toContain(
      'As cotas vendidas da sua carteira: 40, em 30/09/2022 (HGCR11).',
    );
    // A trade's own price, when the rows carry it ("e o que eu já vendi?").
    const priced = { ...sold, values: [{ ...sold.values[0], count: 1, rows: [{ date: '2022-09-30', value: 40, quantity: 40, price: 104.71 }] }] };
    expect(renderMeasure(priced, { ...question, subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'shares_sold', agg: 'list', period: null })).toContain(
      'As cotas vendidas da sua carteira: 40, em 30/09/2022 (HGCR11, a R$ 104,71 por cota).',
    );
  });

  it('lists trades as a table: day, fund and side, shares, price per share and amount', () => {
    const trades = result({
      measure: 'trades',
      entity: 'client_fiis_positions',
      agg: 'list',
      unit: 'brl',
      value_unit: 'brl',
      values: [
        value({
          subject: { kind: 'portfolio', id: 'PORTFOLIO' },
          value: null,
          date: null,
          count: 2,
          rows: [
            { date: '2022-01-31', value: 18383.1, quantity: 150, price: 122.554, fund: 'KNIP11', side: 'buy' },
            { date: '2022-09-30', value: 4188.4, quantity: 40, price: 104.71, fund: 'HGCR11', side: 'sell' },
          ],
          funds: ['HGCR11', 'KNIP11'],
          period: { from: '2022-01-01', to: '2022-12-31' },
        }),
      ],
    });
    const text = renderMeasure(trades, { ...question, subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'trades', agg: 'list', period: null });
    expect(text).toContain('| Data | Fundo | Operação | Cotas | Preço por cota | Valor |');
    expect(text).toContain('| 31/01/2022 | KNIP11 | Compra | 150 | R$ 122,55 | R$ 18.383,10 |');
    expect(text).toContain('| 30/09/2022 | HGCR11 | Venda | 40 | R$ 104,71 | R$ 4.188,40 |');
    // The latest one: its side, shares, fund, price and amount.
    const last = { ...trades, agg: 'last' as const, values: [{ ...trades.values[0], value: 4188.4, date: '2022-09-30' }] };
    expect(renderMeasure(last, { ...question, subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'trades', agg: 'last', period: null })).toContain(
      'A operação mais recente da sua carteira foi em 30/09/2022: venda de 40 cotas de HGCR11 a R$ 104,71 (R$ 4.188,40).',
    );
    // The first: every trade of that day, each with its fund.
    const firstDay = {
      ...trades,
      agg: 'first' as const,
      values: [
        {
          ...trades.values[0],
          value: 18383.1,
          date: '2022-01-31',
          rows: [trades.values[0].rows[0], { date: '2022-01-31', value: 10787, quantity: 100, price: 107.87, fund: 'HGCR11', side: 'buy' as const }, trades.values[0].rows[1]],
        },
      ],
    };
    expect(renderMeasure(firstDay, { ...question, subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'trades', agg: 'first', period: null })).toContain(
      'As primeiras operações da sua carteira foram em 31/01/2022: compra de 150 cotas de KNIP11 a R$ 122,55 (R$ 18.383,10) e compra de 100 cotas de HGCR11 a R$ 107,87 (R$ 10.787,00).',
    );
  });

  it('says a per-share amount for the holding the question supposes, computed exactly', () => {
    const paid = result({
      measure: 'dividend_paid',
      entity: 'fiis_dividendos',
      agg: 'total',
      unit: 'brl',
      value_unit: 'brl',
      values: [value({ subject: { kind: 'fund', id: 'HGLG11' }, value: 13.2, count: 12, date: null })],
    });
    const q = { ...question, subjects: [{ kind: 'fund' as const, id: 'HGLG11' }], measure: 'dividend_paid', agg: 'total' as const, shares: 500 };
    expect(renderMeasure(paid, q)).toContain('Com 500 cotas, seriam R$ 6.600,00 (R$ 13,20 por cota × 500).');
    expect(renderMeasure(paid, { ...q, shares: undefined })).not.toContain('Com 500');
  });

  it("says the source's own figure beside Cota's when the catalog declares one", () => {
    const vol = result({
      measure: 'volatility',
      entity: 'fiis_financials_risk',
      agg: 'value',
      unit: 'fraction',
      value_unit: 'fraction',
      values: [value({ subject: { kind: 'fund', id: 'KNRI11' }, value: 0.1223, date: '2024-12-30', published: { value: 1.87, date: '2024-12-30', paid_to: null }, period: null })],
    });
    expect(renderMeasure(vol, { ...question, subjects: [{ kind: 'fund', id: 'KNRI11' }], measure: 'volatility', agg: 'value', period: null })).toContain(
      'foi 12,23% (a base araquem publica 1,87 nessa métrica, sem unidade).',
    );
  });
});

describe("the client's money fund by fund", () => {
  const october = { kind: 'range' as const, from: '2024-10-01', to: '2024-10-31', grain: 'month' as const };
  const fund = (id: string, v: number) =>
    value({ subject: { kind: 'fund', id }, value: v, count: 1, start: null, end: null, sources: ['dashbord'], period: { from: '2024-10-01', to: '2024-10-31' } });
  const received = (values: MeasureResult['values']) =>
    result({ measure: 'received', entity: 'client_fiis_dividends_evolution', agg: 'total', unit: 'brl', value_unit: 'brl', values });
  const q = { ...question, subjects: [{ kind: 'portfolio' as const, id: 'PORTFOLIO' }], measure: 'received', agg: 'total' as const, period: october };

  it('says what the funds come to together, once (132,00 + 120,00 + 73,60 + 64,00)', () => {
    const text = renderMeasure(received([fund('HGLG11', 132), fund('KNRI11', 120), fund('XPML11', 73.6), fund('VISC11', 64)]), q);
    expect(text).toContain('Somando os 4 fundos: R$ 389,60.');
  });

  it('says no total of a fund measure per share, nor one with a fund missing its value', () => {
    const perShare = result({ measure: 'dividend', entity: 'fiis_dividendos', agg: 'total', unit: 'brl', value_unit: 'brl', values: [fund('HGLG11', 1.1), fund('KNRI11', 1)] });
    expect(renderMeasure(perShare, { ...q, measure: 'dividend' })).not.toContain('Somando');
    expect(renderMeasure(received([fund('HGLG11', 132), value({ subject: { kind: 'fund', id: 'KNRI11' }, value: null })]), q)).not.toContain('Somando');
  });
});

describe('one trade, said with its shares and price', () => {
  const sale = value({
    subject: { kind: 'fund', id: 'XPIN11' },
    value: 6069,
    count: 1,
    start: null,
    end: null,
    rows: [{ date: '2022-08-31', value: 6069, quantity: 70, price: 86.7 }],
    period: null,
  });
  const q = { ...question, subjects: [{ kind: 'fund' as const, id: 'XPIN11' }], measure: 'sale_proceeds', agg: 'total' as const, period: null };

  it('says the shares and the price of the only sale (70 × 86,70 = 6 069,00)', () => {
    const r = result({ measure: 'sale_proceeds', entity: 'client_fiis_positions', agg: 'total', unit: 'brl', value_unit: 'brl', values: [sale] });
    expect(renderMeasure(r, q)).toContain('soma R$ 6.069,00 (1 venda: 70 cotas a R$ 86,70).');
  });

  it("names the fund a value of the whole portfolio was found in (the sale's price, asked of the portfolio)", () => {
    const ofPortfolio = value({ ...sale, subject: { kind: 'portfolio', id: 'PORTFOLIO' }, value: 86.7, date: '2022-08-31', funds: ['XPIN11'], rows: [] });
    const r = result({ measure: 'sale_price', entity: 'client_fiis_positions', agg: 'value', unit: 'brl', value_unit: 'brl', values: [ofPortfolio] });
    expect(renderMeasure(r, { ...q, subjects: [{ kind: 'portfolio', id: 'PORTFOLIO' }], measure: 'sale_price', agg: 'value' })).toMatch(/R\$ 86,70 \(XPIN11\)\./);
  });

  it('says only the price of a count of shares, and nothing for several trades', () => {
    const shares = result({
      measure: 'shares_sold',
      entity: 'client_fiis_positions',
      agg: 'total',
      unit: 'count',
      value_unit: 'count',
      values: [{ ...sale, value: 70, rows: [{ date: '2022-08-31', value: 70, quantity: 70, price: 86.7 }] }],
    });
    expect(renderMeasure(shares, { ...q, measure: 'shares_sold' })).toContain('(1 venda, a R$ 86,70 por cota)');
    const two = { ...sale, count: 2, rows: [sale.rows[0], { date: '2022-09-30', value: 100, quantity: 1, price: 100 }] };
    const r = result({ measure: 'sale_proceeds', entity: 'client_fiis_positions', agg: 'total', unit: 'brl', value_unit: 'brl', values: [two] });
    expect(renderMeasure(r, q)).not.toContain('cotas a');
  });
});

describe('a screen of several funds', () => {
  const pvp = (id: string, v: number) =>
    value({ subject: { kind: 'fund', id }, value: v, count: 1, start: null, end: null, date: '2025-11-22', period: null, sources: ['araquem'] });
  const q = {
    ...question,
    subjects: [{ kind: 'portfolio' as const, id: 'PORTFOLIO' }],
    measure: 'pvp',
    agg: 'value' as const,
    period: null,
    condition: { op: 'lt' as const, value: 0.95 },
  };
  const screen = (values: MeasureResult['values']) =>
    result({ measure: 'pvp', entity: 'fiis_financials_snapshot', agg: 'value', unit: 'ratio', value_unit: 'ratio', values, screened: { of: 4, op: 'lt', value: 0.95 } });

  it('leads with how many of the funds pass, then each of them', () => {
    const text = renderMeasure(screen([pvp('KNRI11', 0.9), pvp('VISC11', 0.89)]), q);
    expect(text.startsWith('Dos 4 fundos, 2 têm o P/VP abaixo de 0,95:')).toBe(true);
    expect(text).toContain('KNRI11');
    expect(text).toContain('VISC11');
  });

  it('says plainly when none passes', () => {
    expect(renderMeasure(screen([]), q)).toBe('Nenhum dos 4 fundos tem o P/VP abaixo de 0,95.');
  });
});

describe("a fund's total return, also on its traded closes", () => {
  it('says the traded closes’ variation at the same ends after the adjusted one', () => {
    const v = value({
      subject: { kind: 'fund', id: 'ABCP11' },
      value: 15.132,
      start: { date: '2023-12-28', value: 65.16 },
      end: { date: '2024-12-30', value: 75.02 },
      adjusted: true,
      traded: { value: 7.4637, start: { date: '2023-12-28', value: 69.81 }, end: { date: '2024-12-30', value: 75.02 } },
    });
    const r = result({ measure: 'price', entity: 'fiis_precos', unit: 'brl', value_unit: 'pct', values: [v] });
    expect(renderMeasure(r, { ...question, subjects: [{ kind: 'fund', id: 'ABCP11' }], measure: 'price' })).toContain(
      'Pela cotação negociada, sem os proventos: +7,46% (de R$ 69,81 em 28/12/2023 para R$ 75,02 em 30/12/2024).',
    );
  });
});

describe('an extreme among monthly closes', () => {
  it('is said by its month, its day given too ("em que mês ... mais alto?")', () => {
    const highest = value({ value: 3423.95, date: '2024-04-30', start: null, end: null, count: 12, rows: [] });
    const r = result({ agg: 'max', value_unit: 'points', group_by: 'month', values: [highest] });
    expect(renderMeasure(r, { ...question, agg: 'max', group_by: 'month' })).toContain('em abril de 2024 (30/04/2024)');
    // (a daily series' extreme keeps its day)
    expect(renderMeasure(result({ agg: 'max', value_unit: 'points', values: [highest] }), { ...question, agg: 'max' })).toContain('em 30/04/2024.');
  });
});

describe('a result said as a gain or a loss', () => {
  const sale = (v: number) =>
    renderMeasure(
      result({
        measure: 'realized',
        entity: 'client_fiis_positions',
        agg: 'total',
        unit: 'brl',
        value_unit: 'brl',
        grain: 'day',
        values: [value({ subject: { kind: 'fund', id: 'HGCR11' }, value: v, start: null, end: null, count: 1 })],
      }),
      { ...question, subjects: [{ kind: 'fund', id: 'HGCR11' }], measure: 'realized', agg: 'total', period: null },
    );

  it('says a loss with its signed figure beside it, and a gain as a gain', () => {
    expect(sale(-126.4)).toContain('um prejuízo de R$ 126,40 (-R$ 126,40)');
    expect(sale(168.7)).toContain('um lucro de R$ 168,70');
    expect(sale(168.7)).not.toContain('-R$');
  });
});
