import { parseSgs } from './sgs';
import { parseCotahist } from './cotahist';
import { decodeDocument, parseAnnouncement } from './fnet';

/** The parsers on the shapes each source's documentation gives; the recorded-file runs are in test/feeds. */
describe('source parsers', () => {
  it('SGS: dd/MM/aaaa dates and dotted values; a bad value names its item', () => {
    expect(parseSgs('[{"data":"19/12/2025","valor":"0.055131"}]', 'sgs')).toEqual([{ date: '2025-12-19', value: 0.055131 }]);
    expect(() => parseSgs('[{"data":"31/02/2025","valor":"1"}]', 'sgs')).toThrow("sgs: item 0: data '31/02/2025' is not dd/MM/aaaa");
    expect(() => parseSgs('{"erro":"x"}', 'sgs')).toThrow(/sgs: not an SGS series/);
    expect(() => parseSgs('<html>', 'sgs')).toThrow(/sgs: not JSON/);
  });

  const header = '00COTAHIST.2025BOVESPA 20250613'.padEnd(245, ' ');
  const trailer = `99COTAHIST.2025BOVESPA 20250613${'3'.padStart(11, '0')}`.padEnd(245, ' ');
  const line = (bdi: string, ticker: string, market = '010') =>
    '01' +
    '20250613' +
    bdi +
    ticker.padEnd(12) +
    market +
    'FII HGLG'.padEnd(12) +
    'CI'.padEnd(10) +
    '   ' +
    'R$  ' +
    ['0000000016010', '0000000016200', '0000000015950', '0000000016080', '0000000016100', '0000000016100', '0000000016110'].join('') +
    '01234' +
    '000000000000012345' +
    '000000000198765400' +
    '0'.repeat(13) +
    '0' +
    '99991231' +
    '0000001' +
    '0'.repeat(13) +
    'BRHGLGCTF004' +
    '100';

  it('COTAHIST: FII (BDI 12) cash-market lines only, prices with two implied decimals', () => {
    const text = [header, line('12', 'HGLG11'), line('02', 'PETR4'), line('12', 'YUFI11B'), line('12', 'HGLG11', '070'), trailer].join('\r\n');
    expect(parseCotahist(text, 'f')).toEqual({
      fileDate: '2025-06-13',
      quotes: [{ ticker: 'HGLG11', traded_at: '2025-06-13', open: 160.1, max: 162, min: 159.5, close: 161, quantity: 12345 }],
    });
  });

  it('COTAHIST: a short line, a bad number or a missing trailer is an error naming the line', () => {
    expect(() => parseCotahist([header, line('12', 'HGLG11').slice(0, 200), trailer].join('\n'), 'f')).toThrow('f: line 2: 200 characters, the layout has 245');
    expect(() => parseCotahist([header, line('12', 'HGLG11').replace('0000000016100', '00000000161X0'), trailer].join('\n'), 'f')).toThrow(
      "f: line 2: PREULT '00000000161X0' is not a number",
    );
    expect(() => parseCotahist([header, line('12', 'HGLG11')].join('\n'), 'f')).toThrow('f: no trailer line (99): the file is cut short');
    expect(() => parseCotahist('', 'f')).toThrow('f: line 1: not a COTAHIST header');
  });

  it('FundosNet: both layouts; other codes, amortizations and nil values are not fund income', () => {
    const old = `<DadosEconomicoFinanceiros><DadosGerais><CodNegociacaoCota>CPTS11</CodNegociacaoCota></DadosGerais><InformeRendimentos><Rendimento><DataBase>2022-09-13</DataBase><DataPagamento>2022-09-20</DataPagamento><ValorProventoCota>1.10</ValorProventoCota></Rendimento><Amortizacao tipo=""/></InformeRendimentos></DadosEconomicoFinanceiros>`;
    expect(parseAnnouncement(old, 'd')).toEqual([{ ticker: 'CPTS11', record_date: '2022-09-13', payment_date: '2022-09-20', amount: 1.1 }]);
    const current = `<DadosEconomicoFinanceiros><InformeRendimentos><Provento><CodNegociacao>HGLG11</CodNegociacao><Rendimento><DataBase>2025-11-28</DataBase><DataPagamento>2025-12-12</DataPagamento><ValorProvento>1,15</ValorProvento></Rendimento><Amortizacao><DataBase>2025-11-28</DataBase><ValorProvento>0.5</ValorProvento></Amortizacao></Provento><Provento><CodNegociacao>YUFI11B</CodNegociacao><Rendimento><DataBase>2025-11-28</DataBase><ValorProvento>0.4</ValorProvento></Rendimento></Provento></InformeRendimentos></DadosEconomicoFinanceiros>`;
    expect(parseAnnouncement(decodeDocument(Buffer.from(Buffer.from(current).toString('base64'))), 'd')).toEqual([
      { ticker: 'HGLG11', record_date: '2025-11-28', payment_date: '2025-12-12', amount: 1.15 },
    ]);
    expect(() => parseAnnouncement('<DadosEconomicoFinanceiros/>', 'd')).toThrow('d: no DadosEconomicoFinanceiros/InformeRendimentos: not an income announcement');
    expect(() => parseAnnouncement(old.replace('2022-09-13', '13/13/2022'), 'd')).toThrow("d: DataBase '13/13/2022' is not a date");
  });
});
