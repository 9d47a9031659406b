/**
 * OpenTelemetry auto-instrumentation of the process: HTTP (server and client), Express, pg and
 * ioredis. Imported by every entry point right after the path resolver, before anything requires
 * those modules (the instrumentations patch them as they load); it imports only OpenTelemetry.
 * Only when OTEL_EXPORTER_OTLP_ENDPOINT is set: off, nothing is patched and nothing is paid.
 *
 * The spans go to the tracer provider service-kit's startTracing installs once the service knows its
 * name (the instrumentations hold the global proxy provider until then). Health probes and /metrics
 * are never traced, and a query, Redis command or outgoing request made outside a traced request
 * (pings, polling loops, readiness checks) opens no trace of its own.
 */
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Probe and scrape paths of the gateway and of every ops port (ops-server.ts). */
const UNTRACED_PATH = /^\/(health(\/|$|\?)|metrics($|\?))/;

export function isUntracedPath(url: string | undefined): boolean {
  return UNTRACED_PATH.test(url ?? '');
}

let installed = false;

/** Installs the context manager, the W3C propagator and the instrumentations; idempotent. */
export function instrumentProcess(): void {
  if (installed) return;
  installed = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => isUntracedPath(req.url),
        requireParentforOutgoingSpans: true,
      }),
      // Route handlers, not every body parser and middleware of the stack.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // The SQL text (built from the catalogs, values as parameters), never the values.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      // The command name only: Redis keys hold client and conversation ids.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
}

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) instrumentProcess();
