import { competitionRank, computeRankings } from './rankings';

describe('rankings', () => {
  it('competition ranking: ties share a rank, the next rank skips; missing values are unranked', () => {
    const r = competitionRank(
      [
        { key: 'A', value: 10 },
        { key: 'B', value: 12 },
        { key: 'C', value: 10 },
        { key: 'D', value: null },
        { key: 'E', value: 0 },
        { key: 'F', value: 8 },
      ],
      'desc',
      true,
    );
    expect(Object.fromEntries(r)).toEqual({ A: 2, B: 1, C: 2, D: null, E: null, F: 4 });
  });

  it('low-volatility and low-drawdown ranks go ascending', () => {
    const base = { dy_12m_pct: null, dy_monthly_pct: null, dividends_12m_amt: null, market_cap_value: null, equity_value: null, sharpe_ratio: null, sortino_ratio: null };
    const ranks = computeRankings([
      { ticker: 'AAAA11', ...base, volatility_ratio: 2, max_drawdown: 0.3 },
      { ticker: 'BBBB11', ...base, volatility_ratio: 1, max_drawdown: 0.1 },
    ]);
    expect(ranks.get('BBBB11')).toMatchObject({ rank_low_volatility: 1, rank_low_drawdown: 1, rank_dy_12m: null });
    expect(ranks.get('AAAA11')).toMatchObject({ rank_low_volatility: 2, rank_low_drawdown: 2 });
  });
});

describe('implausible yields', () => {
  it('are left out of the DY rankings (amortisation or stale price), not ranked first', () => {
    const base = { dy_monthly_pct: 0.8, dividends_12m_amt: 1, market_cap_value: 1, equity_value: 1, sharpe_ratio: 0, sortino_ratio: 0, volatility_ratio: 1, max_drawdown: 0.1 };
    const ranks = computeRankings([
      { ...base, ticker: 'AAAA11', dy_12m_pct: 435.24, dy_monthly_pct: 2368 },
      { ...base, ticker: 'BBBB11', dy_12m_pct: 12.5 },
      { ...base, ticker: 'CCCC11', dy_12m_pct: 9.1 },
    ]);
    expect(ranks.get('AAAA11')).toMatchObject({ rank_dy_12m: null, rank_dy_monthly: null });
    expect(ranks.get('BBBB11')?.rank_dy_12m).toBe(1);
    expect(ranks.get('CCCC11')?.rank_dy_12m).toBe(2);
  });
});
