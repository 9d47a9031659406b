import type { QueryRunner } from 'typeorm';
import type { AlertMeasure, AlertObserver } from '@cota/catalog';
import { DistributionAnnounced, IndicatorPublished, MonthlyReportLoaded, PriceClosed, WarehouseEvents } from '@cota/contracts';

/** A measure's value as one change event gives it. */
export interface Reading {
  value: number;
  /** The day it is of (ISO). */
  date: string;
}

/**
 * How a change event gives a measure's value (policies/alerts.yaml `observe`): `read` the value the
 * event brings (null: the event says nothing about it); `before`, where the warehouse keeps the series,
 * its value on the last day before (a daily move).
 */
export interface Observer {
  read(q: QueryRunner, m: AlertMeasure, ticker: string | null, subject: string, payload: unknown): Promise<Reading | null>;
  before?(q: QueryRunner, m: AlertMeasure, ticker: string | null, date: string): Promise<number | null>;
}

const is = (subject: string, event: keyof typeof WarehouseEvents) => subject === WarehouseEvents[event].subject;
const positive = (v: unknown) => (v === null || v === undefined || !(Number(v) > 0) ? null : Number(v));

/** The fund's close of a price-closed event. */
function closeOf(subject: string, payload: unknown, ticker: string | null): Reading | null {
  if (!is(subject, 'priceClosed')) return null;
  const p = PriceClosed.parse(payload);
  return p.ticker === ticker && p.close !== null && p.close > 0 ? { value: p.close, date: p.traded_at } : null;
}

/** A series' value of an indicator-published event (the measure's `series`). */
function seriesOf(subject: string, payload: unknown, m: AlertMeasure): Reading | null {
  if (!is(subject, 'indicatorPublished')) return null;
  const p = IndicatorPublished.parse(payload);
  return p.indicator === m.series && p.value !== null ? { value: p.value, date: p.date } : null;
}

async function lastClose(q: QueryRunner, ticker: string, day: string, before = false): Promise<{ close: number; day: string } | null> {
  const [r] = await q.query(
    `SELECT close_price::float8 AS close, traded_at::text AS day FROM wh_prices
      WHERE ticker = $1 AND traded_at ${before ? '<' : '<='} $2::date AND close_price > 0 ORDER BY traded_at DESC LIMIT 1`,
    [ticker, day],
  );
  return r ? { close: Number(r.close), day: String(r.day).slice(0, 10) } : null;
}

/**
 * The fund's dividend yield over 12 months on a day (docs/METRICS.md's DY 12m): the distributions with a
 * record date in the 12 months up to it, over the close of that day (or the last close before it), in %.
 */
async function dy12m(q: QueryRunner, ticker: string, day: string, close: number | null): Promise<Reading | null> {
  const [r] = await q.query(
    `SELECT (SELECT sum(dividend_amt) FROM wh_dividends WHERE ticker = $1 AND traded_until_date > ($2::date - interval '12 months') AND traded_until_date <= $2::date)::float8 AS paid`,
    [ticker, day],
  );
  const price = close ?? (await lastClose(q, ticker, day))?.close ?? null;
  if (!price || r?.paid === null || r?.paid === undefined) return null;
  return { value: Math.round((r.paid / price) * 10_000) / 100, date: day };
}

/** The fund's book value per share of its last monthly report up to a day. */
async function bookValue(q: QueryRunner, ticker: string, day: string): Promise<number | null> {
  const [r] = await q.query(
    `SELECT equity_per_share::float8 AS vp FROM wh_cvm_monthly WHERE ticker = $1 AND ref_date <= $2::date AND equity_per_share > 0 ORDER BY ref_date DESC LIMIT 1`,
    [ticker, day],
  );
  return positive(r?.vp);
}

const ratio = (price: number, vp: number) => Math.round((price / vp) * 10_000) / 10_000;

export const OBSERVERS: Record<AlertObserver, Observer> = {
  close: {
    read: async (_q, _m, ticker, subject, payload) => closeOf(subject, payload, ticker),
    before: async (q, _m, ticker, date) => (ticker ? ((await lastClose(q, ticker, date, true))?.close ?? null) : null),
  },
  dy_12m: {
    read: async (q, _m, ticker, subject, payload) => {
      if (!ticker) return null;
      if (is(subject, 'distributionAnnounced')) {
        const p = DistributionAnnounced.parse(payload);
        return p.ticker === ticker ? dy12m(q, ticker, p.record_date, null) : null;
      }
      const c = closeOf(subject, payload, ticker);
      return c ? dy12m(q, ticker, c.date, c.value) : null;
    },
  },
  pvp: {
    // A new close over the last book value, or the last close over a new report's book value.
    read: async (q, _m, ticker, subject, payload) => {
      if (!ticker) return null;
      const c = closeOf(subject, payload, ticker);
      if (c) {
        const vp = await bookValue(q, ticker, c.date);
        return vp ? { value: ratio(c.value, vp), date: c.date } : null;
      }
      if (!is(subject, 'monthlyReportLoaded')) return null;
      const p = MonthlyReportLoaded.parse(payload);
      const vp = positive(p.equity_per_share);
      if (p.ticker !== ticker || !vp) return null;
      const last = await lastClose(q, ticker, '9999-12-31');
      return last ? { value: ratio(last.close, vp), date: last.day } : null;
    },
  },
  indicator: { read: async (_q, m, _t, subject, payload) => seriesOf(subject, payload, m) },
  index: {
    read: async (_q, m, _t, subject, payload) => seriesOf(subject, payload, m),
    before: async (q, m, _t, date) => {
      const [r] = await q.query(`SELECT points::float8 AS v FROM wh_index_history WHERE index_name = $1 AND index_date < $2::date ORDER BY index_date DESC LIMIT 1`, [
        m.series,
        date,
      ]);
      return positive(r?.v);
    },
  },
};
