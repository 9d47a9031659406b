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
