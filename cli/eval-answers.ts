/**
 * Answer accuracy: `npm run eval:answers -- [files.jsonl ...] [--min 0.95] [--verbose] [--url URL --keys client:key,...]`.
 * Asks every question of the sets (default: test/eval/answers/*.jsonl) through the running system
 * over HTTP, conversations turn by turn, and checks the value, the period and the subject of each
 * answer (cli/answer-check.ts). Without --url it starts the seven services in this process on the
 * real servers of NATS_URL, DATABASE_URL's server and REDIS_URL (defaults: the local ones), over a
 * fresh database it drops at the end. Exits non-zero below --min.
 */
import './register-paths';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { loadEnv, repoRoot } from '@cota/config';
import { openDatabase, RunningService, startService } from '@cota/service-kit';
import { ensureWarehouse } from '@cota/warehouse';
import { AnswerSeen, checkTurn, EvalItem } from './answer-check';
import { SERVICE_DEFINITIONS } from './services';

interface Options {
  files: string[];
  min: number | null;
  verbose: boolean;
  url: string | null;
  keys: Record<string, string>;
  concurrency: number;
  /** Only items whose id contains one of these (e.g. --only C010,A004). */
  only: string[];
}

function parseArgs(argv: string[]): Options {
  const o: Options = { files: [], min: null, verbose: false, url: null, keys: {}, concurrency: 6, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--min') o.min = Number(argv[++i]);
    else if (a === '--verbose' || a === '-v') o.verbose = true;
    else if (a === '--url') o.url = argv[++i];
    else if (a === '--only') o.only = argv[++i].split(',').filter(Boolean);
    else if (a === '--concurrency') o.concurrency = Math.max(1, Number(argv[++i]) || 1);
    else if (a === '--keys') for (const pair of argv[++i].split(',')) o.keys[pair.split(':')[0]] = pair.split(':').slice(1).join(':');
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.files.push(resolve(a));
  }
  if (o.min !== null && !(o.min >= 0 && o.min <= 1)) throw new Error('--min must be a fraction between 0 and 1 (e.g. 0.95)');
  if (o.files.length === 0) {
    const dir = join(repoRoot(), 'test', 'eval', 'answers');
    o.files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f));
  }
  return o;
}

function readItems(file: string): EvalItem[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l)
    .map(([l, n]) => {
      try {
        return JSON.parse(l) as EvalItem;
      } catch (e) {
        throw new Error(`${file}:${n}: not JSON (${(e as Error).message})`);
      }
    });
}

const freePort = () =>
  new Promise<number>((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });

const DEMO_CLIENTS = ['cliente-demo-1', 'cliente-demo-2', 'cliente-demo-3'];

/**
 * The seven services in this process, each its own NATS client, on the real servers, over a fresh
 * database (the warehouse ingested from the data folder by this code, dropped at the end), so the
 * answers are those of this checkout and never of a database an older build left behind.
 */
async function startSystem(): Promise<{ url: string; keys: Record<string, string>; stop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const adminUrl = base.replace(/\/[^/]*$/, '/postgres');
  const name = `cota_eval_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const databaseUrl = base.replace(/\/[^/]*$/, `/${name}`);
  const keys = Object.fromEntries(DEMO_CLIENTS.map((c) => [c, `eval-${randomBytes(12).toString('hex')}`]));
  const vars: NodeJS.ProcessEnv = {
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    COTA_REDIS_PREFIX: `cota-eval-${randomBytes(4).toString('hex')}:`,
    COTA_DEMO_KEYS: Object.entries(keys).map(([c, k]) => `${c}:${k}`).join(','),
    PORT: String(await freePort()),
    COTA_LOG_LEVEL: 'error',
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    COTA_DATA_DIR: process.env.COTA_DATA_DIR,
  };
  const env = loadEnv(vars);
  const services: RunningService[] = [];
  try {
    const ds = await openDatabase({ url: databaseUrl });
    await ensureWarehouse(ds, { dataDir: env.dataDir, log: () => undefined });
    await ds.destroy();
    for (const def of Object.values(SERVICE_DEFINITIONS)) services.push(await startService(def, env));
  } catch (e) {
    for (const s of services.reverse()) await s.stop().catch(() => undefined);
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    throw e;
  }
  return {
    url: `http://127.0.0.1:${env.port}`,
    keys,
    stop: async () => {
      for (const s of services.reverse()) await s.stop().catch(() => undefined);
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    },
  };
}

