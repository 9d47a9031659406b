import { cdiMonthlyReturns, comparePerformance, indexMonthlyReturns, portfolioMonthlyReturns } from './client-performance';
import { DEMO_CLIENTS } from './demo-clients';

describe('client performance (hand-checked)', () => {
  const adj = new Map([
    [
      'XXXX11',
      new Map([
        ['2024-01-01', 50],
        ['2024-02-01', 55],
        ['2024-03-01', 49.5],
      ]),
    ],
  ]);

  it('positions grow with the adjusted close from the trade price', () => {
    const m = portfolioMonthlyReturns([{ trade_date: '2024-01-31', ticker: 'XXXX11', side: 'buy', quantity: 10, price: 100 }], adj, '2024-03-01');
    expect(m.map((x) => [x.month, Number(x.ret.toFixed(10)), Number(x.value.toFixed(6))])).toEqual([
      ['2024-02-01', 0.1, 1100],
      ['2024-03-01', -0.1, 990],
    ]);
  });

  it('a sale removes its share of the position value', () => {
    const m = portfolioMonthlyReturns(
      [
        { trade_date: '2024-01-31', ticker: 'XXXX11', side: 'buy', quantity: 10, price: 100 },
        { trade_date: '2024-02-29', ticker: 'XXXX11', side: 'sell', quantity: 5, price: 110 },
      ],
      adj,
      '2024-03-01',
    );
    expect(Number(m[0].value.toFixed(6))).toBe(550);
    expect(Number(m[1].value.toFixed(6))).toBe(495);
    expect(() => portfolioMonthlyReturns([{ trade_date: '2024-01-31', ticker: 'XXXX11', side: 'sell', quantity: 1, price: 1 }], adj, '2024-02-01')).toThrow(/exceeds/);
  });

  it('cumulative returns and excess in percentage points', () => {
    const m = [
      { month: '2024-02-01', ret: 0.1, value: 1100 },
      { month: '2024-03-01', ret: -0.1, value: 990 },
    ];
    const rows = comparePerformance(
      m,
      'IFIX',
      new Map([
        ['2024-02-01', 0.05],
        ['2024-03-01', 0],
      ]),
    );
    expect(rows[1]).toEqual({
      benchmark: 'IFIX',
      ref_month: '2024-03-01',
      portfolio_value: 990,
      portfolio_return_pct: -10,
      benchmark_return_pct: 0,
      portfolio_cum_return_pct: -1,
      benchmark_cum_return_pct: 5,
      excess_return_pct: -6,
    });
  });

  it('index month returns use the last session of each month; CDI compounds per session', () => {
    const idx = indexMonthlyReturns([
      ['2024-01-30', 100],
      ['2024-01-31', 110],
      ['2024-02-29', 121],
    ]);
    expect(idx.get('2024-02-01')).toBeCloseTo(0.1, 10);
    expect(idx.has('2024-01-01')).toBe(false);
    const cdi = cdiMonthlyReturns(['2024-01-30', '2024-01-31'], () => 10);
    expect(cdi.get('2024-01-01')).toBeCloseTo(Math.pow(1.1, 2 / 252) - 1, 12);
  });

  it('demo clients are marked as demo and use example e-mails', () => {
    expect(DEMO_CLIENTS.map((c) => c.client_id)).toEqual(['cliente-demo-1', 'cliente-demo-2', 'cliente-demo-3']);
    for (const c of DEMO_CLIENTS) {
      expect(c.email).toBe(`${c.client_id}@exemplo.com.br`);
      expect(c.display_name).toContain('[DEMO]');
    }
  });
});
