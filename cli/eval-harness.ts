/**
 * What the evaluation commands share (eval:answers, eval:tools): reading JSONL sets, starting the
 * seven services on the real servers over a fresh database, asking through HTTP like a client.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadEnv, repoRoot } from '@cota/config';
import { openDatabase, silentLogger, RunningService, startService } from '@cota/service-kit';
import { ensureWarehouse } from '@cota/warehouse';
import { cliCommand, fraction, parseCommandLine } from './args';
import { createScratchDatabase, freePort, policiesWithRaisedQuotas } from './scratch';
import { SERVICE_DEFINITIONS } from './services';

export interface EvalOptions {
  files: string[];
  min: number | null;
  verbose: boolean;
  url: string | null;
  keys: Record<string, string>;
  concurrency: number;
  /** Only items whose id contains one of these (e.g. --only C010,A004). */
  only: string[];
}

/** The options every eval command takes (`npm run eval:<setDir> --`); without files, every `*.jsonl` of `test/eval/<setDir>`. */
export function parseEvalArgs(argv: string[], setDir: string): EvalOptions | null {
  const cmd = cliCommand(`npm run eval:${setDir} --`, `Avalia as respostas da Cota nos casos de test/eval/${setDir}.`)
    .argument('[arquivos...]', `conjuntos JSONL (padrão: todos de test/eval/${setDir})`)
    .option('--min <fração>', 'falha se a taxa de acerto ficar abaixo desta fração (0 a 1)', fraction)
    .option('-v, --verbose', 'mostra cada caso')
    .option('--url <url>', 'uma Cota já em execução, em vez de subir os sete serviços')
    .option('--keys <cliente:chave,...>', 'as chaves de API da Cota de --url', (value: string) =>
      Object.fromEntries(
        value
          .split(',')
          .filter(Boolean)
          .map((pair) => [pair.split(':')[0], pair.split(':').slice(1).join(':')]),
      ),
    )
    .option('--only <ids>', 'só os casos com estes ids (C010,A004)', (value: string) => value.split(',').filter(Boolean))
    .option('--concurrency <n>', 'casos em paralelo', (value: string) => Math.max(1, Number(value) || 1), 6);
  const parsed = parseCommandLine<{ min?: number; verbose?: boolean; url?: string; keys?: Record<string, string>; only?: string[]; concurrency: number }>(cmd, argv);
  if ('help' in parsed) return null;
  if ('error' in parsed) throw new Error(parsed.error);
  const { opts, args } = parsed;
  let files = args.map((a) => resolve(a));
  if (files.length === 0) {
    const dir = join(repoRoot(), 'test', 'eval', setDir);
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .map((f) => join(dir, f));
  }
  return { files, min: opts.min ?? null, verbose: Boolean(opts.verbose), url: opts.url ?? null, keys: opts.keys ?? {}, concurrency: opts.concurrency, only: opts.only ?? [] };
}

/** One JSON object per line; a bad line names the file and line. */
export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l)
    .map(([l, n]) => {
      try {
        return JSON.parse(l) as T;
      } catch (e) {
        throw new Error(`${file}:${n}: not JSON (${(e as Error).message})`);
      }
    });
}

const DEMO_CLIENTS = ['cliente-demo-1', 'cliente-demo-2', 'cliente-demo-3'];

/**
 * The seven services in this process, each its own NATS client, on the real servers, over a fresh
 * database (the warehouse ingested from the data folder by this code, dropped at the end), so the
 * answers are those of this checkout and never of a database an older build left behind.
 */
export async function startSystem(): Promise<{ url: string; keys: Record<string, string>; stop: () => Promise<void> }> {
  // An evaluation is one client asking a thousand questions: the per-client quota would only make it wait.
  process.env.COTA_POLICIES_DIR ??= policiesWithRaisedQuotas();
  const db = await createScratchDatabase('cota_eval');
  const databaseUrl = db.url;
  const keys = Object.fromEntries(DEMO_CLIENTS.map((c) => [c, `eval-${randomBytes(12).toString('hex')}`]));
  const vars: NodeJS.ProcessEnv = {
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    COTA_REDIS_PREFIX: `cota-eval-${randomBytes(4).toString('hex')}:`,
    COTA_DEMO_KEYS: Object.entries(keys)
      .map(([c, k]) => `${c}:${k}`)
      .join(','),
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
    await ensureWarehouse(ds, { dataDir: env.dataDir, log: silentLogger() });
    await ds.destroy();
    for (const def of Object.values(SERVICE_DEFINITIONS)) services.push(await startService(def, env));
  } catch (e) {
    for (const s of services.reverse()) await s.stop().catch(() => undefined);
    await db.drop();
    throw e;
  }
  return {
    url: `http://127.0.0.1:${env.port}`,
    keys,
    stop: async () => {
      for (const s of services.reverse()) await s.stop().catch(() => undefined);
      await db.drop();
    },
  };
}

/** The parts of an /ask answer the checkers read. */
export interface AskBody {
  status?: string;
  answer?: string;
  error?: { message?: string };
  meta?: { planner?: { reason?: string }; tool?: { name?: string; args?: Record<string, unknown>; status?: string } };
}

/** POST /ask as a well-behaved client: on 429 it waits as long as Retry-After says. */
export async function askHttp(url: string, key: string, clientId: string, conversation: string, question: string): Promise<{ http: number; body: AskBody }> {
  let res: Response;
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
  return { http: res.status, body: (await res.json().catch(() => ({}))) as AskBody };
}

/** Runs `work` over the items with at most `concurrency` at a time, results in item order. */
export async function runPool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, concurrency) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}
