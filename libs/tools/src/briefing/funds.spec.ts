import { QueryResult } from '@cota/contracts';
import { buildDividendsSection } from './funds';

// Synthetic rows (unit test only).
const dividends = (rows: QueryResult['rows']): QueryResult => ({
  entity: 'fiis_dividendos',
  columns: [
    { name: 'ticker', type: 'text', label: 'Ticker' },
    { name: 'traded_until_date', type: 'date', label: 'Data com' },
    { name: 'payment_date', type: 'date', label: 'Data de pagamento' },
    { name: 'dividend_amt', type: 'money', label: 'Dividendo por cota (R$)' },
  ],
  rows,
  row_count: rows.length,
  truncated: false,
  as_of: null,
  sources: ['test'],
  params: { ticker: null, tickers: [], agg: 'list', window: null, limit: null, order: null, order_by: null, filters: {} },
});

describe('dividends section', () => {
  it('never calls a dividend paid without a payment date, and dates the section by the record date then', () => {
    const s = buildDividendsSection(
      [
        dividends([
          { ticker: 'AAAA11', traded_until_date: '2030-01-31', payment_date: null, dividend_amt: 1 },
          { ticker: 'BBBB11', traded_until_date: '2030-03-31', payment_date: null, dividend_amt: 2 },
          { ticker: 'CCCC11', traded_until_date: '2029-12-30', payment_date: '2030-01-07', dividend_amt: 3 },
        ]),
      ],
      new Map([['AAAA11', 'Logística']]),
      '2030-02-15',
      null,
    );
    expect(s.rows.map((r) => [r.ticker, r.situacao, r.segmento])).toEqual([
      ['BBBB11', 'a pagar', null],
      ['AAAA11', 'data de pagamento não informada', 'Logística'],
      ['CCCC11', 'pago', null],
    ]);
    expect(s.as_of).toBe('2030-03-31');
    expect(s.note).toBeNull();
  });
});
