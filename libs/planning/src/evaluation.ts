import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { PlanResponse } from '@cota/contracts';
import { Planner } from './planner';

const Labelled = z.object({ question: z.string().min(1), expected_entity: z.string().min(1) });
export type LabelledQuestion = z.infer<typeof Labelled>;

/** Reads a JSONL file of `{question, expected_entity}` (the golden format); errors name the line. */
export function readLabelledQuestions(path: string): LabelledQuestion[] {
  const out: LabelledQuestion[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw new Error(`${path}:${i + 1}: not JSON`);
      }
      const parsed = Labelled.safeParse(raw);
      if (!parsed.success) throw new Error(`${path}:${i + 1}: ${parsed.error.issues[0].path.join('.')} ${parsed.error.issues[0].message}`);
      out.push(parsed.data);
    });
  return out;
}

export interface RoutingMiss {
  question: string;
  expected: string;
  got: string;
  kind: string;
  score: number;
  gap: number;
  reason: string;
}

export interface RoutingReport {
  total: number;
  /** Routed to the expected entity and accepted (what a user gets without being asked back). */
  correct: number;
  accuracy: number;
  /** Expected entity ranked first, accepted or not. */
  top1: number;
  clarifications: number;
  /** expected -> got -> count (got is the entity, or the kind when no entity was chosen). */
  confusion: Record<string, Record<string, number>>;
  misses: RoutingMiss[];
}

/**
 * What a plan answers, in the label vocabulary: the entity name, or for the other kinds
 * `smalltalk`, `concept`, `confirmation`, `tool:<name>` (so labelled files can also check that
 * "o que é P/VP?" goes to the knowledge base and "manda no meu email" to a tool).
 */
export function planLabel(plan: PlanResponse): string {
  if (plan.kind === 'tool') return `tool:${plan.tool?.name ?? plan.intent}`;
  if (plan.kind === 'smalltalk' || plan.kind === 'concept' || plan.kind === 'confirmation') return plan.kind;
  return plan.entity ?? plan.kind;
}

/** Plans every question deterministically and compares with the label. */
export function evaluateRouting(planner: Planner, rows: LabelledQuestion[]): RoutingReport {
  const confusion: RoutingReport['confusion'] = {};
  const misses: RoutingMiss[] = [];
  let correct = 0;
  let top1 = 0;
  let clarifications = 0;
  for (const row of rows) {
    const plan = planner.planDeterministic(row.question);
    const got = planLabel(plan);
    // An entity counts only when accepted (a clarification asks the user back).
    const ok = plan.kind !== 'clarification' && plan.kind !== 'unknown' && got === row.expected_entity;
    if (ok) correct++;
    if (got === row.expected_entity) top1++;
    if (plan.kind === 'clarification') clarifications++;
    const label = plan.kind === 'clarification' ? `${got}?` : got;
    (confusion[row.expected_entity] ??= {})[label] = (confusion[row.expected_entity][label] ?? 0) + 1;
    if (!ok) {
      misses.push({
        question: row.question,
        expected: row.expected_entity,
        got: label,
        kind: plan.kind,
        score: plan.planner.score,
        gap: plan.planner.gap,
        reason: plan.planner.reason,
      });
    }
  }
  return {
    total: rows.length,
    correct,
    accuracy: rows.length ? correct / rows.length : 0,
    top1: rows.length ? top1 / rows.length : 0,
    clarifications,
    confusion,
    misses,
  };
}

/** Human-readable report: accuracy, per-entity confusion, misses. */
export function formatRoutingReport(r: RoutingReport, verbose = false): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `questions: ${r.total}`,
    `accuracy (accepted and correct): ${r.correct}/${r.total} = ${pct(r.accuracy)}`,
    `top-1 (including clarifications): ${pct(r.top1)}; clarifications: ${r.clarifications}`,
    '',
    'per entity (expected: correct/total; confused with):',
  ];
  for (const expected of Object.keys(r.confusion).sort()) {
    const row = r.confusion[expected];
    const total = Object.values(row).reduce((a, b) => a + b, 0);
    const good = row[expected] ?? 0;
    const wrong = Object.entries(row)
      .filter(([got]) => got !== expected)
      .map(([got, n]) => `${got} x${n}`)
      .join(', ');
    lines.push(`  ${expected}: ${good}/${total}${wrong ? `  -> ${wrong}` : ''}`);
  }
  lines.push('', `misses (${r.misses.length}):`);
  for (const m of r.misses) {
    lines.push(`  [${m.expected} -> ${m.got}] ${m.question}  (score ${m.score}, gap ${m.gap})`);
    if (verbose) lines.push(`      ${m.reason}`);
  }
  return lines.join('\n');
}
