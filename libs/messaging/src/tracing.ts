import { Attributes, Context, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * OpenTelemetry spans of the bus (one per call, client side; one per handled message, server side)
 * and of the gateway's /ask. The trace context travels as the W3C `traceparent` header through the
 * same call scope as the deadline and request id (call-scope.ts). Off by default: until a tracer
 * provider is installed (service-kit's startTracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set) no span
 * is created at all; an incoming `traceparent` is then passed on unchanged.
 */
export const TRACEPARENT_HEADER = 'traceparent';

const TRACEPARENT_RE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const TRACER = 'cota';

let enabled = false;

/** Called by whoever installs (or removes) the tracer provider. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

export function tracingEnabled(): boolean {
  return enabled;
}

/** A valid W3C traceparent (version 00, non-zero ids), or undefined. Never throws. */
export function parseTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT_RE.exec(value.trim().toLowerCase());
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return undefined;
  return m[0];
}

/** The traceparent that makes `span` the parent of the next hop. */
export function traceparentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 1) === 1 ? '01' : '00'}`;
}

function parentContext(traceparent: string | undefined): Context {
  const m = traceparent ? TRACEPARENT_RE.exec(traceparent) : null;
  if (!m) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: m[1], spanId: m[2], traceFlags: parseInt(m[3], 16), isRemote: true });
}

/** Starts a span child of `parent` (a traceparent), or returns null when tracing is off. */
export function startSpan(name: string, kind: SpanKind, parent: string | undefined, attributes: Attributes = {}): Span | null {
  if (!enabled) return null;
  return trace.getTracer(TRACER).startSpan(name, { kind, attributes }, parentContext(parent));
}

/** Ends a span with its outcome: `error` (a code or an exception) marks it failed. */
export function endSpan(span: Span | null, outcome: 'ok' | string, error?: unknown): void {
  if (!span) return;
  if (outcome !== 'ok') {
    span.setAttribute('cota.outcome', outcome);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : outcome });
  } else {
    span.setStatus({ code: SpanStatusCode.OK });
  }
  span.end();
}

export { SpanKind };
