import { z } from 'zod';
import { MeasureResult, StructuredQuestion } from './question';

/**
 * A multi-step answer (seed 004's execution plan): steps that fetch facts (a structured question to
 * the executor) or run a tool (through the tool gate, with every guarantee of a tool call), their
 * dependencies, and how a result feeds a later step. What the answer makes of the results is the
 * plan's `synthesis`. Plans come from the planner's deterministic shapes or from an LLM; both are
 * validated the same way (`validatePlan`) before anything runs.
 */
const StepId = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'step ids are short snake_case names');

/** How a tool argument is taken from an earlier step's result. */
export const StepInput = z.object({
  arg: z.string().min(1).max(48),
  from: StepId,
  /** Which subject's value (a fund ticker, "CDI"); null: the first value. */
  subject: z.string().max(32).nullable().default(null),
  /** `value`: as is; `as_percent_rate`: a yield in percent used as a rate argument ("12,3" → "12.3"). */
  transform: z.enum(['value', 'as_percent_rate']).default('value'),
});

export const MeasureStep = z.object({
  id: StepId,
  kind: z.literal('measure'),
  /** What the step stands for in the answer ("Renda (DY 12 meses)"). */
  label: z.string().min(1).max(80),
  depends_on: z.array(StepId).max(12).default([]),
  question: StructuredQuestion,
  /** Use the period an earlier step's result covered (the benchmark over the fund's own dates). */
  period_from: StepId.nullable().default(null),
});

export const ToolStep = z.object({
  id: StepId,
  kind: z.literal('tool'),
  label: z.string().min(1).max(80),
  depends_on: z.array(StepId).max(12).default([]),
  tool: z.object({ name: z.string().min(1).max(64), args: z.record(z.unknown()) }),
  inputs: z.array(StepInput).max(8).default([]),
});

export const PlanStep = z.discriminatedUnion('kind', [MeasureStep, ToolStep]);
export type PlanStep = z.infer<typeof PlanStep>;

/** One measured dimension of a comparison: which step, and whether more is better. */
export const Dimension = z.object({ step: StepId, better: z.enum(['higher', 'lower', 'neither']) });

export const Synthesis = z.discriminatedUnion('shape', [
  /** N funds side by side on chosen dimensions, the best per dimension marked. */
  z.object({ shape: z.literal('comparison'), dimensions: z.array(Dimension).min(1).max(8), focus: z.enum(['income', 'none']).default('none') }),
  /** A projection from a fund's current yield and a monthly contribution. */
  z.object({ shape: z.literal('projection'), yield_step: StepId, projection_step: StepId }),
  /** Funds (of the portfolio or the market) that meet every condition. */
  z.object({
    shape: z.literal('screen'),
    conditions: z
      .array(z.object({ step: StepId, op: z.enum(['gt', 'lt']), value: z.number(), label: z.string().max(80) }))
      .min(1)
      .max(6),
  }),
  /** A fund's total return against a benchmark rate over the same period. */
  z.object({ shape: z.literal('benchmark'), price_step: StepId, income_step: StepId, benchmark_step: StepId }),
]);
export type Synthesis = z.infer<typeof Synthesis>;

export const MAX_PLAN_STEPS = 12;

export const ExecutionPlan = z.object({
  /** The request in one line, as the plan understood it. */
  goal: z.string().min(1).max(200),
  source: z.enum(['deterministic', 'llm']),
  steps: z.array(PlanStep).min(1).max(MAX_PLAN_STEPS),
  synthesis: Synthesis,
});
export type ExecutionPlan = z.infer<typeof ExecutionPlan>;

/** What happened to one step, for the answer and for `meta.plan`. */
export const StepOutcome = z.object({
  id: StepId,
  kind: z.enum(['measure', 'tool']),
  label: z.string(),
  status: z.enum(['ok', 'failed', 'skipped']),
  /** Why it failed or was skipped (pt-BR, shown to the person). */
  reason: z.string().nullable(),
  ms: z.number(),
  measure: MeasureResult.nullable().default(null),
  tool: z
    .object({ name: z.string(), args: z.record(z.unknown()), result: z.unknown() })
    .nullable()
    .default(null),
});
export type StepOutcome = z.infer<typeof StepOutcome>;

