import { trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { setTracingEnabled, tracingEnabled } from '@cota/messaging';

export interface TracingHandle {
  /** Flushes pending spans and removes the provider (tracing is off again). */
  stop(): Promise<void>;
}

export interface TracingOptions {
  /** `service.name` of the spans' resource (each span also carries `cota.service`, the bus owner). */
  serviceName: string;
  /** OTLP over HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces`. */
  endpoint?: string;
  /** An exporter of one's own (tests: InMemorySpanExporter); exported synchronously, span by span. */
  exporter?: SpanExporter;
}

/**
 * Installs the process's tracer provider, which turns the bus's spans on (libs/messaging tracing.ts).
 * One per process: a second call while one is installed returns a handle that does nothing.
 */
export async function startTracing(opts: TracingOptions): Promise<TracingHandle> {
  if (tracingEnabled()) return { stop: async () => undefined };
  let processor: SpanProcessor;
  if (opts.exporter) {
    processor = new SimpleSpanProcessor(opts.exporter);
  } else if (opts.endpoint) {
    // Loaded only when tracing is configured: nothing of the exporter is paid for when it is off.
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${opts.endpoint.replace(/\/+$/, '')}/v1/traces` }));
  } else {
    throw new Error('startTracing needs an endpoint or an exporter');
  }
  const provider = new BasicTracerProvider({
    // service.version: the release the image was built as (Dockerfile COTA_VERSION-COTA_GIT_SHA).
    resource: resourceFromAttributes({
      'service.name': opts.serviceName,
      ...(process.env.COTA_VERSION ? { 'service.version': `${process.env.COTA_VERSION}-${process.env.COTA_GIT_SHA ?? 'unknown'}` } : {}),
    }),
    spanProcessors: [processor],
  });
  trace.setGlobalTracerProvider(provider);
  setTracingEnabled(true);
  return {
    stop: async () => {
      setTracingEnabled(false);
      await provider.forceFlush().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
      trace.disable();
    },
  };
}
