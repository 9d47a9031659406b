import { searchWords, tokenize } from './text';

describe('the question words the full-text search weighs', () => {
  it('leaves chat filler out of the search words only ("pq ouvi dizer q nao"), the tokens indexed untouched', () => {
    expect(searchWords('dividendo de fii paga imposto de renda? pq ouvi dizer q nao')).toEqual(['dividendo', 'fii', 'paga', 'imposto', 'renda']);
    expect(tokenize('pq ouvi dizer q nao')).toContain('ouvi');
  });
});
