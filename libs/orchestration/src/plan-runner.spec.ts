import { CotaError, ExecutionPlan, MeasureResult, StructuredQuestion } from '@cota/contracts';
import { runPlan } from './plan-runner';

const q = (measure: string, ids: string[]): StructuredQuestion => ({
  subjects: ids.map((id) => ({ kind: 'fund', id })),
  measure,
  agg: 'value',
  also: [],
  period: null,
  group_by: null,
  compare: null,
  condition: null,
});

function measureResult(measure: string, values: Array<[string, number | null]>): MeasureResult {
  return MeasureResult.parse({
    measure,
    label: measure,
    entity: 'x',
    agg: 'value',
    unit: 'pct',
    value_unit: 'pct',
    group_by: null,
    values: values.map(([id, value]) => ({
      subject: { kind: 'fund', id },
      value,
      date: '2025-11-22',
      start: null,
      end: null,
      count: 1,
      rows: [],
      coverage: null,
      period: { from: '2024-11-23', to: '2025-11-22' },
      adjusted: false,
      sources: [],
    })),
    winner: null,
  });
}

const plan = ExecutionPlan.parse({
  goal: 'projeção',
  source: 'deterministic',
  steps: [
    { id: 'yield', kind: 'measure', label: 'DY do MXRF11', question: q('dy', ['MXRF11']) },
    { id: 'pvp', kind: 'measure', label: 'P/VP do MXRF11', question: q('pvp', ['MXRF11']) },
    {
      id: 'projection',
      kind: 'tool',
      label: 'Projeção',
      depends_on: ['yield'],
      tool: { name: 'calcular_financas', args: { operacao: 'projecao_aportes', aporte_mensal: '500', prazo_meses: 120 } },
      inputs: [{ arg: 'taxa', from: 'yield', subject: 'MXRF11', transform: 'as_percent_rate' }],
    },
  ],
  synthesis: { shape: 'projection', yield_step: 'yield', projection_step: 'projection' },
});

describe('runPlan', () => {
  it('runs independent steps together, feeds a result into the next step, and reports each outcome', async () => {
    const started: string[] = [];
    const toolArgs: Array<Record<string, unknown>> = [];
    const outcomes = await runPlan(plan, {
      measure: async (question) => {
        started.push(question.measure!);
        return measureResult(question.measure!, [['MXRF11', question.measure === 'dy' ? 12.2345678 : 1.01]]);
      },
      tool: async (name, args) => {
        toolArgs.push(args);
        return { status: 'ok', tool: { name, args, injected: [], status: 'executed' }, result: { text: 'ok' }, message: null };
      },
    });
    expect(started.sort()).toEqual(['dy', 'pvp']);
    expect(toolArgs[0]).toMatchObject({ taxa: '12.2346', aporte_mensal: '500' });
    expect(outcomes.map((o) => [o.id, o.status])).toEqual([
      ['yield', 'ok'],
      ['pvp', 'ok'],
      ['projection', 'ok'],
    ]);
  });

  it('a failed step is reported, and the steps that need it are skipped with the reason', async () => {
    const outcomes = await runPlan(plan, {
      measure: async (question) => {
        if (question.measure === 'dy') throw new CotaError('BAD_REQUEST', 'o DY desse fundo não está na base');
        return measureResult('pvp', [['MXRF11', 1.01]]);
      },
      tool: async () => {
        throw new Error('must not run');
      },
    });
    expect(outcomes.find((o) => o.id === 'yield')).toMatchObject({ status: 'failed', reason: 'o DY desse fundo não está na base' });
    expect(outcomes.find((o) => o.id === 'pvp')).toMatchObject({ status: 'ok' });
    expect(outcomes.find((o) => o.id === 'projection')).toMatchObject({ status: 'skipped', reason: 'depende de "DY do MXRF11", que não pôde ser obtido' });
  });

  it('an outage fails the whole question (the gateway answers 503), not a step', async () => {
    await expect(
      runPlan(plan, {
        measure: async () => {
          throw new CotaError('UNAVAILABLE', 'executor fora do ar');
        },
        tool: async () => {
          throw new Error('unreachable');
        },
      }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
