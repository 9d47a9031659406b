import { ExecutionPlan, planWaves, validatePlan } from './plan';

const known = { tools: new Set(['calcular_financas']), measures: new Set(['dy', 'price']) };
const q = (measure: string) => ({
  subjects: [{ kind: 'fund' as const, id: 'HGLG11' }],
  measure,
  agg: 'value' as const,
  also: [],
  period: null,
  group_by: null,
  compare: null,
  condition: null,
});

const plan = (steps: unknown[], synthesis: unknown = { shape: 'projection', yield_step: 'y', projection_step: 'p' }): ExecutionPlan =>
  ExecutionPlan.parse({ goal: 'teste', source: 'deterministic', steps, synthesis });

const y = { id: 'y', kind: 'measure', label: 'DY', question: q('dy') };
const p = { id: 'p', kind: 'tool', label: 'Projeção', depends_on: ['y'], tool: { name: 'calcular_financas', args: {} }, inputs: [{ arg: 'taxa', from: 'y' }] };

describe('validatePlan', () => {
  it('accepts a plan whose steps, inputs and synthesis fit together, and orders it in waves', () => {
    const ok = plan([y, p]);
    expect(validatePlan(ok, known)).toEqual([]);
    expect(planWaves(ok).map((w) => w.map((s) => s.id))).toEqual([['y'], ['p']]);
  });

  it('names what is wrong: unknown tool or measure, inputs outside the dependencies, cycles, a synthesis on the wrong step', () => {
    const bad = plan([
      { ...y, question: q('market_mood') },
      { ...p, tool: { name: 'apagar_tudo', args: {} }, depends_on: [], inputs: [{ arg: 'taxa', from: 'y' }] },
    ]);
    const messages = validatePlan(bad, known).map((x) => `${x.path}: ${x.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "steps.0.question.measure: 'market_mood' is not a measure",
        "steps.1.tool.name: 'apagar_tudo' is not a tool",
        "steps.1.inputs: takes 'taxa' from 'y', which it does not depend on",
      ]),
    );
    const cycle = plan([{ ...y, depends_on: ['p'] }, p]);
    expect(validatePlan(cycle, known).map((x) => x.message)).toContain('the dependencies form a cycle');
    const wrongKind = plan([y, p], { shape: 'projection', yield_step: 'p', projection_step: 'y' });
    expect(validatePlan(wrongKind, known).map((x) => x.path)).toEqual(['synthesis.yield_step', 'synthesis.projection_step']);
  });

  it('refuses an oversized plan at the schema', () => {
    const many = Array.from({ length: 13 }, (_, i) => ({ ...y, id: `s${i}` }));
    expect(
      ExecutionPlan.safeParse({ goal: 'x', source: 'llm', steps: many, synthesis: { shape: 'screen', conditions: [{ step: 's0', op: 'gt', value: 1, label: 'x' }] } }).success,
    ).toBe(false);
  });
});
