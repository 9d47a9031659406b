import { z } from 'zod';
import { defineEvent, ServiceName } from '../define';

/**
 * Telemetry: every step publishes `cota.events.<service>.<event>.v1`.
 * Conversation ids are hashed and no secret or raw client data is ever included.
 */
export const TelemetryEvent = z.object({
  request_id: z.string(),
  conversation_hash: z.string().nullable(),
  service: z.string(),
  event: z.string(),
  outcome: z.enum(['ok', 'error', 'rejected', 'skipped']),
  timings_ms: z.record(z.number()),
  at: z.string(),
  /** Non-sensitive facts about the step (entity, intent, row count, error code). */
  attributes: z.record(z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}),
});
export type TelemetryEvent = z.infer<typeof TelemetryEvent>;

const ev = (service: ServiceName, event: string) => defineEvent({ service, event, payload: TelemetryEvent });

/** The event catalog; docs/asyncapi.yaml documents each of these. */
export const Events = {
  gatewayAsked: ev('gateway', 'asked'),
  gatewayRejected: ev('gateway', 'rejected'),
  /** A client's data was erased (DELETE /me/data, /ops/erase, npm run erase): receipt id and totals only. */
  gatewayClientErased: ev('gateway', 'client-erased'),
  plannerPlanned: ev('planner', 'planned'),
  contextOpened: ev('context', 'opened'),
  contextCommitted: ev('context', 'committed'),
  toolGateInvoked: ev('tool-gate', 'invoked'),
  executorQueried: ev('executor', 'queried'),
  executorToolRan: ev('executor', 'tool-ran'),
  ragRetrieved: ev('rag', 'retrieved'),
  narratorNarrated: ev('narrator', 'narrated'),
};
export type EventName = keyof typeof Events;
