import { checkSnapshots, dropSpikes, summariseFlags } from './plausibility';

describe('plausibility checks', () => {
  it('flags P/VP at or below zero or absurdly high, and DY above the ceiling', () => {
    const flags = checkSnapshots(
      [
        { ticker: 'AAAA11', price_book_ratio: 0, dy_pct: 9 },
        { ticker: 'BBBB11', price_book_ratio: 0.95, dy_pct: 117.13 },
        { ticker: 'CCCC11', price_book_ratio: 1.02, dy_pct: 8.5 },
      ],
      [{ ticker: 'CCCC11', ref_month: '2025-06-01', dy_12m_pct: 79.5 }],
    );
    expect(flags.map((f) => `${f.row_key}:${f.rule}`).sort()).toEqual(['AAAA11:pvp_out_of_range', 'BBBB11:dy_above_ceiling', 'CCCC11|2025-06-01:dy_above_ceiling']);
    expect(summariseFlags(flags)[0]).toMatch(/^plausibility dy_above_ceiling: 2 flagged \(BBBB11 dy_pct=117.13/);
  });

  it('drops a one- or two-day glitch of a daily series, not a real move', () => {
    const days = ['2024-12-20', '2024-12-23', '2024-12-26', '2024-12-27', '2024-12-30', '2024-12-31', '2025-01-02', '2025-01-03', '2025-01-06'];
    const sells = [6.1, 6.12, 6.15, 0.16, 6.18, 0.16, 6.16, 6.1, 6.08];
    const rows = days.map((d, i) => ({ currency: 'USD', rate_date: d, sell_amt: sells[i] }));
    const { kept, flags } = dropSpikes(
      rows,
      'wh_currency_rates',
      (r) => r.currency,
      (r) => r.rate_date,
      'sell_amt',
    );
    expect(flags.map((f) => f.row_key)).toEqual(['USD|2024-12-27', 'USD|2024-12-31']);
    expect(kept).toHaveLength(7);
    // A 10% fall over a few sessions stays.
    const falls = days.map((d, i) => ({ currency: 'USD', rate_date: d, sell_amt: 6 - i * 0.08 }));
    expect(
      dropSpikes(
        falls,
        't',
        (r) => r.currency,
        (r) => r.rate_date,
        'sell_amt',
      ).flags,
    ).toEqual([]);
  });
});
