import { Attributes, Context, context, isSpanContextValid, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { HealthSubjects } from '@cota/contracts';

/**
 * OpenTelemetry spans of the bus (one per call, client side; one per handled message, server side)
 * and of the gateway's /ask. The trace context travels as the W3C `traceparent` header through the
 * same call scope as the deadline and request id (call-scope.ts). Off by default: until a tracer
 * provider is installed (service-kit's startTracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set) no span
 * is created at all; an incoming `traceparent` is then passed on unchanged.
 * With the process instrumented (service-kit's instrument.ts: HTTP, Express, pg, ioredis), a span
 * without an explicit parent continues the active OpenTelemetry context (the gateway's HTTP span), and
 * `withActiveSpan` makes a bus span the parent of the database and Redis calls its handler makes.
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

/** Health subjects are probes (the gateway's readiness, container health checks): no trace each. */
const UNTRACED_SUBJECTS: ReadonlySet<string> = new Set(Object.values(HealthSubjects).map((d) => d.subject));

export function isTracedSubject(subject: string): boolean {
  return !UNTRACED_SUBJECTS.has(subject);
}

/**
 * Starts a span child of `parent` (a traceparent) or, without one, of the active context (an HTTP
 * server span of the instrumentation); returns null when tracing is off.
 */
export function startSpan(name: string, kind: SpanKind, parent: string | undefined, attributes: Attributes = {}): Span | null {
  if (!enabled) return null;
  return trace.getTracer(TRACER).startSpan(name, { kind, attributes }, parent ? parentContext(parent) : context.active());
}

/** The traceparent of the active OpenTelemetry span (an instrumented HTTP request), if any. */
export function activeTraceparent(): string | undefined {
  const span = trace.getActiveSpan();
  return span && isSpanContextValid(span.spanContext()) ? traceparentOf(span) : undefined;
}

/** Runs `fn` with `span` active: spans the instrumentations open inside (pg, ioredis, http) become its children. */
export function withActiveSpan<T>(span: Span | null, fn: () => T): T {
  return span ? context.with(trace.setSpan(context.active(), span), fn) : fn();
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
