import { collectAllowedFacts, extractTokens, guardLlmText, readNumber } from './guard';

const columns = [
  { name: 'ticker', type: 'text' as const, label: 'Ticker' },
  { name: 'dividend_amt', type: 'money' as const, label: 'Dividendo' },
  { name: 'payment_date', type: 'date' as const, label: 'Pagamento' },
  { name: 'vacancy_ratio', type: 'ratio' as const, label: 'Vacância' },
  { name: 'market_cap_value', type: 'money' as const, label: 'Valor de mercado' },
  { name: 'fii_cnpj', type: 'cnpj' as const, label: 'CNPJ' },
];
const rows = [{ ticker: 'ABCP11', dividend_amt: '0.65', payment_date: '2025-11-07', vacancy_ratio: '0.0131', market_cap_value: '350402792.00', fii_cnpj: '01.201.140/0001-90' }];
const deterministic = 'Último dividendo do ABCP11: R$ 0,65 por cota, com pagamento em 07/11/2025.';
const facts = collectAllowedFacts({ rows, columns, texts: [deterministic, 'E nos últimos 6 meses?'] });

describe('guardLlmText', () => {
  it('accepts a faithful rephrasing, whatever the number style', () => {
    for (const text of [
      'O ABCP11 pagou R$ 0,65 por cota em 07/11/2025.',
      'ABCP11 paid BRL 0.65 per share on 2025-11-07.',
      'O pagamento de R$ 0,65 caiu em 7 de novembro de 2025, com vacância de 1,31%.',
      'Valor de mercado de R$ 350,40 milhões, vacância 0.0131, CNPJ 01.201.140/0001-90.',
      'Em novembro de 2025 o fundo pagou R$ 0,65; olhando os últimos 6 meses também.',
      'Sem números aqui, só texto.',
    ]) {
      expect(guardLlmText(text, facts)).toMatchObject({ ok: true });
    }
  });

  it('rejects an invented number, naming it', () => {
    expect(guardLlmText('O ABCP11 pagou R$ 0,72 por cota.', facts)).toMatchObject({ ok: false, token: '0,72' });
    expect(guardLlmText('Vacância de 2,5%.', facts)).toMatchObject({ ok: false, token: '2,5' });
    expect(guardLlmText('Valor de mercado de R$ 420 milhões.', facts)).toMatchObject({ ok: false, token: '420 milhões' });
  });

  it('rejects invented dates, tickers and codes', () => {
    expect(guardLlmText('Pagamento em 08/11/2025.', facts)).toMatchObject({ ok: false, token: '08/11/2025' });
    expect(guardLlmText('Compare com o HGLG11.', facts)).toMatchObject({ ok: false, token: 'HGLG11' });
    expect(guardLlmText('Em dezembro de 2025 deve pagar mais.', facts)).toMatchObject({ ok: false, token: 'dezembro de 2025' });
    expect(guardLlmText('CNPJ 11.728.688/0001-47.', facts)).toMatchObject({ ok: false, token: '11.728.688/0001-47' });
  });

  it('is strict: a number keeps its sign and is no coarser than the fact it stands for', () => {
    const risk = collectAllowedFacts({
      rows: [{ sharpe_ratio: '-1.08', dy: '9.5' }],
      columns: [
        { name: 'sharpe_ratio', type: 'number', label: 'Sharpe' },
        { name: 'dy', type: 'percent', label: 'DY' },
      ],
    });
    expect(guardLlmText('O Sharpe é -1,08.', risk)).toMatchObject({ ok: true });
    expect(guardLlmText('Uma queda de 1,08 no Sharpe.', risk)).toMatchObject({ ok: true });
    // The sign flipped: -1,08 written as 1,08.
    expect(guardLlmText('O Sharpe é 1,08, ótimo.', risk)).toMatchObject({ ok: false, token: '1,08' });
    // Rounded looser than the fact: 9,5% written as "10%".
    expect(guardLlmText('Um DY de 10% ao ano.', risk)).toMatchObject({ ok: false, token: '10%'.replace('%', '') });
    expect(guardLlmText('Um DY de 9,5% ao ano (9,50%).', risk)).toMatchObject({ ok: true });
    expect(guardLlmText('Valor de mercado de R$ 350,4 milhões.', facts)).toMatchObject({ ok: false });
  });

  it('does not take a number from the question as a fact', () => {
    // The narrator builds its facts from the rows and the deterministic answer only.
    const only = collectAllowedFacts({ rows, columns, texts: [deterministic] });
    expect(guardLlmText('Com R$ 2.000 investidos você teria R$ 0,65 por cota.', only)).toMatchObject({ ok: false, token: '2.000' });
  });

  it('reads both pt-BR and en number writing', () => {
    expect(
      readNumber('1.234')
        .map((r) => r.value.toNumber())
        .sort(),
    ).toEqual([1.234, 1234]);
    expect(readNumber('1.234,56').map((r) => r.value.toNumber())).toEqual([1234.56]);
    expect(readNumber('1,234.56').map((r) => r.value.toNumber())).toEqual([1234.56]);
    expect(readNumber('0,65').map((r) => r.value.toNumber())).toEqual([0.65]);
  });

  it('does not read a date as numbers', () => {
    expect(extractTokens('em 31/10/2025').map((t) => t.kind)).toEqual(['date']);
  });
});
