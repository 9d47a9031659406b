import { loadToolGatePolicy } from '@cota/tool-gating';
import { extractFinanceArgs } from './finance-args';
import { extractTaxSale, extractTransaction, extractTransactionQuery, extractMagic, readDay } from './personal-args';

const categories = loadToolGatePolicy().filters.categories;
const TODAY = '2026-11-23';

describe('transactions said in words', () => {
  it.each([
    ['gastei 85 na farmácia', { tipo: 'despesa', valor: '85', categoria: 'farmacia' }],
    ['recebi 3.000 de salário dia 5', { tipo: 'receita', valor: '3000', categoria: 'salario', data: '2026-11-05' }],
    ['registra um gasto de 120 reais no mercado hoje', { tipo: 'despesa', valor: '120', categoria: 'mercado', data: TODAY }],
    ['paguei R$ 1.250,40 de aluguel em 03/11', { tipo: 'despesa', valor: '1250.4', categoria: 'moradia', data: '2026-11-03' }],
    ['uber ontem 32,50, gastei', { tipo: 'despesa', valor: '32.5', categoria: 'transporte', data: '2026-11-22' }],
    ['ganhei 1,5 mil de freela', { tipo: 'receita', valor: '1500', categoria: 'salario' }],
  ])('%s', (q, expected) => {
    expect(extractTransaction(q, categories, TODAY)).toMatchObject(expected);
  });

  it('reads days against today: a day still ahead this month is last month', () => {
    expect(readDay('dia 25', TODAY)).toBe('2026-10-25');
    expect(readDay('em 30/12', TODAY)).toBe('2025-12-30');
    expect(readDay('anteontem', TODAY)).toBe('2026-11-21');
  });
});

describe('transaction questions', () => {
  it.each([
    ['quanto gastei esse mês?', { tipo: 'despesa', data_inicio: '2026-11-01', data_fim: '2026-11-30' }],
    ['quanto gastei com mercado em outubro?', { tipo: 'despesa', categoria: 'mercado', data_inicio: '2026-10-01', data_fim: '2026-10-31' }],
    ['minhas maiores despesas de outubro', { tipo: 'despesa', ordem: 'maiores', data_inicio: '2026-10-01' }],
    ['gastos acima de 100 reais', { tipo: 'despesa', valor_min: '100' }],
    ['despesas entre 50 e 200 reais no mês passado', { valor_min: '50', valor_max: '200', data_inicio: '2026-10-01', data_fim: '2026-10-31' }],
    ['gastos por categoria em setembro', { agrupar_por: 'categoria', data_inicio: '2026-09-01' }],
    ['top 3 maiores gastos', { ordem: 'maiores', limite: 3 }],
  ])('%s', (q, expected) => {
    expect(extractTransactionQuery(q, categories, TODAY)).toMatchObject(expected);
  });
});

describe('fund tools', () => {
  it('reads the income goal and the sale', () => {
    expect(extractMagic('quantas cotas de HGLG11 para ganhar R$ 1.000 por mês?')).toEqual({ renda_mensal: '1000' });
    // A holding weighed: the shares, or the amount put in (not an income wanted).
    expect(extractMagic('com 300 cotas de hglg11 qto eu ganharia por mes de dividendo')).toEqual({ cotas: 300 });
    expect(extractMagic('se eu investir 10 mil no hglg11 quanto recebo por mes')).toEqual({ valor_investido: '10000' });
    expect(extractMagic('aplicando R$ 5.000,00 no XPML11, quanto rende?')).toEqual({ valor_investido: '5000' });
    expect(extractTaxSale('se eu vender 10 cotas de KNRI11 a R$ 160, quanto pago de imposto?')).toEqual({ quantidade: 10, preco_venda: '160' });
  });
});

describe('risk calculations', () => {
  it('VaR: a list of returns, the confidence and the amount at risk', () => {
    expect(extractFinanceArgs('VaR de 95% para os retornos -2%, 1%, 0,5%, -3% e 2%')).toMatchObject({ operacao: 'var', confianca: '95', retornos: ['-2', '1', '0.5', '-3', '2'] });
    expect(extractFinanceArgs('VaR 99% de R$ 100 mil com volatilidade diária de 1,5%')).toMatchObject({
      operacao: 'var',
      confianca: '99',
      volatilidade: '1.5',
      valor_inicial: '100000',
    });
  });

  it('Sharpe: return, risk-free rate and volatility by their words', () => {
    expect(extractFinanceArgs('Sharpe de um fundo com retorno de 14% ao ano, CDI de 10,5% e volatilidade de 6%')).toMatchObject({
      operacao: 'sharpe',
      retorno: '14',
      taxa_livre_risco: '10.5',
      volatilidade: '6',
    });
  });

  it('a bare list answers a call waiting for the cash flows; a bare amount, the asked contribution', () => {
    expect(extractFinanceArgs('-1000, 300, 400 e 500', ['fluxos'])).toMatchObject({ fluxos: ['-1000', '300', '400', '500'] });
    expect(extractFinanceArgs('R$ 500', ['aporte_mensal'])).toMatchObject({ aporte_mensal: '500' });
  });
});
