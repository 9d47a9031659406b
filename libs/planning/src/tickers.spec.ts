import { dataDir } from '@cota/config';
import { readFundTickers } from './fund-list';
import { TickerIndex } from './tickers';

describe('TickerIndex', () => {
  const funds = readFundTickers(dataDir());
  const index = new TickerIndex(funds, new Set(['ifix', 'euro']));

  it('reads the fund list in place from both sources', () => {
    expect(funds.length).toBeGreaterThan(400);
    expect(funds).toEqual(expect.arrayContaining(['HGLG11', 'MXRF11', 'VINO11', 'ALMI11']));
    expect(funds.every((t) => /^[A-Z]{4}1[1-9]$/.test(t))).toBe(true);
  });

  it('recognises exact tickers in any case, several in order, without repeats', () => {
    const m = index.recognize('Compare knri11, HGLG11 e Xplg11 com o KNRI11');
    expect(m.tickers).toEqual(['KNRI11', 'HGLG11', 'XPLG11']);
    expect(m.unknown).toEqual([]);
    expect(m.mode).toBe('fund-list');
  });

  it('resolves a unique 4-letter prefix written in capitals', () => {
    expect(index.recognize('Como está o preço do VINO agora?').tickers).toEqual(['VINO11']);
    expect(index.recognize('e o HGLG?').tickers).toEqual(['HGLG11']);
  });

  it('resolves a lowercase prefix only when it is not an ordinary word', () => {
    const isWord = (w: string) => ['como', 'vino'].includes(w);
    expect(index.recognize('quero o hglg', isWord).tickers).toEqual(['HGLG11']);
    expect(index.recognize('fale do vino', isWord).tickers).toEqual([]);
    expect(index.recognize('quero o hglg').tickers).toEqual([]); // default: every lowercase word is a word
  });

  it('never reads stop-listed words or unknown prefixes as funds', () => {
    expect(index.recognize('Quanto está o IFIX e o EURO?').tickers).toEqual([]);
    expect(index.recognize('QUAL O PRECO').tickers).toEqual([]);
  });

  it('reports ticker-shaped words that no fund has', () => {
    const m = index.recognize('preço do ABCD11 e do HGLG11');
    expect(m.tickers).toEqual(['HGLG11']);
    expect(m.unknown).toEqual(['ABCD11']);
    expect([...m.surfaces].sort()).toEqual(['abcd11', 'hglg11']);
  });

  it('accepts every AAAA11 pattern until the list is loaded, and no prefixes', () => {
    const pending = new TickerIndex(null);
    const m = pending.recognize('ABCD11 e HGLG e knri11');
    expect(m.tickers).toEqual(['ABCD11', 'KNRI11']);
    expect(m.mode).toBe('pattern-only');
    expect(pending.loaded).toBe(false);
  });
});
