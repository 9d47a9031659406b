import { conditionColumn, conditionsOn, readNumericConditions, withoutConditions } from './conditions';

const COLUMNS = [
  conditionColumn('dy_pct', ['dy', 'dividend yield']),
  conditionColumn('market_cap_value', ['valor de mercado']),
  conditionColumn('price_book_ratio', ['pvp', 'p/vp']),
];

describe('numeric conditions', () => {
  it('reads a number with its sign, thousands and scale as pt-BR writes it', () => {
    expect(readNumericConditions('dy acima de −5%').map((c) => c.value)).toEqual([-5]);
    expect(readNumericConditions('valor de mercado acima de 1.000 mi').map((c) => c.value)).toEqual([1e9]);
    expect(readNumericConditions('valor de mercado acima de 2 bilhões').map((c) => c.value)).toEqual([2e9]);
  });

  it.each([
    ['DY acima de 15%', [{ op: 'gt', value: 15 }]],
    ['p/vp abaixo de 0,95', [{ op: 'lt', value: 0.95 }]],
    ['valor de mercado acima de 1 bi', [{ op: 'gt', value: 1e9 }]],
    ['mais de R$ 500 milhões', [{ op: 'gt', value: 5e8 }]],
    [
      'menor que 2 e maior que 1',
      [
        { op: 'lt', value: 2 },
        { op: 'gt', value: 1 },
      ],
    ],
    // Past any value a fund has, the contract's bound: nothing meets it, nothing breaks.
    ['dy acima de 999999999999 bi', [{ op: 'gt', value: 1e15 }]],
  ])('%s', (text, expected) => {
    expect(readNumericConditions(text)).toMatchObject(expected);
  });

  it('each comparison is about the column named next to it, before or right after its number', () => {
    expect(conditionsOn('fundos de logística com valor de mercado acima de 1 bi e p/vp abaixo de 1', COLUMNS)).toEqual([
      { column: 'market_cap_value', op: 'gt', value: 1e9 },
      { column: 'price_book_ratio', op: 'lt', value: 1 },
    ]);
    expect(conditionsOn('fundos de tijolo acima de R$1 bi de valor de mercado', COLUMNS)).toEqual([{ column: 'market_cap_value', op: 'gt', value: 1e9 }]);
    // A comparison naming no column it knows is left out.
    expect(conditionsOn('fundos com mais de 10 imóveis', COLUMNS)).toEqual([]);
  });

  it('the question without its conditions keeps what orders the list', () => {
    expect(withoutConditions('entre os fundos de logística com valor de mercado acima de 1 bi, quais os 3 com menor p/vp?', COLUMNS)).toBe(
      'entre os fundos de logistica com , quais os 3 com menor p/vp?',
    );
    expect(withoutConditions('top 5 por dy', COLUMNS)).toBeNull();
  });
});
