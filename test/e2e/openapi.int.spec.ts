import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { repoRoot } from '@cota/config';
import { Cluster, DEMO, startCluster } from './cluster';

/**
 * docs/openapi.yaml is the HTTP API as the gateway serves it at /docs/json (generated from its
 * controllers by @nestjs/swagger), a valid OpenAPI 3.1 document, and every request example in it
 * gets the status it documents from a running gateway. `UPDATE_OPENAPI=1` rewrites the file.
 */
const FILE = join(repoRoot(), 'docs', 'openapi.yaml');
const HEADER =
  '# Cota HTTP API (OpenAPI 3.1), as the gateway serves it at /docs/json.\n' +
  '# Generated from the gateway controllers (@nestjs/swagger decorators); do not edit by hand.\n' +
  '# Regenerate: UPDATE_OPENAPI=1 npx jest --config jest.config.cjs test/e2e/openapi.int.spec.ts\n';

interface Example {
  value?: unknown;
  'x-status'?: number;
  'x-auth'?: 'none' | 'ops';
}
interface Operation {
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: 'path' | 'query'; required?: boolean; example?: string }>;
  requestBody?: { content: Record<string, { examples?: Record<string, Example> }> };
  responses: Record<string, unknown>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

let cluster: Cluster;
let served: Doc;

beforeAll(async () => {
  cluster = await startCluster();
  served = (await (await fetch(`${cluster.baseUrl}/docs/json`)).json()) as Doc;
  if (process.env.UPDATE_OPENAPI === '1') writeFileSync(FILE, HEADER + stringify(served, { lineWidth: 0, aliasDuplicateObjects: false }));
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
});

/** One request an example stands for, and the status it documents. */
interface Sent {
  name: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
}

function authHeader(op: Operation, example?: Example): Record<string, string> {
  const scheme = op.security?.[0] ? Object.keys(op.security[0])[0] : null;
  const auth = example?.['x-auth'] ?? (scheme === 'token_de_operacao' ? 'ops' : scheme ? 'client' : 'none');
  if (auth === 'none') return {};
  return { authorization: `Bearer ${auth === 'ops' ? cluster.env.COTA_OPS_TOKEN : DEMO.ana.key}` };
}

/** Path and query from the parameters' examples; null when a required one has none. */
function urlOf(path: string, op: Operation): string | null {
  let url = path;
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    if (p.example === undefined) {
      if (p.required || p.in === 'path') return null;
      continue;
    }
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(p.example));
    else query.set(p.name, p.example);
  }
  return `${cluster.baseUrl}${url}${query.size ? `?${query}` : ''}`;
}

/** Every documented example as a request: body examples with their `x-status`, bodiless operations with their first 2xx. */
function requestsOf(doc: Doc): Sent[] {
  const sent: Sent[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      // The page's routes serve a browser in embedded mode (test/e2e/web.int.spec.ts), not this cluster.
      if (op.tags?.includes('página')) continue;
      // A file upload is sent by its own test (test/ledger/imports.int.spec.ts), not from a JSON example.
      if (op.requestBody?.content['multipart/form-data']) continue;
      // A live stream with no request (the notifications' SSE) never ends: its own test reads it (test/e2e/alerts.int.spec.ts).
      const ok = op.responses['200'] as { content?: Record<string, unknown> } | undefined;
      if (!op.requestBody && ok?.content?.['text/event-stream']) continue;
      const url = urlOf(path, op);
      if (!url) continue;
      const examples = op.requestBody?.content['application/json']?.examples;
      if (examples) {
        for (const [name, ex] of Object.entries(examples)) {
          sent.push({
            name: `${method.toUpperCase()} ${path} "${name}"`,
            method,
            url,
            headers: { 'content-type': 'application/json', ...authHeader(op, ex) },
            body: JSON.stringify(ex.value),
            status: ex['x-status']!,
          });
        }
      } else {
        const status = Math.min(
          ...Object.keys(op.responses)
            .map(Number)
            .filter((s) => s >= 200 && s < 300),
        );
        sent.push({ name: `${method.toUpperCase()} ${path}`, method, url, headers: authHeader(op), status });
      }
    }
  }
  // Erasing the client's data (its key with it) comes last.
  return sent.sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
}

describe('docs/openapi.yaml', () => {
  it('is what the gateway serves at /docs/json, and /docs shows it', async () => {
    const committed = parse(readFileSync(FILE, 'utf8')) as Doc;
    expect(committed).toEqual(served);
    expect(served.openapi).toBe('3.1.0');
    const page = await fetch(`${cluster.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const yaml = await fetch(`${cluster.baseUrl}/docs/yaml`);
    expect(parse(await yaml.text())).toEqual(served);
  });

  it('is a valid OpenAPI 3.1 document', () => {
    // The validator is an ES module: run as its own CLI (jest's module system loads CommonJS).
    const cli = join(repoRoot(), 'node_modules', '@seriousme', 'openapi-schema-validator', 'bin', 'validate-api-cli.js');
    let out: string;
    try {
      out = execFileSync(process.execPath, [cli, FILE], { encoding: 'utf8' });
    } catch (e) {
      throw new Error(`docs/openapi.yaml is not valid OpenAPI: ${(e as { stdout?: string }).stdout ?? (e as Error).message}`);
    }
    expect(JSON.parse(out)).toMatchObject({ valid: true });
  });

  it('documents every route and error of the contract', () => {
    const has = (path: string, method: string, statuses: number[]) =>
      expect(Object.keys(served.paths[path]?.[method]?.responses ?? {}).map(Number)).toEqual(expect.arrayContaining(statuses));
    has('/ask', 'post', [200, 400, 401, 403, 413, 429, 503, 504]);
    has('/ask/stream', 'post', [200, 400, 401, 403, 413, 429, 503]);
    has('/conversations/{conversation_id}/history', 'get', [200, 401, 429]);
    has('/me/data', 'delete', [200, 401]);
    has('/health/live', 'get', [200]);
    has('/health/ready', 'get', [200, 503]);
    has('/metrics', 'get', [200]);
    for (const r of ['context_debug', 'rag_debug']) has(`/ops/${r}`, 'get', [200, 401, 403]);
    for (const r of ['context_clear', 'erase', 'reindex']) has(`/ops/${r}`, 'post', [200, 401, 403]);
    has('/', 'get', [200]);
  });

  it('gets the documented status for every example sent to the running gateway', async () => {
    const requests = requestsOf(served);
    expect(requests.length).toBeGreaterThanOrEqual(15);
    const got: string[] = [];
    for (const r of requests) {
      const res = await fetch(r.url, { method: r.method.toUpperCase(), headers: r.headers, body: r.body });
      await res.text(); // the whole answer (a stream ends with its answer event)
      got.push(`${r.name}: ${res.status}`);
    }
    expect(got).toEqual(requests.map((r) => `${r.name}: ${r.status}`));
  }, 180_000);
});
