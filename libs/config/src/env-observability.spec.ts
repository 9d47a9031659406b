import { loadEnv } from './env';

describe('observability settings', () => {
  it('leaves tracing off and the metrics port to the service by default', () => {
    const env = loadEnv({});
    expect({ metricsPort: env.metricsPort, otlpEndpoint: env.otlpEndpoint }).toEqual({ metricsPort: null, otlpEndpoint: null });
  });

  it('reads COTA_METRICS_PORT (0 = a free port) and OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(loadEnv({ COTA_METRICS_PORT: '0' }).metricsPort).toBe(0);
    expect(loadEnv({ COTA_METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(loadEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' }).otlpEndpoint).toBe('http://otel-collector:4318');
  });

  it('names the variable of a bad value', () => {
    expect(() => loadEnv({ COTA_METRICS_PORT: 'abc' })).toThrow(/COTA_METRICS_PORT/);
    expect(() => loadEnv({ COTA_METRICS_PORT: '70000' })).toThrow(/COTA_METRICS_PORT/);
    expect(() => loadEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
