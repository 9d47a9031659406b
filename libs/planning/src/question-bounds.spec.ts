import { MAX_QUESTION_SUBJECTS, PlanResponse, TOO_MANY_FUNDS } from '@cota/contracts';
import { realPlanner } from './test-helpers';

const FUNDS = ['HGLG11', 'XPML11', 'KNRI11', 'MXRF11', 'VISC11', 'BTLG11', 'HGRU11', 'XPLG11', 'KNCR11', 'RECR11', 'VILG11', 'HGBS11', 'HGRE11', 'RBRF11', 'BCFF11'];

describe('Planner: how many subjects one question takes', () => {
  const planner = realPlanner();

  it.each([
    ['compare {funds}', 12],
    ['dividend yield de {funds}', 11],
    ['cnpj {funds}', 15],
    ['qual paga mais dividendos: {funds}?', 12],
  ])('"%s" naming %i funds reads as asking for fewer, within the contract', (text, n) => {
    const reading = planner.planDeterministic(text.replace('{funds}', FUNDS.slice(0, n).join(', ')));
    expect(PlanResponse.safeParse(reading).success).toBe(true);
    expect(reading).toMatchObject({ kind: 'clarification', intent: TOO_MANY_FUNDS, funds_named: n, question: null });
  });

  it(`keeps a question of ${MAX_QUESTION_SUBJECTS} funds, and bounds its subjects when an index joins them`, () => {
    const ten = planner.planDeterministic(`dividend yield de ${FUNDS.slice(0, MAX_QUESTION_SUBJECTS).join(' ')}`);
    expect(ten.intent).not.toBe(TOO_MANY_FUNDS);
    expect(ten.question?.subjects).toHaveLength(MAX_QUESTION_SUBJECTS);
    const withIndex = planner.planDeterministic(`variação de ${FUNDS.slice(0, MAX_QUESTION_SUBJECTS).join(' ')} e do IFIX em 2024`);
    expect(PlanResponse.safeParse(withIndex).success).toBe(true);
  });
});

describe('Planner: how many rows a question asks for', () => {
  const planner = realPlanner();

  it('"últimos 1000 dividendos" lists them (it read as the last one), and keeps the number asked', () => {
    const p = planner.planDeterministic('últimos 1000 dividendos do HGLG11');
    expect(p).toMatchObject({ kind: 'entity', entity: 'fiis_dividendos' });
    expect(p.params).toMatchObject({ agg: 'list', limit: 1000, limit_asked: 1000 });
    expect(p.question).toMatchObject({ measure: 'dividend', agg: 'list' });
  });

  it('"top 50 fiis por dy" keeps the number asked; a ranking without one has none', () => {
    expect(planner.planDeterministic('top 50 fiis por dy').params).toMatchObject({ limit: 50, limit_asked: 50 });
    expect(planner.planDeterministic('fiis com maior dy').params.limit_asked ?? null).toBeNull();
  });
});
