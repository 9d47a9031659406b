import { z } from 'zod';

/**
 * Changes to the warehouse, as the live feeds find them: `cota.events.warehouse.<event>.v1`. Unlike
 * telemetry they are facts a client may subscribe to (alerts), so each carries an `event_id` that is the
 * same whenever the same change is announced again (a replayed or re-published event is recognisable).
 * Written by the feeds in the run's own transaction (the `feed_events` outbox), so an event exists exactly
 * when its rows were committed.
 */
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const base = {
  event_id: z.string().min(16),
  /** The feed that read it (`bcb-sgs`, `b3-cotahist`, `cvm-dados`, `fnet`). */
  source: z.string(),
  /** `new`: a fact the warehouse did not have; `corrected`: the source changed a value it had published. */
  change: z.enum(['new', 'corrected']),
  at: z.string(),
};

export const DistributionAnnounced = z.object({
  ...base,
  ticker: z.string(),
  record_date: isoDate,
  payment_date: isoDate.nullable(),
  amount_per_share: z.number().nonnegative(),
});

export const PriceClosed = z.object({
  ...base,
  ticker: z.string(),
  traded_at: isoDate,
  close: z.number().nullable(),
  open: z.number().nullable(),
  max: z.number().nullable(),
  min: z.number().nullable(),
  volume: z.number().nullable(),
});

export const IndicatorPublished = z.object({
  ...base,
  /** SELIC, CDI, CDI-DAILY, IPCA, IGP-M, an index's close (IFIX), or a currency (USD). */
  indicator: z.string(),
  date: isoDate,
  value: z.number().nullable(),
  unit: z.string(),
});

export const MonthlyReportLoaded = z.object({
  ...base,
  cnpj: z.string(),
  ticker: z.string().nullable(),
  ref_month: isoDate,
  equity_per_share: z.number().nullable(),
  dy_monthly_ratio: z.number().nullable(),
});

const warehouseEvent = <P extends z.ZodTypeAny>(event: string, payload: P) => ({ subject: `cota.events.warehouse.${event}.v1`, event, payload }) as const;

/** The warehouse change events: each subject string exists here only. */
export const WarehouseEvents = {
  distributionAnnounced: warehouseEvent('distribution-announced', DistributionAnnounced),
  priceClosed: warehouseEvent('price-closed', PriceClosed),
  indicatorPublished: warehouseEvent('indicator-published', IndicatorPublished),
  monthlyReportLoaded: warehouseEvent('monthly-report-loaded', MonthlyReportLoaded),
};
export type WarehouseEventName = keyof typeof WarehouseEvents;
/** Every warehouse change subject (`cota.events.warehouse.>`), for a stream or a durable consumer. */
export const WAREHOUSE_EVENTS_SUBJECTS = 'cota.events.warehouse.>';

/**
 * The JetStream stream that keeps the warehouse change events (file storage, limits retention: each
 * event is kept `max_age_days` of policies/feeds.yaml, whoever read it). A message's id is its
 * `event_id` (`Nats-Msg-Id`), so an event published again within the duplicate window is stored once.
 */
export const WAREHOUSE_STREAM = 'COTA_WAREHOUSE_EVENTS';
/** The durable consumer that evaluates the clients' alerts (one cursor for every evaluator replica). */
export const ALERTS_CONSUMER = 'alerts';

/** A warehouse event's schema by subject (a consumer validates what it reads from the stream). */
export function warehouseEventBySubject(subject: string): (typeof WarehouseEvents)[WarehouseEventName] | null {
  return Object.values(WarehouseEvents).find((e) => e.subject === subject) ?? null;
}
