import { CotaError, ExecutionPlan, InvokeResponse, MeasureResult, planWaves, PlanStep, StepOutcome, StructuredQuestion } from '@cota/contracts';

/** What a plan's steps run through: the executor for facts, the tool gate for tools. */
export interface PlanPorts {
  measure(question: StructuredQuestion): Promise<MeasureResult>;
  tool(name: string, args: Record<string, unknown>): Promise<InvokeResponse>;
}

const since = (t: number) => Math.round((performance.now() - t) * 100) / 100;

/** The value a later step takes from this one: a subject's value (or the first), as the input says. */
function inputValue(outcome: StepOutcome, subject: string | null, transform: 'value' | 'as_percent_rate'): string | null {
  const values = outcome.measure?.values ?? [];
  const v = subject ? values.find((x) => x.subject.id === subject) : values.find((x) => x.value !== null);
  if (!v || v.value === null) return null;
  // A yield in percent ("12,23") used as a rate argument, in percent, kept to 4 decimals.
  return transform === 'as_percent_rate' ? String(Math.round(v.value * 10000) / 10000) : String(v.value);
}

/**
 * Runs a validated plan in waves: the steps of a wave in parallel, each wave after the ones it
 * needs. A failed step is reported with its reason; the steps that depend on it are skipped and say
 * why. Only domain refusals become a failed step; an outage (UNAVAILABLE, TIMEOUT) fails the question.
 */
export async function runPlan(plan: ExecutionPlan, ports: PlanPorts): Promise<StepOutcome[]> {
  const outcomes = new Map<string, StepOutcome>();
  const labelOf = (id: string) => plan.steps.find((s) => s.id === id)?.label ?? id;
  for (const wave of planWaves(plan)) {
    await Promise.all(
      wave.map(async (step) => {
        const blocked = step.depends_on.find((d) => outcomes.get(d)?.status !== 'ok');
        if (blocked) {
          outcomes.set(step.id, skipped(step, `depende de "${labelOf(blocked)}", que não pôde ser obtido`));
          return;
        }
        outcomes.set(step.id, await runStep(step, outcomes, ports));
      }),
    );
  }
  return plan.steps.map((s) => outcomes.get(s.id) ?? skipped(s, 'não chegou a ser executado'));
}

function skipped(step: PlanStep, reason: string): StepOutcome {
  return { id: step.id, kind: step.kind, label: step.label, status: 'skipped', reason, ms: 0, measure: null, tool: null };
}

async function runStep(step: PlanStep, done: Map<string, StepOutcome>, ports: PlanPorts): Promise<StepOutcome> {
  const t = performance.now();
  const base = { id: step.id, kind: step.kind, label: step.label };
  try {
    if (step.kind === 'measure') {
      const source = step.period_from ? done.get(step.period_from)?.measure?.values.find((v) => v.period)?.period : null;
      if (step.period_from && !source) return { ...base, status: 'failed', reason: `faltou o período de "${step.period_from}"`, ms: since(t), measure: null, tool: null };
      const question = source ? { ...step.question, period: { kind: 'range' as const, from: source.from, to: source.to, grain: 'custom' as const } } : step.question;
      const measure = await ports.measure(question);
      const empty = measure.values.every((v) => v.value === null);
      return { ...base, status: empty ? 'failed' : 'ok', reason: empty ? 'sem dados na base para isso' : null, ms: since(t), measure, tool: null };
    }
    const args: Record<string, unknown> = { ...step.tool.args };
    for (const input of step.inputs) {
      const value = inputValue(done.get(input.from)!, input.subject, input.transform);
      if (value === null) return { ...base, status: 'failed', reason: `faltou o valor de "${input.arg}"`, ms: since(t), measure: null, tool: null };
      args[input.arg] = value;
    }
    const res = await ports.tool(step.tool.name, args);
    const ok = res.status === 'ok' && res.tool?.status === 'executed';
    return {
      ...base,
      status: ok ? 'ok' : 'failed',
      reason: ok ? null : (res.message ?? 'a ferramenta não concluiu'),
      ms: since(t),
      measure: null,
      tool: { name: step.tool.name, args: res.tool?.args ?? args, result: res.result ?? null },
    };
  } catch (e) {
    // A refusal of this step (BAD_REQUEST, NOT_FOUND) is reported; an outage fails the question.
    if (CotaError.is(e) && (e.code === 'BAD_REQUEST' || e.code === 'NOT_FOUND')) {
      return { ...base, status: 'failed', reason: e.message, ms: since(t), measure: null, tool: null };
    }
    throw e;
  }
}
