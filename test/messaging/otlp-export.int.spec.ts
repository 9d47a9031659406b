import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { repoRoot } from '@cota/config';

/**
 * The OTLP/HTTP exporter (OTEL_EXPORTER_OTLP_ENDPOINT) really ships spans to `<endpoint>/v1/traces`.
 * Run in a child Node process from the compiled tree: the exporter loads `http` with a dynamic
 * import(), which jest's module sandbox cannot run.
 */
let server: Server;
const received: Array<{ path: string; bytes: number }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      received.push({ path: req.url ?? '', bytes });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('exports bus spans to <endpoint>/v1/traces when tracing is started, and none before', async () => {
  const dist = join(repoRoot(), 'dist');
  if (!existsSync(join(dist, 'libs', 'service-kit', 'src', 'tracing.js'))) throw new Error('dist/ is missing: run `npm run build` before the integration tests');
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const script = `
    require(${JSON.stringify(join(dist, 'cli', 'register-paths.js'))});
    const { startTracing } = require(${JSON.stringify(join(dist, 'libs', 'service-kit', 'src', 'tracing.js'))});
    const { startSpan, endSpan, SpanKind } = require(${JSON.stringify(join(dist, 'libs', 'messaging', 'src', 'tracing.js'))});
    (async () => {
      if (startSpan('before', SpanKind.CLIENT) !== null) process.exit(3);
      const tracing = await startTracing({ serviceName: 'cota-test', endpoint: process.argv[1] });
      endSpan(startSpan('cota.test.subject.v1', SpanKind.CLIENT, undefined, { 'cota.service': 'test' }), 'ok');
      await tracing.stop();
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['-e', script, endpoint], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(received).toEqual([{ path: '/v1/traces', bytes: expect.any(Number) }]);
  expect(received[0].bytes).toBeGreaterThan(0);
}, 30_000);
