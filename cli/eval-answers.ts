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
import { AnswerSeen, checkTurn, EvalItem } from './answer-check';
import { askHttp, parseEvalArgs, readJsonl, runPool, startSystem } from './eval-harness';

interface TurnOutcome {
  item: EvalItem;
  turn: number;
  q: string;
  fails: string[];
  answer: string;
  reason: string;
}

async function ask(url: string, key: string, clientId: string, conversation: string, question: string): Promise<AnswerSeen> {
  const { http, body } = await askHttp(url, key, clientId, conversation, question);
  return { http, status: body.status ?? 'error', answer: body.answer ?? body.error?.message ?? '', reason: body.meta?.planner?.reason ?? '' };
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
  const o = parseEvalArgs(process.argv.slice(2), 'answers');
  if (!o) return 0;
  const items = o.files
    .flatMap((f) => readJsonl<EvalItem>(f).map((it) => ({ ...it, id: `${f.split('/').pop()?.replace('.jsonl', '')}:${it.id}` })))
    .filter((it) => o.only.length === 0 || o.only.some((x) => it.id.endsWith(`:${x}`)));
  const system = o.url ? { url: o.url, keys: o.keys, stop: async () => undefined } : await startSystem();
  let results: TurnOutcome[][];
  try {
    results = await runPool(items, o.concurrency, (item) => runItem(system.url, system.keys, item));
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
  lines.push('', `answer accuracy: ${passedTurns}/${turns.length} turns = ${(accuracy * 100).toFixed(1)}%; ${passedItems}/${items.length} items (conversations count whole)`);
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
