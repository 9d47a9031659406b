import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@cota/config';
import { freePort } from '@cota/test-support';
import { burst, expectOnlyDocumented503s } from './burst';

/**
 * The README's first command on a fresh machine: `npm start` with no server configured runs the
 * embedded mode (one process, PGlite, in-memory state), builds the warehouse and answers over HTTP.
 * Run as a real child process of the compiled tree, the way a person runs it.
 */
let child: ChildProcess;
let out = '';
let port: number;
const key = 'chave-embutida-de-teste-01';
const key2 = 'chave-embutida-de-teste-02';

beforeAll(async () => {
  const entry = join(repoRoot(), 'dist', 'cli', 'start.js');
  if (!existsSync(entry)) throw new Error('dist/ is missing: run `npm run build` first');
  port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    COTA_EMBEDDED_STORE: 'memory',
    COTA_DEMO_KEYS: `cliente-demo-1:${key},cliente-demo-2:${key2}`,
    COTA_LOG_LEVEL: 'warn',
  };
  for (const v of ['NATS_URL', 'DATABASE_URL', 'REDIS_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[v];
  child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (out = (out + c).slice(-20_000)));
  const until = Date.now() + 240_000;
  while (!out.includes('Cota pronta')) {
    if (child.exitCode !== null) throw new Error(`embedded start exited: ${out}`);
    if (Date.now() > until) throw new Error(`embedded start did not become ready: ${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 300_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
});

it('says where to send questions and answers the HGLG11 CNPJ over HTTP', async () => {
  expect(out).toContain(`http://localhost:${port}/`);
  const res = await fetch(`http://127.0.0.1:${port}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ question: 'Qual o CNPJ do HGLG11?', conversation_id: 'primeira', nickname: 'Ana', client_id: 'cliente-demo-1' }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { status: string; answer: string; meta: { entity: string } };
  expect(body.status).toBe('ok');
  expect(body.meta.entity).toBe('fiis_cadastro');
  expect(body.answer).toContain('11.728.688/0001-47');
  const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
  expect(((await ready.json()) as { mode: string }).mode).toBe('embedded');
});

it('answers a burst of 200 concurrent questions right after start with no 5xx other than documented 503s', async () => {
  const keys = [
    ['cliente-demo-1', key],
    ['cliente-demo-2', key2],
  ] as const;
  const outcome = await burst(
    200,
    async (question, c, conversation) => {
      const res = await fetch(`http://127.0.0.1:${port}/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[c][1]}` },
        body: JSON.stringify({ question, conversation_id: conversation, nickname: 'Ana', client_id: keys[c][0] }),
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
    },
    keys.length,
  );
  expectOnlyDocumented503s('embedded burst of 200', outcome);
}, 120_000);

it('stops cleanly on SIGTERM', async () => {
  const code = await new Promise<number | null>((resolve) => {
    child.once('exit', (c) => resolve(c));
    child.kill('SIGTERM');
  });
  expect(code).toBe(0);
});
