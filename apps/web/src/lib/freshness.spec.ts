import { dataDate, freshnessNote, todayInSaoPaulo } from './freshness';
import { dividends12m, incomeByMonth, overviewCompare, reply } from './testing-answers';

describe('data freshness', () => {
  it('finds the newest date among measure values and entity rows', () => {
    expect(dataDate(dividends12m)).toBe('2025-05-30');
    expect(dataDate(overviewCompare)).toBe('2025-11-22');
    expect(dataDate(incomeByMonth)).toBe('2025-03-01');
    expect(dataDate(reply('fiis_cadastro', [{ ticker: 'HGLG11', ipo_date: '2010-01-01' }], null))).toBeNull();
  });

  it('says how old the data is when it is older than a few days', () => {
    expect(freshnessNote(overviewCompare, '2026-11-27')).toBe('Dados até 22/11/2025 (há mais de um ano): são os mais recentes que o Cota tem.');
    expect(freshnessNote(overviewCompare, '2025-12-20')).toBe('Dados até 22/11/2025 (há 28 dias): são os mais recentes que o Cota tem.');
    expect(freshnessNote(overviewCompare, '2025-11-25')).toBeNull();
  });

  it('counts whole calendar months and years, never rounding up to a year not yet passed', () => {
    const at = (date: string) => reply('fiis_cadastro', [{ ticker: 'KNRI11', shareholders_count: 264450, ref_date: date }], null);
    // 01/12/2023 to 28/11/2026 is 2 years and 11 months: not "more than 3 years".
    expect(freshnessNote(at('2023-12-01'), '2026-11-28')).toContain('(há mais de 2 anos)');
    expect(freshnessNote(at('2023-11-28'), '2026-11-28')).toContain('(há mais de 3 anos)');
    expect(freshnessNote(at('2026-05-30'), '2026-11-28')).toContain('(há mais de 5 meses)');
  });

  it('says nothing when the question asked a closed period of the past, or the answer is not one', () => {
    const past = {
      ...dividends12m,
      meta: { ...dividends12m.meta, planner: { ...dividends12m.meta.planner, question: { period: { kind: 'range', from: '2024-01-01', to: '2024-12-31' } } } },
    };
    expect(freshnessNote(past, '2026-11-27')).toBeNull();
    expect(freshnessNote({ ...overviewCompare, status: 'needs_clarification' }, '2026-11-27')).toBeNull();
  });

  it("counts today by São Paulo's calendar", () => {
    expect(todayInSaoPaulo(new Date('2026-11-28T02:00:00Z'))).toBe('2026-11-27');
  });
});
