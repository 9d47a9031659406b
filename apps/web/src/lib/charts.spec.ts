import { chooseCharts, describeChart, joinNames } from './charts';
import {
  CATALOG,
  dividends12m,
  dividendsCompare,
  dyCompare,
  incomeByMonth,
  ipcaMonthly,
  overviewCompare,
  portfolio,
  priceHistory,
  reply,
  mv,
  confirmation,
} from './testing-answers';

describe('chooseCharts', () => {
  it('draws dividends per month as bars in R$, keyed by month', () => {
    const [chart, ...rest] = chooseCharts(dividends12m, CATALOG);
    expect(rest).toHaveLength(0);
    expect(chart).toMatchObject({ type: 'bar', unit: 'brl', x: 'month', points: 13 });
    expect(chart.labels[0]).toBe('2024-05');
    expect(chart.labels).toHaveLength(13);
    expect(chart.series).toEqual([{ label: 'HGLG11', values: expect.arrayContaining([1, 1.05, 1.1]) }]);
    expect(chart.title).toBe('Dividendos por cota por mês: HGLG11');
    expect(chart.ariaLabel).toContain('Gráfico de barras');
    expect(chart.ariaLabel).toContain('De maio de 2024 a maio de 2025, 13 valores');
    expect(chart.ariaLabel).toContain('Mínimo R$ 1,00, máximo R$ 1,10');
  });

  it('draws a price history over the period asked as a line of daily closes', () => {
    const [chart] = chooseCharts(priceHistory, CATALOG);
    expect(chart).toMatchObject({ type: 'line', unit: 'brl', x: 'date', points: 4, labels: ['2024-01-02', '2024-01-03', '2024-06-03', '2024-12-30'] });
    expect(chart.ariaLabel).toContain('De 02/01/2024 a 30/12/2024');
  });

  it('draws an indicator series (IPCA month by month) in % ao mês', () => {
    const [chart] = chooseCharts(ipcaMonthly, CATALOG);
    expect(chart).toMatchObject({ type: 'line', unit: 'pct_month', x: 'month', labels: ['2024-01', '2024-02', '2024-03'] });
    expect(chart.series[0].label).toBe('IPCA');
  });

  it('puts 2-3 compared funds on one chart, aligned by month', () => {
    const [chart] = chooseCharts(dividendsCompare, CATALOG);
    expect(chart.type).toBe('bar');
    expect(chart.labels).toEqual(['2024-01', '2024-02', '2024-03']);
    expect(chart.series.map((s) => s.label)).toEqual(['HGLG11', 'KNRI11', 'XPML11']);
    expect(chart.series[1].values).toEqual([1, 1, 1]);
    expect(chart.title).toBe('Dividendos por cota por mês: HGLG11, KNRI11 e XPML11');
  });

  it('compares single values side by side as bars (DY of two funds)', () => {
    const [chart] = chooseCharts(dyCompare, CATALOG);
    expect(chart).toMatchObject({ type: 'bar', unit: 'pct', x: 'category', labels: ['HGLG11', 'KNRI11'], series: [{ values: [8.3, 8.1] }] });
    expect(chart.ariaLabel).toContain('HGLG11 8,30%; KNRI11 8,10%');
  });

  it('draws portfolio weights as a doughnut and the expected income per fund as bars', () => {
    const charts = chooseCharts(portfolio, CATALOG);
    expect(charts.map((c) => c.type)).toEqual(['doughnut', 'bar']);
    expect(charts[0]).toMatchObject({ unit: 'pct', labels: ['HGLG11', 'KNRI11', 'XPML11'], series: [{ values: [40, 35, 25] }] });
    expect(charts[1]).toMatchObject({ unit: 'brl', series: [{ values: [130, 118, 95.5] }] });
    // Asked about income: the income first.
    const income = { ...portfolio, meta: { ...portfolio.meta, planner: { ...portfolio.meta.planner, question: { measure: 'dividend', group_by: 'month' as const } } } };
    expect(chooseCharts(income, CATALOG).map((c) => c.type)).toEqual(['bar', 'doughnut']);
  });

  it('draws the income received per month (entity rows, newest first) oldest to newest', () => {
    const [chart] = chooseCharts(incomeByMonth, CATALOG);
    expect(chart).toMatchObject({ type: 'bar', unit: 'brl', x: 'month', title: 'Proventos recebidos por mês', labels: ['2025-01', '2025-02', '2025-03'] });
    expect(chart.series[0].values).toEqual([392, 389.6, 389.6]);
  });

  it('falls back to the entity when the catalog does not know the measure', () => {
    const [chart] = chooseCharts(dividends12m, {});
    expect(chart).toMatchObject({ unit: 'brl', type: 'bar' });
  });

  it('draws nothing for a single value, a registry answer, a tool, or an error', () => {
    expect(chooseCharts(reply('fiis_precos', [mv('KNRI11', 126.6)], { measure: 'price', agg: 'value' }), CATALOG)).toEqual([]);
    expect(chooseCharts(reply('fiis_cadastro', [{ ticker: 'HGLG11', fii_cnpj: '11.728.688/0001-47' }], null), CATALOG)).toEqual([]);
    expect(chooseCharts(confirmation, CATALOG)).toEqual([]);
    expect(chooseCharts({ ...dividends12m, status: 'error' }, CATALOG)).toEqual([]);
    expect(chooseCharts(overviewCompare, CATALOG)).toEqual([]);
  });

  it('describes a chart for screen readers', () => {
    expect(describeChart({ type: 'doughnut', title: 'Peso', unit: 'pct', x: 'category', labels: ['A', 'B'], series: [{ label: 'Peso', values: [60, 40] }], points: 2 })).toBe(
      'Gráfico de rosca: Peso. A 60,00%; B 40,00%.',
    );
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B e C');
  });
});
