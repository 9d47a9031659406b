/**
 * Tool understanding: `npm run eval:tools -- [files.jsonl ...] [--min 0.95] [--verbose] [--only T001,C002] [--url URL --keys client:key,...]`.
 * Sends every message of the tool-request sets (default: test/eval/tools/*.jsonl) through the running
 * system over HTTP, conversations turn by turn, and checks `meta.tool` (tool, status, the arguments
 * the message stated) and reference values in the answer (cli/tool-check.ts). Without --url it starts
 * the seven services on the real NATS, Postgres (a fresh database, dropped at the end) and Redis.
 * Exits non-zero below --min.
 */
import './register-paths';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { todayInBrazil } from '@cota/periods';
import { askHttp, parseEvalArgs, readJsonl, runPool, startSystem } from './eval-harness';
import { checkToolTurn, ToolItem } from './tool-check';

interface Outcome {
  item: ToolItem;
  turn: number;
  q: string;
  fails: string[];
  answer: string;
  tool: string;
}

async function runItem(url: string, keys: Record<string, string>, item: ToolItem, today: string): Promise<Outcome[]> {
  const client = item.client_id ?? 'cliente-demo-1';
  const key = keys[client];
  if (!key) throw new Error(`${item.id}: no API key for ${client}`);
  const conversation = `evaltools-${item.id.replace(/[^A-Za-z0-9_-]/g, '_')}-${randomBytes(4).toString('hex')}`;
  const out: Outcome[] = [];
  for (const [i, turn] of item.turns.entries()) {
    const { http, body } = await askHttp(url, key, client, conversation, turn.q);
    const seen = { http, answer: body.answer ?? body.error?.message ?? '', tool: body.meta?.tool ?? null };
    out.push({
      item,
      turn: i + 1,
      q: turn.q,
      fails: checkToolTurn(seen, turn.expect, today),
      answer: seen.answer,
      tool: seen.tool ? `${seen.tool.name} ${seen.tool.status} ${JSON.stringify(seen.tool.args)}` : `no tool (${body.meta?.planner?.reason ?? ''})`,
    });
  }
  return out;
}

async function main(): Promise<number> {
  const o = parseEvalArgs(process.argv.slice(2), 'tools');
  if (!o) return 0;
  const today = todayInBrazil();
  const items = o.files
    .flatMap((f) => readJsonl<ToolItem>(f).map((it) => ({ ...it, id: `${f.split('/').pop()?.replace('.jsonl', '')}:${it.id}` })))
    .filter((it) => o.only.length === 0 || o.only.some((x) => it.id.endsWith(`:${x}`)));
  const system = o.url ? { url: o.url, keys: o.keys, stop: async () => undefined } : await startSystem();
  let results: Outcome[][];
  try {
    results = await runPool(items, o.concurrency, (item) => runItem(system.url, system.keys, item, today));
  } finally {
    await system.stop();
  }
  const turns = results.flat();
  const passed = turns.filter((t) => t.fails.length === 0).length;
  const byTool = new Map<string, [number, number]>();
  for (const t of turns) {
    const name = t.item.turns[t.turn - 1].expect.tool ?? '(no tool)';
    const [ok, n] = byTool.get(name) ?? [0, 0];
    byTool.set(name, [ok + (t.fails.length === 0 ? 1 : 0), n + 1]);
  }
  const lines: string[] = [];
  for (const t of turns.filter((x) => x.fails.length)) {
    lines.push(`✗ ${t.item.id}#${t.turn} "${t.q}": ${t.fails.join('; ')}`);
    if (o.verbose) lines.push(`    ⚙ ${t.tool.slice(0, 400)}`, `    → ${t.answer.replace(/\n+/g, ' ⏎ ').slice(0, 300)}`);
  }
  const accuracy = passed / Math.max(turns.length, 1);
  lines.push('', 'by expected tool (turns passed / turns):');
  for (const [name, [ok, n]] of [...byTool].sort()) lines.push(`  ${name.padEnd(28)} ${ok}/${n}`);
  lines.push('', `tool accuracy: ${passed}/${turns.length} turns = ${(accuracy * 100).toFixed(1)}% (tool, status, stated arguments, reference values)`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (o.min !== null && accuracy < o.min) {
    process.stdout.write(`FAIL: tool accuracy ${(accuracy * 100).toFixed(1)}% is below ${(o.min * 100).toFixed(1)}%\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`eval-tools: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
