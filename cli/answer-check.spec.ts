import { checkTurn, hasValue, mentionsPeriod, numbersIn } from './answer-check';

const ok = (answer: string) => ({ http: 200, status: 'ok', answer });

describe('answer checker', () => {
  it('reads Brazilian numbers with their sign', () => {
    expect(numbersIn('caiu -5,89%, de 3.311,43 para 3.116,28 em 30/12/2024')).toEqual(expect.arrayContaining([-5.89, 3311.43, 3116.28]));
  });

  it('accepts the value at the asked precision and rejects a flipped sign or another value', () => {
    expect(hasValue('O IFIX variou -5,89% em 2024', { v: -5.893224, dp: 2 })).toBe(true);
    expect(hasValue('O IFIX variou 5,89% em 2024', { v: -5.893224, dp: 2 })).toBe(false);
    expect(hasValue('O IFIX variou -5,86% em 2024', { v: -5.893224, dp: 2 })).toBe(false);
    expect(hasValue('R$ 3,61 bilhões', { v: 3612959934.52, dp: 2 })).toBe(true);
  });

  it('requires the period the question asked', () => {
    expect(mentionsPeriod('em março de 2024', { from: '2024-03-01', to: '2024-03-31' })).toBe(true);
    expect(mentionsPeriod('em abril de 2024', { from: '2024-03-01', to: '2024-03-31' })).toBe(false);
    expect(mentionsPeriod('de janeiro a junho de 2025', { from: '2025-01-01', to: '2025-06-30' })).toBe(true);
    expect(mentionsPeriod('em 2025 (dados até 17/11/2025)', { from: '2025-01-01', to: '2025-11-17' })).toBe(true);
  });

  it('fails a turn for each missing fact, and for the wrong outcome', () => {
    const expect_ = { values: [{ v: 13.2, dp: 2 }], subjects: ['HGLG11'], period: { from: '2024-01-01', to: '2024-12-31' } };
    expect(checkTurn(ok('O HGLG11 pagou R$ 13,20 em 2024.'), expect_)).toEqual([]);
    expect(checkTurn(ok('O KNRI11 pagou R$ 12,00 em 2023.'), expect_)).toHaveLength(3);
    expect(checkTurn({ http: 500, status: 'error', answer: '' }, expect_)).toEqual(['HTTP 500']);
    expect(checkTurn(ok('A Cota não recomenda comprar nem vender.'), { status: 'not_advice' })).toEqual([]);
    expect(checkTurn(ok('O XPML11 fechou a R$ 102,61.'), { status: 'not_advice' })).toHaveLength(1);
    expect(checkTurn({ http: 200, status: 'ok', answer: 'x' }, { status: 'clarify' })).toHaveLength(1);
  });

  it('takes an expected date written either way (ISO or as the answer writes it)', () => {
    const answer = ok('O IFIX fechou a 3.116,28 pontos em 30/12/2024.');
    expect(checkTurn(answer, { dates: ['2024-12-30'] })).toEqual([]);
    expect(checkTurn(answer, { dates: ['30/12/2024'] })).toEqual([]);
    expect(checkTurn(answer, { dates: ['27/12/2024'] })).toEqual(['date 27/12/2024 not in the answer']);
  });
});