interface TurnOutcome {
  item: EvalItem;
  turn: number;
  q: string;
  fails: string[];
  answer: string;
  reason: string;
}

async function ask(url: string, key: string, clientId: string, conversation: string, question: string): Promise<AnswerSeen> {
  let res: Response;
  // A well-behaved client: on 429 it waits as long as Retry-After says (the gateway's per-client quota).
  for (let attempt = 0; ; attempt++) {
    res = await fetch(`${url}/ask`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question, conversation_id: conversation, nickname: '', client_id: clientId }),
    });
    if (res.status !== 429 || attempt >= 6) break;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, (Number(res.headers.get('retry-after')) || 5) * 1000));
  }
  const body = (await res.json().catch(() => ({}))) as { status?: string; answer?: string; error?: { message?: string }; meta?: { planner?: { reason?: string } } };
  return { http: res.status, status: body.status ?? 'error', answer: body.answer ?? body.error?.message ?? '', reason: body.meta?.planner?.reason ?? '' };
}

async function runItem(url: string, keys: Record<string, string>, item: EvalItem): Promise<TurnOutcome[]> {
  const client = item.client_id ?? 'cliente-demo-1';
  const key = keys[client];
  if (!key) throw new Error(`${item.id}: no API key for ${client}`);
  const conversation = `eval-${item.id}-${randomBytes(4).toString('hex')}`;
  const out: TurnOutcome[] = [];
  for (const [i, turn] of item.turns.entries()) {
    const seen = await ask(url, key, client, conversation, turn.q);
    out.push({ item, turn: i + 1, q: turn.q, fails: checkTurn(seen, turn.expect ?? {}), answer: seen.answer, reason: seen.reason ?? '' });
  }
  return out;
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  const items = o.files
    .flatMap((f) => readItems(f).map((it) => ({ ...it, id: `${f.split('/').pop()?.replace('.jsonl', '')}:${it.id}` })))
    .filter((it) => o.only.length === 0 || o.only.some((x) => it.id.endsWith(`:${x}`)));
  const system = o.url ? { url: o.url, keys: o.keys, stop: async () => undefined } : await startSystem();
  const results: TurnOutcome[][] = new Array(items.length);
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (next < items.length) {
          const i = next++;
          results[i] = await runItem(system.url, system.keys, items[i]);
        }
      }),
    );
  } finally {
    await system.stop();
  }
  const turns = results.flat();
  const passedTurns = turns.filter((t) => t.fails.length === 0).length;
  const passedItems = results.filter((r) => r.every((t) => t.fails.length === 0)).length;
  const byCategory = new Map<string, [number, number]>();
  for (const r of results) {
    const c = r[0]?.item.category ?? '-';
    const [ok, n] = byCategory.get(c) ?? [0, 0];
    byCategory.set(c, [ok + (r.every((t) => t.fails.length === 0) ? 1 : 0), n + 1]);
  }
  const lines: string[] = [];
  for (const t of turns.filter((x) => x.fails.length)) {
    lines.push(`✗ ${t.item.id}#${t.turn} "${t.q}": ${t.fails.join('; ')}`);
    if (o.verbose) lines.push(`    → ${t.answer.replace(/\n+/g, ' ⏎ ').slice(0, 400)}`, `    ⚙ ${t.reason.slice(0, 300)}`);
  }
  const accuracy = passedTurns / Math.max(turns.length, 1);
  lines.push('', 'by category (items passed / items):');
  for (const [c, [ok, n]] of [...byCategory].sort()) lines.push(`  ${c.padEnd(32)} ${ok}/${n}`);
  lines.push(
    '',
    `answer accuracy: ${passedTurns}/${turns.length} turns = ${(accuracy * 100).toFixed(1)}%; ${passedItems}/${items.length} items (conversations count whole)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  if (o.min !== null && accuracy < o.min) {
    process.stdout.write(`FAIL: answer accuracy ${(accuracy * 100).toFixed(1)}% is below ${(o.min * 100).toFixed(1)}%\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`eval-answers: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
