import { EventDef, TelemetryEvent } from '@cota/contracts';
import type { Bus } from './bus';

/** Publishes a telemetry event for one step, fire-and-forget. */
export function emitStep(
  bus: Bus,
  def: EventDef,
  step: {
    request_id: string;
    client_id?: string;
    conversation_id?: string;
    outcome: TelemetryEvent['outcome'];
    timings_ms: Record<string, number>;
    attributes?: TelemetryEvent['attributes'];
  },
): void {
  const [, , service, event] = def.subject.split('.');
  bus.emit(def, {
    request_id: step.request_id,
    conversation_hash: step.client_id && step.conversation_id ? bus.eventSalt.hashConversation(step.client_id, step.conversation_id) : null,
    service,
    event,
    outcome: step.outcome,
    timings_ms: step.timings_ms,
    at: new Date().toISOString(),
    attributes: step.attributes ?? {},
  });
}

/** Milliseconds since `start` (from performance.now()), rounded to 0.01. */
export function since(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}
