/**
 * Plausibility checks at ingest: values no investor should read as facts. Each finding names the
 * table, the row, the column, the value and the rule; the ingest reports them per rule and stores
 * them in `wh_quality_flags`. Rankings leave flagged values out through the catalog's `plausible:`
 * ranges (the same bounds as here); series spikes are dropped before they reach the warehouse.
 */
export interface QualityFlag {
  table_name: string;
  row_key: string;
  column_name: string;
  value: number;
  rule: string;
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

/** The documented bounds (docs/METRICS.md, "Plausibility"). */
export const PLAUSIBLE = {
  pvp: { above: 0.1, below: 10 },
  dy12m: { above: 0, below: 40 },
  /** A daily level more than this far from the median of its neighbours is a data glitch (USD 0,16 among 6,18s). */
  spike: 0.5,
  /**
   * A snapshot's reference price this many times above or below the last traded close is on another
   * basis (SJAU11: R$ 0,85 against a close of R$ 28,82; a split the distributions do not reflect, or a
   * glitch): the close stays the fund's price.
   */
  referenceVsClose: 2,
};

/** Snapshot and yield values outside the documented bounds. */
export function checkSnapshots(snapshots: Row[], yields: Row[]): QualityFlag[] {
  const out: QualityFlag[] = [];
  for (const s of snapshots) {
    const pvp = num(s.price_book_ratio);
    if (pvp !== null && !(pvp > PLAUSIBLE.pvp.above && pvp < PLAUSIBLE.pvp.below)) {
      out.push({ table_name: 'wh_snapshots', row_key: String(s.ticker), column_name: 'price_book_ratio', value: pvp, rule: 'pvp_out_of_range' });
    }
    const dy = num(s.dy_pct);
    if (dy !== null && dy >= PLAUSIBLE.dy12m.below) out.push({ table_name: 'wh_snapshots', row_key: String(s.ticker), column_name: 'dy_pct', value: dy, rule: 'dy_above_ceiling' });
  }
  // Only each fund's latest 12-month figure is read as "its DY".
  const latest = new Map<string, Row>();
  for (const y of yields) if (String(y.ref_month) > String(latest.get(String(y.ticker))?.ref_month ?? '')) latest.set(String(y.ticker), y);
  for (const y of latest.values()) {
    const dy = num(y.dy_12m_pct);
    if (dy !== null && dy >= PLAUSIBLE.dy12m.below) {
      out.push({ table_name: 'wh_dividends_yields', row_key: `${y.ticker}|${y.ref_month}`, column_name: 'dy_12m_pct', value: dy, rule: 'dy_above_ceiling' });
    }
  }
  return out;
}

/**
 * Drops the values of a daily series that stand more than 50% away from the median of their
 * neighbours (a glitch, not a move: no index or currency moves that much in a few sessions), and says
 * which. `key` groups the series (currency, index).
 */
/** The daily series checked for spikes (table -> column): a day dropped from them is said by the answers that cover it. */
export const SPIKE_CHECKED_SERIES: Readonly<Record<string, string>> = { wh_currency_rates: 'sell_amt', wh_index_history: 'points' };

export function dropSpikes<T extends Row>(rows: T[], table: string, key: (r: T) => string, date: (r: T) => string, column: keyof T & string): { kept: T[]; flags: QualityFlag[] } {
  const groups = new Map<string, T[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const flags: QualityFlag[] = [];
  const drop = new Set<T>();
  for (const list of groups.values()) {
    const sorted = list.filter((r) => num(r[column]) !== null).sort((a, b) => date(a).localeCompare(date(b)));
    const values = sorted.map((r) => num(r[column])!);
    for (let i = 0; i < sorted.length; i++) {
      // The median of up to 4 neighbours on each side: a glitch of one or two days stands out of it.
      const around = [...values.slice(Math.max(0, i - 4), i), ...values.slice(i + 1, i + 5)].sort((a, b) => a - b);
      if (around.length < 4) continue;
      const median = around[Math.floor(around.length / 2)];
      if (median > 0 && Math.abs(values[i] / median - 1) > PLAUSIBLE.spike) {
        drop.add(sorted[i]);
        flags.push({ table_name: table, row_key: `${key(sorted[i])}|${date(sorted[i])}`, column_name: column, value: values[i], rule: 'series_spike' });
      }
    }
  }
  return { kept: rows.filter((r) => !drop.has(r)), flags };
}

/** "pvp_out_of_range: 37 (ANCR11 0, ...)" lines for the ingest report. */
export function summariseFlags(flags: QualityFlag[]): string[] {
  const byRule = new Map<string, QualityFlag[]>();
  for (const f of flags) byRule.set(f.rule, [...(byRule.get(f.rule) ?? []), f]);
  return [...byRule]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, list]) => {
      const examples = list
        .slice(0, 5)
        .map((f) => `${f.row_key} ${f.column_name}=${f.value}`)
        .join('; ');
      return `plausibility ${rule}: ${list.length} flagged (${examples}${list.length > 5 ? '; ...' : ''})`;
    });
}
