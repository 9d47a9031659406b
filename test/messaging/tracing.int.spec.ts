import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, TracingHandle } from '@cota/service-kit';
import { Cluster, startCluster } from '../e2e/cluster';

/**
 * Observability over the real system (NATS, Postgres, Redis; the seven services as separate NATS
 * clients in this process): with an in-memory span exporter, one question is one trace from the
 * gateway's /ask through every service it crossed, each hop the child of the call that caused it;
 * and every service answers /metrics and its health probes on its metrics port.
 */
jest.setTimeout(60_000);

const exporter = new InMemorySpanExporter();
let tracing: TracingHandle;
let cluster: Cluster;

beforeAll(async () => {
  tracing = await startTracing({ serviceName: 'cota-test', exporter });
  cluster = await startCluster(); // every service with its metrics port on a free port (COTA_METRICS_PORT=0)
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await tracing?.stop();
});

const attr = (s: ReadableSpan, k: string) => s.attributes[k] as string | undefined;

/** The spans of the trace of the /ask that carried `requestId`, once no more arrive (fire-and-forget hops included). */
async function traceOf(requestId: string): Promise<ReadableSpan[]> {
  let last = -1;
  for (let i = 0; i < 50; i++) {
    const root = exporter.getFinishedSpans().find((s) => s.name === 'POST /ask' && attr(s, 'cota.request_id') === requestId);
    const spans = root ? exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === root.spanContext().traceId) : [];
    if (root && spans.length === last) return spans;
    last = spans.length;
    await new Promise((r) => setTimeout(r, 200));
  }
  const names = exporter.getFinishedSpans().map((s) => `${s.name}:${attr(s, 'cota.request_id')}`);
  throw new Error(`no stable trace for ${requestId}; finished spans: ${names.join(', ')}`);
}

function checkLinks(spans: ReadableSpan[]): void {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const roots = spans.filter((s) => !s.parentSpanContext || !byId.has(s.parentSpanContext.spanId));
  expect(roots.map((s) => s.name)).toEqual(['POST /ask']);
  for (const s of spans) {
    if (s === roots[0]) continue;
    const parent = byId.get(s.parentSpanContext!.spanId)!;
    if (s.kind === 1 /* SERVER */) {
      // A handled message is the child of the call that sent it: same subject, client side.
      expect({ span: s.name, parentKind: parent.kind, parentName: parent.name }).toEqual({ span: s.name, parentKind: 2 /* CLIENT */, parentName: s.name });
    } else {
      // A call is made by the /ask or by a handler, in the same service.
      expect({ span: s.name, parentKind: parent.kind, service: attr(parent, 'cota.service') }).toEqual({ span: s.name, parentKind: 1, service: attr(s, 'cota.service') });
    }
  }
}

describe('traces across services (W3C traceparent in NATS headers)', () => {
  it('a fund question: one trace from the gateway through planner, context, executor, rag and narrator', async () => {
    const { status, body } = await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'trace-1' });
    expect(status).toBe(200);
    const spans = await traceOf(body.meta.request_id);
    checkLinks(spans);
    const served = new Set(spans.filter((s) => s.kind === 1).map((s) => attr(s, 'cota.service')));
    for (const svc of ['gateway', 'planner', 'context', 'executor', 'rag', 'narrator']) expect([svc, served.has(svc)]).toEqual([svc, true]);
    const subjects = spans.filter((s) => s.kind === 2).map((s) => s.name);
    expect(subjects).toEqual(
      expect.arrayContaining(['cota.context.open.v2', 'cota.planner.plan.v2', 'cota.context.commit.v2', 'cota.executor.query.v1', 'cota.narrator.narrate.v1']),
    );
    for (const s of spans) expect(s.resource.attributes['service.name']).toBe('cota-test');
  });

  it('a tool question reaches the tool gate in the same way', async () => {
    const { status, body } = await cluster.ask('o que temos pra hoje?', { conversation: 'trace-2' });
    expect(status).toBe(200);
    const spans = await traceOf(body.meta.request_id);
    checkLinks(spans);
    expect(spans.some((s) => s.kind === 1 && attr(s, 'cota.service') === 'tool-gate')).toBe(true);
    // The tool gate's own call to the executor is a grandchild of the gate's handled message.
    const run = spans.find((s) => s.kind === 1 && s.name === 'cota.executor.run-tool.v1');
    expect(run).toBeDefined();
  });

  it('continues the trace of a caller that sends a traceparent header', async () => {
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await fetch(`${cluster.baseUrl}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer chave-de-teste-da-ana-0001', traceparent: parent },
      body: JSON.stringify({ question: 'Qual o CNPJ do HGLG11?', conversation_id: 'trace-3', nickname: 'Ana', client_id: 'cliente-demo-1' }),
    });
    expect(res.status).toBe(200);
    const spans = await traceOf(((await res.json()) as { meta: { request_id: string } }).meta.request_id);
    const root = spans.find((s) => s.name === 'POST /ask')!;
    expect(root.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(root.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });
});

describe('metrics and probes on each service port', () => {
  const OPS = { headers: { authorization: 'Bearer ops-token-de-teste' } }; // COTA_OPS_TOKEN of cluster.ts
  it('serves /metrics, /health/live and /health/ready on every service', async () => {
    for (const [name, svc] of cluster.services) {
      expect([name, svc.opsPort]).toEqual([name, expect.any(Number)]);
      const base = `http://127.0.0.1:${svc.opsPort}`;
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
      const ready = await fetch(`${base}/health/ready`);
      expect([name, ready.status]).toEqual([name, 200]);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { nats: { ok: true } } });
      // /metrics behind the ops token (COTA_OPS_TOKEN is set), like the gateway's; the probes stay open.
      expect([name, (await fetch(`${base}/metrics`)).status]).toEqual([name, 401]);
      const metrics = await (await fetch(`${base}/metrics`, OPS)).text();
      expect(metrics).toContain('cota_bus_handle_duration_seconds');
    }
  });

  it('counts handled messages by subject and outcome, calls and breaker states', async () => {
    await cluster.ask('Qual o CNPJ do HGLG11?', { conversation: 'metrics-1' });
    const planner = await (await fetch(`http://127.0.0.1:${cluster.services.get('planner')!.opsPort}/metrics`, OPS)).text();
    expect(planner).toMatch(/cota_bus_handle_duration_seconds_count\{service="planner",subject="cota\.planner\.plan\.v2",outcome="ok"\} [1-9]/);
    expect(planner).toMatch(/cota_bus_in_flight\{service="planner",subject="cota\.planner\.plan\.v2"\} 0/);
    const gateway = await (await fetch(`http://127.0.0.1:${cluster.services.get('gateway')!.opsPort}/metrics`, OPS)).text();
    expect(gateway).toMatch(/cota_bus_call_duration_seconds_count\{service="gateway",subject="cota\.planner\.plan\.v2",outcome="ok"\} [1-9]/);
    expect(gateway).toMatch(/cota_breaker_state\{service="gateway",target="planner"\} 0/);
    expect(gateway).toContain('cota_ask_duration_seconds_bucket');
    // The gateway's own /metrics (behind the ops token) serves the same registry.
    const own = await fetch(`${cluster.baseUrl}/metrics`, OPS);
    expect(await own.text()).toContain('cota_bus_call_duration_seconds_count{service="gateway"');
  });
});
