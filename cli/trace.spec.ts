import { findTrace, JaegerTrace, renderTrace } from './trace';

const span = (id: string, parent: string | null, name: string, process: string, startMs: number, durMs: number, tags: Array<{ key: string; value: unknown }> = []) => ({
  traceID: 'abc123',
  spanID: id,
  operationName: name,
  references: parent ? [{ refType: 'CHILD_OF', spanID: parent }] : [],
  startTime: 1_700_000_000_000_000 + startMs * 1000,
  duration: durMs * 1000,
  processID: process,
  tags,
});

const TRACE: JaegerTrace = {
  traceID: 'abc123',
  processes: { p1: { serviceName: 'cota-gateway' }, p2: { serviceName: 'cota-executor' } },
  spans: [
    span('c', 'b', 'cota.executor.query.v1', 'p2', 3, 5),
    span('a', null, 'POST', 'p1', 0, 12, [{ key: 'http.route', value: '/ask' }]),
    span('d', 'c', 'pg.query:SELECT cota', 'p2', 4, 2, [{ key: 'db.statement', value: 'SELECT cnpj\n  FROM wh_funds WHERE ticker = $1' }]),
    span('b', 'a', 'cota.executor.query.v1', 'p1', 2, 7),
  ],
};

describe('npm run trace', () => {
  it('renders the trace as a tree in start order: offset, duration, service, span and its statement', () => {
    const out = renderTrace(TRACE).split('\n');
    expect(out[0]).toBe('trace abc123: 4 spans, 2 serviços');
    const rows = out.slice(2).map((l) => l.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual([
      '0.0 ms 12.0 ms cota-gateway POST /ask',
      '2.0 ms 7.0 ms cota-gateway cota.executor.query.v1',
      '3.0 ms 5.0 ms cota-executor cota.executor.query.v1',
      '4.0 ms 2.0 ms cota-executor pg.query:SELECT cota SELECT cnpj FROM wh_funds WHERE ticker = $1',
    ]);
    // Depth shows as indentation.
    expect(out[5].indexOf('cota-executor')).toBeGreaterThan(out[3].indexOf('cota-gateway'));
  });

  it("asks Jaeger for the gateway's span tagged with the request id and waits until no more spans arrive", async () => {
    const urls: string[] = [];
    const answers = [{ data: [] }, { data: [{ ...TRACE, spans: TRACE.spans.slice(0, 2) }] }, { data: [TRACE] }, { data: [TRACE] }];
    const fake = async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(answers.shift()), { status: 200 });
    };
    const found = await findTrace('http://jaeger:16686/', 'req-42', { fetch: fake, pollMs: 1, waitMs: 5000 });
    expect(found?.spans).toHaveLength(4);
    expect(urls).toHaveLength(4);
    const url = new URL(urls[0]);
    expect(url.origin + url.pathname).toBe('http://jaeger:16686/api/traces');
    expect(url.searchParams.get('service')).toBe('cota-gateway');
    expect(JSON.parse(url.searchParams.get('tags')!)).toEqual({ 'cota.request_id': 'req-42' });
  });

  it('gives up with null when Jaeger has no such trace, and says so when Jaeger fails', async () => {
    const none = async () => new Response(JSON.stringify({ data: [] }), { status: 200 });
    await expect(findTrace('http://jaeger:16686', 'req-0', { fetch: none, pollMs: 1, waitMs: 10 })).resolves.toBeNull();
    const down = async () => new Response('bad gateway', { status: 502 });
    await expect(findTrace('http://jaeger:16686', 'req-0', { fetch: down, pollMs: 1, waitMs: 10 })).rejects.toThrow(/502/);
  });
});
