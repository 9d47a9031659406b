import { Planner } from '../planner';
import { loadPlanningPolicies } from '../policies';

const planner = new Planner({ policies: loadPlanningPolicies(), funds: ['HGLG11', 'BTLG11', 'KNRI11', 'XPML11', 'VISC11', 'MXRF11'] });
const plan = (q: string) => planner.planDeterministic(q);

describe('multi-step shapes', () => {
  it.each([
    ['Compare HGLG11 e BTLG11 em renda, risco e preço: qual combina com uma carteira de renda?', 'comparison', 4],
    ['Compare KNRI11, HGLG11 e XPML11 em dividendos e P/VP', 'comparison', 3],
    ['Se eu investir R$ 500 por mês no MXRF11 mantendo o DY atual, quanto terei em 10 anos?', 'projection', 2],
    ['Quais dos meus fundos têm P/VP abaixo de 1 e DY acima de 9%?', 'screen', 2],
    ['HGLG11, KNRI11 e BTLG11: quais têm P/VP abaixo de 1 e Sharpe acima de -1?', 'screen', 2],
    ['Vale mais a pena manter o KNRI11 ou trocar por CDI?', 'benchmark', 3],
    ['O HGLG11 rendeu mais que o CDI nos últimos 12 meses?', 'benchmark', 3],
  ])('%s -> %s', (q, shape, steps) => {
    const p = plan(q);
    expect(p.kind).toBe('plan');
    expect(p.plan?.synthesis.shape).toBe(shape);
    expect(p.plan?.steps).toHaveLength(steps);
  });

  it('a projection takes the fund yield as the rate of the calculation, in percent per year', () => {
    const p = plan('Se eu investir R$ 500 por mês no MXRF11 mantendo o DY atual, quanto terei em 10 anos?').plan!;
    expect(p.steps[1]).toMatchObject({
      kind: 'tool',
      depends_on: ['yield'],
      tool: { name: 'calcular_financas', args: { operacao: 'projecao_aportes', aporte_mensal: '500', prazo_meses: 120, taxa_periodo: 'ano' } },
      inputs: [{ arg: 'taxa', from: 'yield', subject: 'MXRF11', transform: 'as_percent_rate' }],
    });
  });

  it("the screen reads every condition with its sign, and the benchmark measures the rate over the fund's dates", () => {
    const screen = plan('HGLG11, KNRI11 e BTLG11: quais têm P/VP abaixo de 1 e Sharpe acima de -1?').plan!;
    expect(screen.synthesis).toMatchObject({
      shape: 'screen',
      conditions: [
        { step: 'pvp', op: 'lt', value: 1 },
        { step: 'sharpe', op: 'gt', value: -1 },
      ],
    });
    const bench = plan('Vale mais a pena manter o KNRI11 ou trocar por CDI?').plan!;
    expect(bench.steps.find((s) => s.id === 'rate')).toMatchObject({ depends_on: ['price'], period_from: 'price' });
  });

  it.each(['compare o DY do HGLG11 e do KNRI11', 'qual o P/VP do HGLG11?', 'quanto rende R$ 10.000 a 1% ao mês por 24 meses?', 'quais fundos têm DY acima de 9%?'])(
    '%s stays a single question',
    (q) => {
      expect(plan(q).kind).not.toBe('plan');
    },
  );
});
