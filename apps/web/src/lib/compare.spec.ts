import { buildComparison, comparisonFinding, pick } from './compare';
import { CATALOG, dividends12m, ENTITY_CLASSES, dividendsCompare, dyCompare, overviewCompare, portfolio, reply, mv } from './testing-answers';

describe('buildComparison', () => {
  it('puts two funds side by side and marks the higher DY', () => {
    const c = buildComparison(dyCompare, CATALOG, ENTITY_CLASSES)!;
    expect(c.cards.map((x) => x.id)).toEqual(['HGLG11', 'KNRI11']);
    expect(c.cards[0].lines).toEqual([{ key: 'dy', label: 'Dividend yield', text: '8,30%', winner: true, mark: 'maior' }]);
    expect(c.cards[1].lines[0].winner).toBe(false);
    expect(c.criteria).toEqual([{ key: 'dy', text: 'maior dividend yield', winner: 'HGLG11' }]);
  });

  it('follows the comparison the question asked for (qual é menor)', () => {
    const asked = {
      ...dyCompare,
      meta: { ...dyCompare.meta, planner: { ...dyCompare.meta.planner, question: { ...dyCompare.meta.planner!.question!, compare: 'min' as const } } },
    };
    const c = buildComparison(asked, CATALOG, ENTITY_CLASSES)!;
    expect(c.cards[1].lines[0]).toMatchObject({ winner: true, mark: 'menor' });
    expect(c.criteria[0].text).toBe('menor dividend yield');
  });

  it('compares totals over a period (dividends of three funds), with the period on each card', () => {
    const c = buildComparison(dividendsCompare, CATALOG, ENTITY_CLASSES)!;
    expect(c.cards.map((x) => x.lines[0].text)).toEqual(['R$ 3,30', 'R$ 3,00', 'R$ 2,70']);
    expect(c.cards[0].subtitle).toBe('de 31/01/2024 a 28/03/2024');
    expect(c.cards[0].wins).toBe(1);
    expect(c.cards[0].lines[0].label).toBe('Dividendos por cota (soma)');
  });

  it('marks no winner on a tie or for a measure without a better side (price)', () => {
    const tie = reply('fiis_dividends_yields', [mv('HGLG11', 8), mv('KNRI11', 8)], { measure: 'dy', agg: 'value', subjects: [] });
    expect(buildComparison(tie, CATALOG, ENTITY_CLASSES)!.cards.every((c) => !c.lines[0].winner)).toBe(true);
    const price = reply('fiis_precos', [mv('HGLG11', 157), mv('KNRI11', 143)], { measure: 'price', agg: 'value', subjects: [] });
    expect(buildComparison(price, CATALOG, ENTITY_CLASSES)!.criteria[0].winner).toBeNull();
  });

  it('marks the winner the way the catalog says the measure is better', () => {
    const price = reply('fiis_precos', [mv('HGLG11', 157), mv('KNRI11', 143)], { measure: 'price', agg: 'value', subjects: [] });
    const lowerWins = { ...CATALOG, price: { ...CATALOG.price, better: 'lower' as const } };
    const c = buildComparison(price, lowerWins, ENTITY_CLASSES)!;
    expect(c.criteria[0]).toEqual({ key: 'price', text: 'menor preço de fechamento', winner: 'KNRI11' });
    expect(c.cards[1].lines[0].mark).toBe('menor');
  });

  it('makes fund cards only from the rows of an entity the catalog classes as fund', () => {
    expect(buildComparison(overviewCompare, CATALOG, { ...ENTITY_CLASSES, fii_overview: 'market' })).toBeNull();
  });

  it('builds fund cards from overviews: each measure its own winner', () => {
    const c = buildComparison(overviewCompare, CATALOG, ENTITY_CLASSES)!;
    expect(c.cards.map((x) => x.id)).toEqual(['HGLG11', 'KNRI11', 'XPML11']);
    const winnerOf = (key: string) => c.cards.find((card) => card.lines.some((l) => l.key === key && l.winner))?.id;
    expect(winnerOf('dy_12m_pct')).toBe('XPML11');
    expect(winnerOf('price_book_ratio')).toBe('KNRI11');
    expect(winnerOf('sharpe_ratio')).toBe('HGLG11');
    expect(winnerOf('last_price')).toBeUndefined();
    expect(c.cards[2].lines.find((l) => l.key === 'market_cap_value')?.text).toBe('R$ 6,1 bi');
    expect(c.criteria.map((x) => x.text)).toEqual(['menor P/VP', 'maior DY 12 meses', 'maior índice de Sharpe']);
  });

  it('does not treat a single fund or the portfolio as a comparison', () => {
    expect(buildComparison(dividends12m, CATALOG, ENTITY_CLASSES)).toBeNull();
    expect(buildComparison(portfolio, CATALOG, ENTITY_CLASSES)).toBeNull();
  });

  it('picks the single best value', () => {
    expect(pick([1, 3, 2], 'max')).toBe(1);
    expect(pick([1, 3, 2], 'min')).toBe(0);
    expect(pick([3, 3], 'max')).toBeNull();
    expect(pick([3, null], 'max')).toBeNull();
  });

  it('leads with what the comparison found: who wins which measures', () => {
    const finding = comparisonFinding(buildComparison(overviewCompare, CATALOG, ENTITY_CLASSES)!);
    expect(finding).toBe('Cada fundo vence em uma parte: KNRI11: menor P/VP; XPML11: maior DY 12 meses; HGLG11: maior índice de Sharpe.');
    const c = { cards: [], criteria: ['maior DY', 'menor P/VP', 'maior Sharpe'].map((text, i) => ({ key: String(i), text, winner: i < 2 ? 'HGLG11' : 'KNRI11' })) };
    expect(comparisonFinding(c)).toBe('HGLG11 leva 2 de 3 medidas (maior DY, menor P/VP); KNRI11: maior Sharpe.');
    expect(comparisonFinding({ cards: [], criteria: [{ key: 'x', text: 'maior x', winner: null }] })).toBeNull();
  });
});
