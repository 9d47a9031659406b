import { compilePhrase, containsPhrase } from './phrases';
import { normalize, stem } from '@cota/text';

const stemsOf = (text: string) => normalize(text).split(' ').map(stem);
const occurs = (phrase: string, text: string, gap = 2) => containsPhrase(stemsOf(text), compilePhrase(phrase).stems, gap);

describe('containsPhrase', () => {
  it('lets other words fall between the words of a phrase', () => {
    expect(occurs('preço médio', 'preço bem médio')).toBe(true);
    expect(occurs('preço médio', 'preço que eu paguei de médio', 1)).toBe(false);
  });

  it('binds a preposition or article to the word right after it', () => {
    // "em proventos" is the income asked in shares' payments, not "em 2023 com proventos reinvestidos"
    expect(occurs('em proventos', 'quanto rendeu em proventos')).toBe(true);
    expect(occurs('em proventos', 'minha carteira rendeu quanto em 2023 com proventos')).toBe(false);
    expect(occurs('em proventos', 'minha carteira rendeu em 2023 (proventos reinvestidos)')).toBe(false);
    expect(occurs('de dividendos', 'o total de dividendos')).toBe(true);
    expect(occurs('cotas de', 'fii tem come-cotas igual fundo de renda fixa?')).toBe(false);
    expect(occurs('peso no indice', 'e o peso dele no indice?')).toBe(true);
    // (a number may stand between: "os 3 piores")
    expect(occurs('os piores', 'me da os 3 piores')).toBe(true);
  });
});
