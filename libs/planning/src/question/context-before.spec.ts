import { questionAfterContext } from './context-before';

const openers = new Set(['qual', 'quais', 'quanto', 'quantos', 'quantas', 'quando', 'quem', 'como', 'onde']);
const ask = (q: string, tickers: string[] = []) => questionAfterContext(q, tickers, openers, 4);

describe('the question after the context a message tells first', () => {
  it('is the last sentence that opens with a question word, asked of the funds the context names', () => {
    expect(
      ask('tava olhando o grafico do knri11 e parece q ele subiu bastante no comeco de 2024 e depois devolveu tudo... qual foi a maior cotacao dele em 2024?', ['KNRI11']),
    ).toBe('qual foi a maior cotacao dele em 2024? do knri11');
    expect(ask('boa tarde, to montando uma planilha dos meus fiis e faltou uma coluna: qual o segmento do pvbi11?', ['PVBI11'])).toBe('qual o segmento do pvbi11?');
  });

  it('leaves a one-sentence question, a short opener and a last sentence that asks nothing alone', () => {
    expect(ask('qual o dy do hglg11?', ['HGLG11'])).toBeNull();
    expect(ask('ok. qual o dy do hglg11?', ['HGLG11'])).toBeNull();
    expect(ask('quero saber o dy do hglg11 e do knri11. me ajuda por favor', ['HGLG11', 'KNRI11'])).toBeNull();
    expect(ask('como foi a cota do VISC11 em 2024? quanto variou?', ['VISC11'])).toBeNull();
    // (a last sentence that asks only for the result of what the message defined)
    expect(ask('DY do MXRF11 = soma dos rendimentos com data com de jun/24 a mai/25 dividida pelo fechamento de 10/06/25. quanto dá?', ['MXRF11'])).toBeNull();
  });
});
