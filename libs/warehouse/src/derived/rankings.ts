/**
 * Rankings computed by the project from the metrics it serves (so a "top 10 por DY" list is always
 * consistent with the DY shown next to it). Competition ranking ("1224"): equal values share a rank,
 * the next rank skips. Funds without the metric (null, or not positive where `positiveOnly`) are unranked.
 */
export function competitionRank<K>(
  items: Array<{ key: K; value: number | null }>,
  dir: 'asc' | 'desc',
  positiveOnly = false,
  maxPlausible = Number.POSITIVE_INFINITY,
): Map<K, number | null> {
  const out = new Map<K, number | null>();
  const valid = items.filter((i) => i.value !== null && Number.isFinite(i.value) && (!positiveOnly || i.value > 0) && i.value <= maxPlausible);
  const sorted = [...valid].sort((a, b) => (dir === 'asc' ? a.value! - b.value! : b.value! - a.value!));
  for (const i of items) out.set(i.key, null);
  let rank = 0;
  sorted.forEach((item, idx) => {
    if (idx === 0 || item.value !== sorted[idx - 1].value) rank = idx + 1;
    out.set(item.key, rank);
  });
  return out;
}

export interface RankInput {
  ticker: string;
  dy_12m_pct: number | null;
  dy_monthly_pct: number | null;
  dividends_12m_amt: number | null;
  market_cap_value: number | null;
  equity_value: number | null;
  sharpe_ratio: number | null;
  sortino_ratio: number | null;
  volatility_ratio: number | null;
  max_drawdown: number | null;
}

export type RankColumns = {
  rank_dy_12m: number | null;
  rank_dy_monthly: number | null;
  rank_dividends_12m: number | null;
  rank_market_cap: number | null;
  rank_equity: number | null;
  rank_sharpe: number | null;
  rank_sortino: number | null;
  rank_low_volatility: number | null;
  rank_low_drawdown: number | null;
};

/**
 * Yields above these (in percent) are not ranked: in the source data they come from amortisations,
 * capital returns or stale prices (e.g. 435% a year, 2.368% a month), and a "top 10 por DY" led by
 * them would mislead. The fund's own figure is still shown where it is asked for.
 */
export const MAX_PLAUSIBLE_DY_12M_PCT = 40;
export const MAX_PLAUSIBLE_DY_MONTHLY_PCT = 5;

/** Every rank column of `fiis_rankings` for one universe of funds (same as-of date). */
export function computeRankings(rows: RankInput[]): Map<string, RankColumns> {
  const by = (f: (r: RankInput) => number | null, dir: 'asc' | 'desc', positiveOnly: boolean, max?: number) =>
    competitionRank(
      rows.map((r) => ({ key: r.ticker, value: f(r) })),
      dir,
      positiveOnly,
      max,
    );
  const ranks = {
    rank_dy_12m: by((r) => r.dy_12m_pct, 'desc', true, MAX_PLAUSIBLE_DY_12M_PCT),
    rank_dy_monthly: by((r) => r.dy_monthly_pct, 'desc', true, MAX_PLAUSIBLE_DY_MONTHLY_PCT),
    rank_dividends_12m: by((r) => r.dividends_12m_amt, 'desc', true),
    rank_market_cap: by((r) => r.market_cap_value, 'desc', true),
    rank_equity: by((r) => r.equity_value, 'desc', true),
    rank_sharpe: by((r) => r.sharpe_ratio, 'desc', false),
    rank_sortino: by((r) => r.sortino_ratio, 'desc', false),
    rank_low_volatility: by((r) => r.volatility_ratio, 'asc', true),
    rank_low_drawdown: by((r) => r.max_drawdown, 'asc', false),
  };
  const out = new Map<string, RankColumns>();
  for (const r of rows) {
    out.set(r.ticker, Object.fromEntries(Object.entries(ranks).map(([k, m]) => [k, m.get(r.ticker) ?? null])) as RankColumns);
  }
  return out;
}
