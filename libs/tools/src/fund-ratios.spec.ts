import { calculateFinance } from './finance-tool';

describe('calcular_financas: a fund ratio from the numbers stated', () => {
  it('the DY of a monthly dividend at a price: per month and ×12 a year (and compounded, said apart)', () => {
    const r = calculateFinance({ operacao: 'dividend_yield', preco_cota: '100', provento: '0.85', provento_periodo: 'mes' });
    expect(r.resultado).toEqual({ dy_mensal_pct: '0.85', dy_anual_pct: '10.2' });
    expect(r.text).toContain('o dividend yield é de 0,85% ao mês, ou 10,2% ao ano (× 12)');
    expect(r.text).toContain('Reinvestindo todo mês, seria 10,69% ao ano');
  });

  it('a dividend stated for the year is a yearly yield', () => {
    const r = calculateFinance({ operacao: 'dividend_yield', preco_cota: '10', provento: '1.17', provento_periodo: 'ano' });
    expect(r.resultado).toEqual({ dy_anual_pct: '11.7' });
  });

  it('the P/VP of a price over a book value, with the discount it means', () => {
    const r = calculateFinance({ operacao: 'pvp', preco_cota: '95', vp_cota: '105' });
    expect(r.resultado.pvp).toBe('0.9048');
    expect(r.text).toContain('o P/VP é 0,9048: com desconto de 9,52% sobre o valor patrimonial');
  });

  it('the whole shares a monthly income needs at a dividend per share, rounded up', () => {
    expect(calculateFinance({ operacao: 'cotas_para_renda', provento: '0.10', renda_mensal: '1000' }).resultado).toEqual({ cotas: '10000' });
    expect(calculateFinance({ operacao: 'cotas_para_renda', provento: '0.30', renda_mensal: '1000', preco_cota: '10' }).resultado).toEqual({ cotas: '3334', capital: '33340.00' });
    // (numbers said of a fund name it, and say they are the person's)
    const named = calculateFinance({ operacao: 'cotas_para_renda', provento: '0.10', renda_mensal: '500', preco_cota: '9.39', fundo: 'MXRF11' });
    expect(named.text).toMatch(/^MXRF11, com os números que você informou \(não os dados do fundo na base\):\n\n\*\*Para receber R\$ 500,00/);
    expect(named.entradas.fundo).toBe('MXRF11');
    // (an income of one share's price is the magic number: ⌈157,60 ÷ 1,10⌉ = 144)
    const magic = calculateFinance({ operacao: 'cotas_para_renda', provento: '1.10', renda_mensal: '157.60', preco_cota: '157.60' });
    expect(magic.title).toBe('Número mágico');
    expect(magic.text).toContain('**O número mágico é 144 cotas: com R$ 1,10 por cota ao mês, a renda de um mês compra uma cota nova de R$ 157,60 (R$ 22.694,40 investidos).**');
  });

  it('the ceiling price of a dividend at the yield wanted (a monthly dividend counts twelve times)', () => {
    expect(calculateFinance({ operacao: 'preco_teto', provento: '9.60', provento_periodo: 'ano', taxa: '8', taxa_periodo: 'ano' }).resultado).toEqual({ preco_teto: '120.00' });
    const monthly = calculateFinance({ operacao: 'preco_teto', provento: '1.10', provento_periodo: 'mes', taxa: '9', taxa_periodo: 'ano' });
    expect(monthly.resultado).toEqual({ preco_teto: '146.67' });
    expect(monthly.text).toContain('R$ 13,20 (R$ 1,10 × 12) ÷ 9% = R$ 146,67');
  });

  it('asks for what is missing and refuses a price of zero', () => {
    expect(() => calculateFinance({ operacao: 'pvp', preco_cota: '95' })).toThrow('Para esse cálculo preciso do valor patrimonial por cota');
    expect(() => calculateFinance({ operacao: 'preco_teto', provento: '9.60' })).toThrow('Para esse cálculo preciso do dividend yield desejado');
    expect(() => calculateFinance({ operacao: 'dividend_yield', preco_cota: '0', provento: '1' })).toThrow('O preço da cota precisa ser positivo.');
  });
});
