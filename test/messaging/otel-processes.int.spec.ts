import { createServer, Server } from 'node:http';
import { SERVICES, ServiceName } from '@cota/contracts';
import { Cluster, DEMO, startCluster } from '../e2e/cluster';

/**
 * The production shape of tracing: the seven services as separate processes from the compiled tree,
 * each instrumented (libs/service-kit/src/instrument.ts: HTTP, Express, pg, ioredis) and exporting
 * OTLP/HTTP (JSON) to a receiver in this test. One question is one trace rooted in the gateway's HTTP
 * span, with spans of every service it crossed, of Postgres and of Redis; the services' log lines carry
 * its trace id; health probes and /metrics make no trace.
 */
jest.setTimeout(300_000);

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}
interface ReceivedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
}

const SPAN_KIND_SERVER = 2;
const received: ReceivedSpan[] = [];
const logs = new Map<ServiceName, string>();
let receiver: Server;
let cluster: Cluster;

/** OTLP/JSON ids are hex; a base64 encoding (protobuf-JSON mapping) is read too. */
const hexId = (id: string | undefined): string => (!id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex'));
const attrs = (list: OtlpAttribute[] | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, a.value.stringValue ?? (a.value.intValue !== undefined ? Number(a.value.intValue) : a.value.boolValue)]));

function receive(body: string): void {
  const doc = JSON.parse(body) as {
    resourceSpans: Array<{
      resource: { attributes: OtlpAttribute[] };
      scopeSpans: Array<{
        scope: { name: string };
        spans: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }>;
      }>;
    }>;
  };
  for (const rs of doc.resourceSpans) {
    const service = String(attrs(rs.resource.attributes)['service.name']);
    for (const ss of rs.scopeSpans)
      for (const s of ss.spans)
        received.push({
          service,
          scope: ss.scope.name,
          traceId: hexId(s.traceId),
          spanId: hexId(s.spanId),
          parentSpanId: hexId(s.parentSpanId),
          name: s.name,
          kind: s.kind,
          attributes: attrs(s.attributes),
        });
  }
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && String(req.headers['content-type']).startsWith('application/json')) receive(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const endpoint = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100', COTA_LOG_LEVEL: 'debug' };
  cluster = await startCluster({
    asProcesses: [...SERVICES],
    serviceEnv: Object.fromEntries(SERVICES.map((s) => [s, traced])),
    onStderr: (service, chunk) => logs.set(service, (logs.get(service) ?? '') + chunk),
  });
});

