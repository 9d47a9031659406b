import { createHash } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { WarehouseEvents, type WarehouseEventName } from '@cota/contracts';
import type { FeedRunResult } from './run-feed';
import type { Row } from './rows';

export interface ChangeEvent {
  name: WarehouseEventName;
  subject: string;
  payload: Record<string, unknown>;
}

const num = (v: Row[string]) => (v === null || v === undefined ? null : Number(v));
const str = (v: Row[string]) => (v === null || v === undefined ? null : String(v));

/** The same change always gets the same id: subject, natural key and the values announced. */
function eventId(subject: string, fields: Record<string, unknown>): string {
  return createHash('sha256').update(subject).update(JSON.stringify(fields)).digest('hex').slice(0, 32);
}

type Mapper = (r: Row) => { name: WarehouseEventName; fields: Record<string, unknown> };

/** How each table's inserted or changed rows are announced. */
const MAPPERS: Record<string, Mapper> = {
  wh_dividends: (r) => ({
    name: 'distributionAnnounced',
    fields: { ticker: str(r.ticker), record_date: str(r.traded_until_date), payment_date: str(r.payment_date), amount_per_share: num(r.dividend_amt) },
  }),
  wh_prices: (r) => ({
    name: 'priceClosed',
    fields: {
      ticker: str(r.ticker),
      traded_at: str(r.traded_at),
      close: num(r.close_price),
      open: num(r.open_price),
      max: num(r.max_price),
      min: num(r.min_price),
      volume: num(r.volume),
    },
  }),
  wh_market_indicators: (r) => ({
    name: 'indicatorPublished',
    fields: { indicator: str(r.indicator_name), date: str(r.indicator_date), value: num(r.indicator_amt), unit: str(r.unit) },
  }),
  // An index's close (IFIX) is a series like the indicators: the alerts on its level and daily move hear it.
  wh_index_history: (r) => ({
    name: 'indicatorPublished',
    fields: { indicator: str(r.index_name), date: str(r.index_date), value: num(r.points), unit: 'pontos' },
  }),
  wh_currency_rates: (r) => ({
    name: 'indicatorPublished',
    fields: { indicator: str(r.currency), date: str(r.rate_date), value: num(r.sell_amt ?? r.buy_amt), unit: 'R$' },
  }),
  wh_cvm_monthly: (r) => ({
    name: 'monthlyReportLoaded',
    fields: { cnpj: str(r.fii_cnpj), ticker: str(r.ticker), ref_month: str(r.ref_date), equity_per_share: num(r.equity_per_share), dy_monthly_ratio: num(r.dy_monthly_ratio) },
  }),
};

/** The typed change events of one run (validated against libs/contracts before they are stored). */
export function changeEvents(result: FeedRunResult, at: Date = new Date()): ChangeEvent[] {
  const out: ChangeEvent[] = [];
  for (const [table, { inserted, updated }] of Object.entries(result.changes)) {
    const map = MAPPERS[table];
    if (!map) continue;
    for (const [rows, change] of [
      [inserted, 'new'],
      [updated, 'corrected'],
    ] as const) {
      for (const r of rows) {
        const { name, fields } = map(r);
        const def = WarehouseEvents[name];
        const payload = def.payload.parse({ ...fields, event_id: eventId(def.subject, fields), source: result.source, change, at: at.toISOString() });
        out.push({ name, subject: def.subject, payload });
      }
    }
  }
  return out;
}

/**
 * Stores a run's change events in the `feed_events` outbox, inside the run's transaction: they exist
 * exactly when the rows they announce were committed. The event id is the key, so announcing the same
 * change twice stores it once. A publisher moves them to the bus and marks them published.
 */
export async function storeChangeEvents(q: QueryRunner, result: FeedRunResult): Promise<number> {
  const events = changeEvents(result);
  const perBatch = 5000;
  let stored = 0;
  for (let i = 0; i < events.length; i += perBatch) {
    const batch = events.slice(i, i + perBatch);
    const values: unknown[] = [];
    const tuples = batch.map((e) => {
      values.push(e.payload.event_id, e.subject, JSON.stringify(e.payload));
      return `($${values.length - 2}, $${values.length - 1}, $${values.length}::jsonb)`;
    });
    const r = await q.query(`INSERT INTO feed_events (event_id, subject, payload) VALUES ${tuples.join(', ')} ON CONFLICT (event_id) DO NOTHING RETURNING 1`, values);
    stored += r.length;
  }
  return stored;
}
