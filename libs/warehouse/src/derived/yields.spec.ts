import { addMonths, computeYields, DividendIn, refMonth, trailingDistributions } from './yields';

describe('monthly and 12-month yields (hand-checked)', () => {
  // 1.00 per share every month, record date at month end, paid on the 14th of the next month.
  const dividends: DividendIn[] = Array.from({ length: 12 }, (_, i) => ({
    ticker: 'XXXX11',
    traded_until_date: new Date(Date.UTC(2023, i + 1, 0)).toISOString().slice(0, 10),
    payment_date: new Date(Date.UTC(2023, i + 1, 14)).toISOString().slice(0, 10),
    dividend_amt: 1,
  }));
  const closes = new Map([
    [
      'XXXX11',
      new Map([
        ['2023-06-01', 80],
        ['2024-01-01', 100],
      ]),
    ],
  ]);
  const { history, yields } = computeYields(dividends, closes);

  it('uses the payment month as the reference month', () => {
    expect(refMonth(dividends[0])).toBe('2023-02-01');
    expect(refMonth({ ...dividends[0], payment_date: null })).toBe('2023-01-01');
  });

  it('monthly DY = dividends of the month / last close of the month', () => {
    expect(history).toEqual([
      { ticker: 'XXXX11', ref_month: '2023-06-01', dividends_sum: 1, price_ref: 80, dy_monthly: 0.0125 },
      { ticker: 'XXXX11', ref_month: '2024-01-01', dividends_sum: 1, price_ref: 100, dy_monthly: 0.01 },
    ]);
  });

  it('12-month DY only with a full 12-month dividend history', () => {
    // 2023-06: history starts 2023-02 > window start 2022-07 -> no row. 2024-01: Feb/2023..Jan/2024 = 12.00 / 100 = 12%.
    expect(yields).toEqual([
      {
        ticker: 'XXXX11',
        ref_month: '2024-01-01',
        month_dividends_amt: 1,
        month_price_ref: 100,
        dy_monthly: 0.01,
        dividends_12m_amt: 12,
        payments_12m: 12,
        dy_12m_pct: 12,
        last_dividend_amt: 1,
        last_payment_date: '2024-01-14',
      },
    ]);
  });

  it('regression: a month right after the newest dividend takes the 12 months ending there (KNRI11 showed 11 payments as 12 months)', () => {
    const divs = Array.from({ length: 12 }, (_, i) => ({
      ticker: 'KNRI11',
      traded_until_date: addMonths('2024-06-01', i).replace(/01$/, '28'),
      payment_date: null,
      dividend_amt: 1,
    }));
    const closes = new Map([
      [
        'KNRI11',
        new Map([
          ['2025-05-01', 140],
          ['2025-06-01', 143],
          ['2025-09-01', 150],
        ]),
      ],
    ]);
    const out = computeYields(divs, closes).yields;
    // September is three months past the newest data-com: the distribution data ends there, so no
    // 12-month figure is made up from 8 payments (the fund's DY is the one ending at its newest data-com).
    expect(out.map((y) => [y.ref_month, y.dividends_12m_amt, y.payments_12m])).toEqual([
      ['2025-05-01', 12, 12],
      ['2025-06-01', 12, 12],
    ]);
  });

  it('addMonths crosses years both ways', () => {
    expect(addMonths('2024-01-01', -11)).toBe('2023-02-01');
    expect(addMonths('2023-12-01', 1)).toBe('2024-01-01');
  });
});

describe("a fund's last twelve months of distributions", () => {
  it('the 12 whole months ending with the newest data-com, whatever prices exist; none on a shorter history', () => {
    // KNRI11, dashbord dividendos.csv rows 12381-12393: R$ 1,00 per month, data-com 31/05/2024 .. 30/05/2025 (13 months).
    const knri: DividendIn[] = [
      '2024-05-31',
      '2024-06-28',
      '2024-07-31',
      '2024-08-30',
      '2024-09-30',
      '2024-10-31',
      '2024-11-29',
      '2024-12-30',
      '2025-01-31',
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-30',
    ].map((d) => ({ ticker: 'KNRI11', traded_until_date: d, payment_date: null, dividend_amt: 1 }));
    expect(trailingDistributions(knri).get('KNRI11')).toEqual({ from: '2024-06-01', to: '2025-05-30', total: 12, payments: 12 });
    // Eleven months of history cannot say what twelve months paid.
    expect(trailingDistributions(knri.slice(2)).has('KNRI11')).toBe(false);
  });
});
