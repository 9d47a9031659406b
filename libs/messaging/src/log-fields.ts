import { isSpanContextValid, trace } from '@opentelemetry/api';
import { currentCallScope } from './call-scope';

/** The trace of the running code, for a log line: `trace_id` and `span_id` (OpenTelemetry's log field names). */
export interface TraceLogFields {
  trace_id?: string;
  span_id?: string;
}

const TRACEPARENT_IDS = /^00-([0-9a-f]{32})-([0-9a-f]{16})-/;

/**
 * Merged into every log line by the logger (service-kit logger.ts; a pino logger takes it as its
 * `mixin`). The active OpenTelemetry span when there is one, else the trace context the running
 * handler received (call-scope.ts), so lines correlate even where no context manager is installed.
 * Empty outside any trace.
 */
export function traceLogFields(): TraceLogFields {
  const active = trace.getActiveSpan()?.spanContext();
  if (active && isSpanContextValid(active)) return { trace_id: active.traceId, span_id: active.spanId };
  const m = TRACEPARENT_IDS.exec(currentCallScope().traceparent ?? '');
  return m ? { trace_id: m[1], span_id: m[2] } : {};
}
