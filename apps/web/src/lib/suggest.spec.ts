import { readingOfReply, readingOfTurn, suggestNext } from './suggest';
import { dividends12m, ENTITY_CLASSES, incomeByMonth, overviewCompare, portfolio, reply } from './testing-answers';

const TICKER_WORD = /\b[A-Z]{4}11\b/g;
const SECTORS = ['Logística', 'Shoppings', 'Recebíveis'];
const fundsIn = (qs: string[]) => qs.flatMap((q) => q.match(TICKER_WORD) ?? []);

describe('suggested next questions', () => {
  it("for one fund: its dividends over 12 months, its risk, and its segment's ranking (where the leader shows)", () => {
    const overview = reply('fii_overview', [{ ticker: 'HGLG11', sector: 'Logística', dy_12m_pct: 8.25 }], {
      subjects: [{ kind: 'fund', id: 'HGLG11' }],
      measure: null,
      agg: null,
      period: null,
    });
    const next = suggestNext(readingOfReply(overview), ENTITY_CLASSES, 'HGLG11', SECTORS);
    expect(next).toEqual(['dividendos do HGLG11 nos últimos 12 meses', 'qual o risco do HGLG11?', 'maiores FIIs de logística por valor de mercado']);
    // A segment the planner does not read as a filter is not offered.
    expect(suggestNext(readingOfReply(overview), ENTITY_CLASSES, 'HGLG11', ['Shoppings'])).toHaveLength(2);
  });

  it('does not offer what was just answered', () => {
    const next = suggestNext(readingOfReply(dividends12m), ENTITY_CLASSES, 'dividendos do HGLG11 nos últimos 12 meses');
    expect(next).not.toContain('dividendos do HGLG11 nos últimos 12 meses');
    expect(next).toContain('qual o risco do HGLG11?');
  });

  it('names a segment leader only when the answer holds it', () => {
    const ranked = reply(
      'fii_overview',
      [
        { ticker: 'BTLG11', sector: 'Logística' },
        { ticker: 'HGLG11', sector: 'Logística' },
      ],
      { subjects: [{ kind: 'fund', id: 'HGLG11' }], measure: null, agg: null, period: null },
    );
    const r = { ...readingOfReply(ranked), tickers: ['HGLG11'] };
    expect(suggestNext(r, ENTITY_CLASSES, '')).toContain('compare HGLG11 e BTLG11');
  });

  it('for a list of funds: narrowed to the segments the list holds', () => {
    const next = suggestNext(readingOfReply(overviewCompare), ENTITY_CLASSES, 'maiores fundos', SECTORS);
    expect(next.slice(0, 2)).toEqual(['e só os de logística?', 'e só os de shoppings?']);
  });

  it("for the portfolio: this month's income", () => {
    expect(suggestNext(readingOfReply(portfolio), ENTITY_CLASSES, 'minha carteira')[0]).toBe('quanto recebi de proventos este mês?');
    expect(suggestNext(readingOfReply(incomeByMonth), ENTITY_CLASSES, 'renda mensal da minha carteira')).not.toContain('renda mensal da minha carteira');
  });

  it('never names a fund the answer does not hold, and offers nothing after an error or a tool', () => {
    for (const r of [dividends12m, overviewCompare, portfolio]) {
      const reading = readingOfReply(r);
      for (const t of fundsIn(suggestNext(reading, ENTITY_CLASSES, ''))) expect(reading.tickers).toContain(t);
    }
    expect(suggestNext(readingOfReply({ ...dividends12m, status: 'error' }), ENTITY_CLASSES, '')).toEqual([]);
    expect(suggestNext({ ...readingOfReply(dividends12m), tool: 'calcular_financas' }, ENTITY_CLASSES, '')).toEqual([]);
  });

  it('reads a turn restored from the history (its recorded reading)', () => {
    const r = readingOfTurn({ status: 'ok', entity: 'fiis_cadastro', kind: 'entity', tickers: ['KNRI11'], question: { subjects: [{ kind: 'fund', id: 'KNRI11' }] } });
    expect(suggestNext(r, ENTITY_CLASSES, 'CNPJ do KNRI11?')[0]).toBe('dividendos do KNRI11 nos últimos 12 meses');
  });
});