afterAll(async () => {
  await cluster?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

/** The spans of the trace whose gateway `POST /ask` span carried `requestId`, once no more arrive. */
async function traceOf(requestId: string): Promise<ReceivedSpan[]> {
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const ask = received.find((s) => s.name === 'POST /ask' && s.attributes['cota.request_id'] === requestId);
    const spans = ask ? received.filter((s) => s.traceId === ask.traceId) : [];
    if (ask && spans.length === last) return spans;
    last = spans.length;
    await new Promise((r) => setTimeout(r, 400));
  }
  throw new Error(`no stable trace for ${requestId}: ${received.length} spans received`);
}

/** The JSON log lines a service wrote. */
const logLines = (service: ServiceName): Array<Record<string, unknown>> =>
  (logs.get(service) ?? '')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function expectOneConnectedTrace(spans: ReceivedSpan[], requestId: string): ReceivedSpan {
  // Every span that names the question belongs to this one trace.
  const traceIds = new Set(received.filter((s) => s.attributes['cota.request_id'] === requestId).map((s) => s.traceId));
  expect(traceIds.size).toBe(1);
  // One root, the gateway's HTTP server span; every other span's parent is in the trace.
  const ids = new Set(spans.map((s) => s.spanId));
  const roots = spans.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
  expect(roots.map((s) => [s.service, s.scope, s.kind])).toEqual([['cota-gateway', '@opentelemetry/instrumentation-http', SPAN_KIND_SERVER]]);
  return roots[0];
}

describe('one question, one trace across processes (OTLP export)', () => {
  it('a fund question: HTTP, Express, every service it crosses, Postgres and Redis, and the trace id in the logs', async () => {
    const { status, body } = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'otel-1' });
    expect(status).toBe(200);
    const requestId = body.meta.request_id as string;
    const spans = await traceOf(requestId);
    const root = expectOneConnectedTrace(spans, requestId);
    expect(root.attributes['http.route'] ?? root.name).toMatch(/\/ask/);
    process.stdout.write(`otel: the fund question's trace has ${spans.length} spans (${[...new Set(spans.map((s) => s.scope))].join(', ')})\n`);

    const services = new Set(spans.map((s) => s.service));
    for (const svc of ['gateway', 'planner', 'context', 'executor', 'rag', 'narrator']) expect([svc, services.has(`cota-${svc}`)]).toEqual([svc, true]);
    const scopes = new Set(spans.map((s) => s.scope));
    for (const scope of [
      '@opentelemetry/instrumentation-http',
      '@opentelemetry/instrumentation-express',
      '@opentelemetry/instrumentation-pg',
      '@opentelemetry/instrumentation-ioredis',
      'cota',
    ])
      expect([scope, scopes.has(scope)]).toEqual([scope, true]);
    // The warehouse query runs under the executor's handled message; the conversation's Redis under the context's.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const servedBy = (s: ReceivedSpan): string | undefined => {
      for (let p = byId.get(s.parentSpanId); p; p = byId.get(p.parentSpanId)) if (p.scope === 'cota' && p.kind === SPAN_KIND_SERVER) return String(p.attributes['cota.service']);
      return undefined;
    };
    expect(spans.some((s) => s.scope === '@opentelemetry/instrumentation-pg' && s.service === 'cota-executor' && servedBy(s) === 'executor')).toBe(true);
    expect(spans.some((s) => s.scope === '@opentelemetry/instrumentation-ioredis' && s.service === 'cota-context' && servedBy(s) === 'context')).toBe(true);

    // No span holds the client id or the question (query values, Redis keys and bodies stay out).
    const exported = JSON.stringify(spans);
    expect([exported.includes(DEMO.ana.clientId), exported.includes('CNPJ do HGLG11')]).toEqual([false, false]);

    // Each service logged the messages it handled and the calls it made for the question with the trace's ids.
    const spanIds = new Set(spans.map((s) => s.spanId));
    for (const svc of ['gateway', 'planner', 'context', 'executor', 'rag', 'narrator'] as ServiceName[]) {
      const lines = logLines(svc).filter((l) => (l.msg === 'message handled' || l.msg === 'call completed') && l.request_id === requestId);
      expect([svc, lines.length > 0]).toEqual([svc, true]);
      for (const l of lines) expect([svc, l.trace_id, spanIds.has(String(l.span_id))]).toEqual([svc, root.traceId, true]);
    }
  });

  it('a tool question reaches the tool gate in the same trace', async () => {
    const { status, body } = await cluster.ask('o que temos pra hoje?', { conversation: 'otel-2' });
    expect(status).toBe(200);
    const spans = await traceOf(body.meta.request_id as string);
    const root = expectOneConnectedTrace(spans, body.meta.request_id as string);
    expect(spans.some((s) => s.service === 'cota-tool-gate' && s.kind === SPAN_KIND_SERVER && s.scope === 'cota')).toBe(true);
    expect(logLines('tool-gate').some((l) => l.trace_id === root.traceId)).toBe(true);
  });

  it('health probes, readiness checks and /metrics make no trace', async () => {
    const gateway = cluster.baseUrl;
    for (const path of ['/health/live', '/health/ready']) expect((await fetch(`${gateway}${path}`)).status).toBe(200);
    expect((await fetch(`${gateway}/metrics`, { headers: { authorization: 'Bearer ops-token-de-teste' } })).status).toBe(200);
    // A question after the probes: its spans are flushed with (and after) any the probes would have made.
    const { body } = await cluster.ask('Qual o CNPJ do KNRI11?', { conversation: 'otel-3' });
    await traceOf(body.meta.request_id as string);
    const probes = received.filter(
      (s) => /\.health\.v\d+$/.test(s.name) || Object.values(s.attributes).some((v) => typeof v === 'string' && /^(\/|https?:\/\/[^/]+\/)(health|metrics)\b/.test(v)),
    );
    expect(probes.map((s) => `${s.service} ${s.name}`)).toEqual([]);
    // Only requests and bus calls start traces (a service's background call, such as the planner's fund
    // list, is one): no query, Redis command or outgoing HTTP call opens a trace of its own.
    const ids = new Set(received.map((s) => s.spanId));
    const roots = received.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
    expect(
      roots
        .filter((s) => s.scope !== 'cota' && !(s.scope === '@opentelemetry/instrumentation-http' && s.kind === SPAN_KIND_SERVER))
        .map((s) => `${s.service} ${s.scope} ${s.name}`),
    ).toEqual([]);
    expect(roots.filter((s) => s.scope === '@opentelemetry/instrumentation-http').map((s) => s.service)).toEqual(expect.arrayContaining(['cota-gateway']));
    process.stdout.write(`otel: ${received.length} spans received, roots: ${[...new Set(roots.map((s) => `${s.service} ${s.name}`))].join('; ')}\n`);
  });
});
