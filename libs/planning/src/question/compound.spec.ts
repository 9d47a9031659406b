import { CompoundSplitter } from './compound';

const splitter = new CompoundSplitter(
  [
    { phrase: 'cnpj', target: 'entity:fiis_cadastro' },
    { phrase: 'administrador', target: 'entity:fiis_cadastro' },
    { phrase: 'p vp', target: 'measure:pvp' },
    { phrase: 'pvp', target: 'measure:pvp' },
    { phrase: 'dy', target: 'measure:dy' },
    { phrase: 'valor de mercado', target: 'measure:market_cap' },
    { phrase: 'valor', target: 'measure:fx_rate' },
  ],
  { links: ['o', 'a', 'qual', 'tambem'], max_parts: 3, clause_openers: [] },
);

describe('CompoundSplitter', () => {
  it('splits things asked with "e" into questions that keep what is around the list', () => {
    expect(splitter.split('Qual o CNPJ e o P/VP do GTWR11?')).toEqual(['qual o cnpj do gtwr11?', 'qual o p/vp do gtwr11?']);
    expect(splitter.split('me diz o dy e o valor de mercado do rztr11')).toEqual(['me diz o dy do rztr11', 'me diz o valor de mercado do rztr11']);
  });

  it('reads a comma as a list separator, not inside a number', () => {
    expect(splitter.split('dy, pvp e valor de mercado do HGLG11')).toEqual(['dy do hglg11', 'pvp do hglg11', 'valor de mercado do hglg11']);
    expect(splitter.split('dy acima de 9,5 do hglg11')).toBeNull();
  });

  it('keeps one question when its things asked are one (two words of the same target) or not listed together', () => {
    expect(splitter.split('qual o cnpj e o administrador do hglg11')).toBeNull();
    expect(splitter.split('fiis com dy acima de 10 e pvp abaixo de 1')).toBeNull();
    expect(splitter.split('qual o dy do hglg11')).toBeNull();
  });

  it('splits clauses an article opens when each names its own thing, each with its own fund and period', () => {
    expect(splitter.split('qual o dy do hglg11 e o pvp do knri11')).toEqual(['qual o dy do hglg11', 'o pvp do knri11']);
    // (a clause without a thing of its own is no question: "o do knri11" restates the first)
    expect(splitter.split('qual o dy do hglg11 e o do knri11')).toBeNull();
    // ("qual é o": the verb, folded to "e", opens nothing)
    expect(splitter.split('somando os dividendos do hglg11 em 2024, qual é o dividend yield?')).toBeNull();
  });

  it('takes the longest phrase: "valor de mercado" is one thing asked', () => {
    expect(splitter.split('valor de mercado e dy do knri11')).toEqual(['valor de mercado do knri11', 'dy do knri11']);
  });

  it('splits into at most max_parts questions', () => {
    const two = new CompoundSplitter(
      [
        { phrase: 'a1', target: 'x' },
        { phrase: 'b1', target: 'y' },
        { phrase: 'c1', target: 'z' },
      ],
      { links: [], max_parts: 2, clause_openers: [] },
    );
    expect(two.split('a1, b1 e c1 do fundo')).toEqual(['a1 do fundo', 'b1 do fundo']);
  });

  it('splits clauses that each open with a question word, asking a clause without the funds of them', () => {
    const clauses = new CompoundSplitter(
      [
        { phrase: 'quantas cotas', target: 'measure:shares_held' },
        { phrase: 'pm', target: 'measure:avg_price' },
        { phrase: 'cnpj', target: 'entity:fiis_cadastro' },
        { phrase: 'fechou', target: 'measure:price' },
      ],
      { links: ['o', 'a', 'qual'], max_parts: 3, clause_openers: ['qual', 'quanto'] },
    );
    expect(clauses.split('quantas cotas de KNIP11 eu tenho e qual o meu pm', ['KNIP11'])).toEqual(['quantas cotas de knip11 eu tenho', 'qual o meu pm do knip11']);
    expect(clauses.split('cnpj do cpts11, e quanto ele fechou em 25/06/2025?', ['CPTS11'])).toEqual(['cnpj do cpts11', 'quanto ele fechou em 25/06/2025 do cpts11']);
    // A clause that names nothing asked, or two that name the same thing, is one question; so is a comma alone.
    expect(clauses.split('cnpj do cpts11, quanto ele fechou em 25/06/2025?', ['CPTS11'])).toBeNull();
    expect(clauses.split('quantas cotas de KNIP11 eu tenho e quanto isso da', ['KNIP11'])).toBeNull();
    expect(clauses.split('qual o pm do KNIP11 e qual o pm do HGLG11', ['KNIP11', 'HGLG11'])).toBeNull();
    // A clause may name its thing twice; a measure's clause without a period is asked over the question's (the registry's is not).
    const twice = new CompoundSplitter(
      [
        { phrase: 'recebi', target: 'measure:received' },
        { phrase: 'dividendos', target: 'measure:received' },
        { phrase: 'yield on cost', target: 'measure:yield_on_cost' },
      ],
      { links: ['o', 'a', 'qual'], max_parts: 3, clause_openers: ['qual', 'quanto'] },
    );
    expect(twice.split('quanto recebi de dividendos do HGLG11 em 2024 e qual meu yield on cost nele?', ['HGLG11'])).toEqual([
      'quanto recebi de dividendos do hglg11 em 2024',
      'qual meu yield on cost nele do hglg11 2024',
    ]);
    // (a clause that asks the latest keeps to it)
    expect(twice.split('quanto recebi de dividendos do HGLG11 em 2024 e qual o ultimo yield on cost?', ['HGLG11'])).toEqual([
      'quanto recebi de dividendos do hglg11 em 2024',
      'qual o ultimo yield on cost do hglg11',
    ]);
  });
});