export const PlanRun = z.object({ plan: ExecutionPlan, outcomes: z.array(StepOutcome) });
export type PlanRun = z.infer<typeof PlanRun>;

export type PlanProblem = { path: string; message: string };

/**
 * Checks a plan before it runs: unique step ids, dependencies and inputs that name earlier-known
 * steps, no cycle, tool inputs only from steps the tool depends on, the synthesis naming real steps
 * of the right kind, and only the tools and measures given. Empty when valid.
 */
export function validatePlan(plan: ExecutionPlan, known: { tools: ReadonlySet<string>; measures: ReadonlySet<string> }): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const ids = new Map<string, PlanStep>();
  plan.steps.forEach((s, i) => {
    if (ids.has(s.id)) problems.push({ path: `steps.${i}.id`, message: `repeats '${s.id}'` });
    ids.set(s.id, s);
  });
  plan.steps.forEach((s, i) => {
    for (const d of s.depends_on) if (!ids.has(d) || d === s.id) problems.push({ path: `steps.${i}.depends_on`, message: `names unknown step '${d}'` });
    if (s.kind === 'tool') {
      if (!known.tools.has(s.tool.name)) problems.push({ path: `steps.${i}.tool.name`, message: `'${s.tool.name}' is not a tool` });
      for (const inp of s.inputs)
        if (!s.depends_on.includes(inp.from)) problems.push({ path: `steps.${i}.inputs`, message: `takes '${inp.arg}' from '${inp.from}', which it does not depend on` });
    } else {
      if (!s.question.measure || !known.measures.has(s.question.measure))
        problems.push({ path: `steps.${i}.question.measure`, message: `'${s.question.measure}' is not a measure` });
      if (s.period_from && !s.depends_on.includes(s.period_from))
        problems.push({ path: `steps.${i}.period_from`, message: `takes its period from '${s.period_from}', which it does not depend on` });
    }
  });
  // Cycles: a topological order must consume every step.
  const indegree = new Map(plan.steps.map((s) => [s.id, s.depends_on.filter((d) => ids.has(d)).length]));
  const ready = plan.steps.filter((s) => indegree.get(s.id) === 0).map((s) => s.id);
  let seen = 0;
  while (ready.length) {
    const id = ready.pop()!;
    seen++;
    for (const s of plan.steps) {
      if (!s.depends_on.includes(id)) continue;
      indegree.set(s.id, indegree.get(s.id)! - 1);
      if (indegree.get(s.id) === 0) ready.push(s.id);
    }
  }
  if (seen < plan.steps.length) problems.push({ path: 'steps', message: 'the dependencies form a cycle' });
  const needs = (id: string, kind: PlanStep['kind'], path: string) => {
    const s = ids.get(id);
    if (!s || s.kind !== kind) problems.push({ path, message: `'${id}' is not a ${kind} step of the plan` });
  };
  const syn = plan.synthesis;
  if (syn.shape === 'comparison') syn.dimensions.forEach((d, i) => needs(d.step, 'measure', `synthesis.dimensions.${i}.step`));
  if (syn.shape === 'screen') syn.conditions.forEach((c, i) => needs(c.step, 'measure', `synthesis.conditions.${i}.step`));
  if (syn.shape === 'projection') {
    needs(syn.yield_step, 'measure', 'synthesis.yield_step');
    needs(syn.projection_step, 'tool', 'synthesis.projection_step');
  }
  if (syn.shape === 'benchmark') {
    needs(syn.price_step, 'measure', 'synthesis.price_step');
    needs(syn.income_step, 'measure', 'synthesis.income_step');
    needs(syn.benchmark_step, 'measure', 'synthesis.benchmark_step');
  }
  return problems;
}

/** Steps in waves: each wave only needs earlier waves (the plan is valid). */
export function planWaves(plan: ExecutionPlan): PlanStep[][] {
  const done = new Set<string>();
  const waves: PlanStep[][] = [];
  let left = [...plan.steps];
  while (left.length) {
    const wave = left.filter((s) => s.depends_on.every((d) => done.has(d)));
    if (wave.length === 0) break;
    waves.push(wave);
    wave.forEach((s) => done.add(s.id));
    left = left.filter((s) => !done.has(s.id));
  }
  return waves;
}
