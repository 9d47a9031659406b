import { loadToolGatePolicy } from '@cota/tool-gating';
import { extractArgs } from './index';
import { extractFinanceArgs } from './finance-args';
import { findMentions } from './numbers';
import { extractEmail, extractReportFilters, extractReportId, extractTickers } from './text-args';
import { normalizeText } from '@cota/text';
import { extractRatioArgs } from './ratio-args';
import { extractTaxSale } from './personal-args';

const policy = loadToolGatePolicy();

describe('pt-BR numbers', () => {
  it('keeps the sign of a rate: "-100%" is not 100%', () => {
    expect(extractFinanceArgs('quanto rendem R$ 1000 a -100% ao ano por 2 anos?').taxa).toBe('-100');
    expect(extractFinanceArgs('quanto rendem R$ 1000 a −2,5% ao mês por 2 anos?').taxa).toBe('-2.5');
  });

  it('reads a number in scientific notation as one number, handed on as written so the gate refuses it', () => {
    expect(extractFinanceArgs('juros compostos de R$ 1e300 a 1% ao mês por 12 meses').valor_inicial).toBe('1e300');
    expect(extractFinanceArgs('juros compostos de R$ 1e+300 a 1% ao mês por 12 meses').valor_inicial).toBe('1e+300');
    expect(extractFinanceArgs('qual a TIR dos fluxos -1000, 1e3, 400 e 500?').fluxos).toEqual(['-1000', '1e3', '400', '500']);
  });

  it('repeats one amount said for a term, never a list said for it', () => {
    expect(extractFinanceArgs('tir de um investimento de 1000 que me devolve 300 nos proximos 3 anos').fluxos).toEqual(['-1000', '300', '300', '300']);
    expect(extractFinanceArgs('tir de um investimento de 1000 que me devolve 300, 400 e 500 nos proximos 3 anos').fluxos).toEqual(['-1000', '300', '400', '500']);
  });

  it('finds money with multipliers, rates with periods and durations', () => {
    const m = findMentions(normalizeText('R$ 10 mil a 1,5% a.m. por 2 anos, depois R$ 1,2 milhão a 12% ao ano em 1 ano e 6 meses'));
    expect(m.map((x) => [x.kind, 'value' in x ? x.value.toFixed() : (x as { months: number }).months, 'period' in x ? x.period : null])).toEqual([
      ['money', '10000', null],
      ['rate', '0.015', 'mes'],
      ['duration', 24, null],
      ['money', '1200000', null],
      ['rate', '0.12', 'ano'],
      ['duration', 18, null],
    ]);
  });

  it('ignores digits inside tickers, ids and e-mails', () => {
    expect(findMentions(normalizeText('hglg11 e rel_20260114_095826_ab12cd para joao2@x.com'))).toEqual([]);
  });
});

describe('finance arguments', () => {
  it('reads the product example', () => {
    expect(extractFinanceArgs('quanto rende R$ 10.000 a 1% ao mês por 24 meses?')).toEqual({
      operacao: 'juros_compostos',
      valor_inicial: '10000',
      taxa: '1',
      taxa_periodo: 'mes',
      taxa_periodo_informado: true,
      prazo_meses: 24,
      prazo_unidade: 'meses',
    });
  });

  it('monthly contributions make it a projection', () => {
    expect(extractFinanceArgs('Se eu investir R$ 5 mil e aportar R$ 500 por mês a 0,8% a.m. durante 10 anos, quanto terei?')).toMatchObject({
      operacao: 'projecao_aportes',
      valor_inicial: '5000',
      aporte_mensal: '500',
      taxa: '0.8',
      prazo_meses: 120,
      prazo_unidade: 'anos',
    });
  });

  it('a monthly income wanted at a dividend yield asks for the capital that pays it', () => {
    expect(extractFinanceArgs('quanto preciso ter investido pra receber 2 mil por mes com dy de 12% ao ano')).toMatchObject({
      operacao: 'capital_para_renda',
      renda_mensal: '2000',
      taxa: '12',
      taxa_periodo: 'ano',
    });
    expect(extractFinanceArgs('quanto preciso investir para ter renda de 1000 por mes com dy de 0,8% ao mes')).toMatchObject({
      operacao: 'capital_para_renda',
      renda_mensal: '1000',
      taxa: '0.8',
    });
    // (an amount per month at a dividend yield is an income, whatever verb says it)
    expect(extractFinanceArgs('quanto preciso investir pra ter 5 mil por mes com DY de 0,9% ao mes?')).toMatchObject({
      operacao: 'capital_para_renda',
      renda_mensal: '5000',
      taxa: '0.9',
    });
    // (a term named is a projection, not a yield)
    expect(extractFinanceArgs('quanto rende 10 mil por mes a 1% ao mes por 2 anos').operacao).not.toBe('capital_para_renda');
    expect(extractFinanceArgs('se eu aportar 500 por mes num fii com dy de 0,8% ao mes quanto tenho em 10 anos').operacao).toBe('projecao_aportes');
  });

  // Arguments as people say them: an income "pra ter", a yield "rendimento de" before the income, a dividend changed in an
  // edit, contributions "no fim de cada mês", what a capital yields "por mês" (one month of it) or "por ano".
  it.each<[string, string[], Record<string, unknown>]>([
    ['qtas cotas de um fundo que paga 0,10 por cota eu preciso pra ter 1000 reais por mes?', [], { operacao: 'cotas_para_renda', renda_mensal: '1000' }],
    ['Quanto preciso ter investido num FII com rendimento de 0,8% ao mês pra receber R$ 5.000 por mês?', [], { operacao: 'capital_para_renda', renda_mensal: '5000', taxa: '0.8' }],
    ['e se o dividendo cair pra 0,09?', ['provento', 'renda_mensal', 'preco_cota'], { provento: '0.09' }],
    ['Se eu investir R$ 500 no fim de cada mês durante 10 anos a 0,8% ao mês, quanto acumulo?', [], { operacao: 'projecao_aportes', aporte_mensal: '500' }],
    ['quanto R$ 50 mil rende por mês num FII que paga 0,85% ao mês?', [], { operacao: 'juros_compostos', valor_inicial: '50000', prazo_meses: 1 }],
    ['quanto rende 100 mil por ano a 12% ao ano?', [], { prazo_meses: 12, prazo_unidade: 'anos' }],
    // (a term said wins)
    ['quanto rende 100 mil a 1% ao mes em 2 anos?', [], { prazo_meses: 24 }],
  ])('reads "%s"', (question, editing, expected) => {
    expect(extractFinanceArgs(question, [], editing)).toMatchObject(expected);
  });

  it('asks for the term when none is said and no period is asked of a yield', () => {
    expect(extractFinanceArgs('quanto rende 100 mil a 1% ao mes?').prazo_meses).toBeUndefined();
  });

  it('reads a contribution "todo fim de mês" and a yield a fund "paga"', () => {
    expect(extractFinanceArgs('se eu investir 1000 reais todo fim de mes a 1% ao mes por 5 anos, quanto vou ter?')).toMatchObject({
      operacao: 'projecao_aportes',
      aporte_mensal: '1000',
      prazo_meses: 60,
    });
    expect(extractFinanceArgs('quero ter 3 mil por mes de renda com fii que paga 0,75% ao mes, quanto preciso ter investido?')).toMatchObject({
      operacao: 'capital_para_renda',
      renda_mensal: '3000',
      taxa: '0.75',
    });
  });

  it('reads the price of a fund that "custa" a value, and a price that falls to another', () => {
    expect(extractFinanceArgs('um fundo custa 100 reais e paga 0,85 por mes. qual o dy anual?')).toMatchObject({ operacao: 'dividend_yield', preco_cota: '100', provento: '0.85' });
    expect(extractFinanceArgs('e se o preco cair pra 85 mantendo o rendimento?', [], ['operacao', 'preco_cota', 'provento'])).toEqual({ preco_cota: '85' });
  });

  it('a real return reads the return and the inflation said with it, and an edit of either', () => {
    expect(extractFinanceArgs('se meu fii rendeu 12% no ano e o IPCA foi 4,5%, qual foi o ganho real?')).toEqual({ operacao: 'retorno_real', taxa: '12', inflacao: '4.5' });
    expect(extractFinanceArgs('qual o retorno real de 10% com inflacao de 4%?')).toEqual({ operacao: 'retorno_real', taxa: '10', inflacao: '4' });
    expect(extractFinanceArgs('e se o ipca fosse 6%?', [], ['operacao', 'taxa', 'inflacao'])).toEqual({ inflacao: '6' });
    expect(extractFinanceArgs('e se tivesse rendido 15%?', [], ['operacao', 'taxa', 'inflacao'])).toEqual({ taxa: '15' });
  });

  it('a total return reads the cost, the value now and the income by the words around each amount, and an edit of the value', () => {
    expect(extractFinanceArgs('investi 20 mil, hoje minhas cotas valem 23.500 e ja recebi 1.800 de dividendos. qual meu retorno total em %?')).toEqual({
      operacao: 'retorno_total',
      valor_inicial: '20000',
      valor_final: '23500',
      proventos: '1800',
    });
    expect(extractFinanceArgs('e se hoje valessem 19 mil?', [], ['operacao', 'valor_inicial', 'valor_final', 'proventos'])).toEqual({ valor_final: '19000' });
  });

  it('reads a fund "com cota 95", and an edit of a ratio that states the price of the shares', () => {
    expect(extractFinanceArgs('qual o DY mensal de um fundo com cota 95 que paga 0,85 por mes?')).toMatchObject({ operacao: 'dividend_yield', preco_cota: '95', provento: '0.85' });
    expect(extractFinanceArgs('e quanto isso custaria com a cota a R$ 9,39?', [], ['operacao', 'provento', 'provento_periodo', 'renda_mensal'])).toEqual({ preco_cota: '9.39' });
  });

  it('an edit of the capital for an income changes the income wanted', () => {
    const editing = ['operacao', 'renda_mensal', 'taxa', 'taxa_periodo'];
    expect(extractFinanceArgs('e pra ter 10 mil com esse 1%?', [], editing)).toMatchObject({ renda_mensal: '10000', taxa: '1' });
    expect(extractFinanceArgs('e se eu quiser 3 mil?', [], editing)).toEqual({ renda_mensal: '3000' });
  });

  it('a goal without contribution asks for the required contribution', () => {
    expect(extractFinanceArgs('Quanto preciso investir por mês para ter R$ 1 milhão em 20 anos a 12% ao ano?')).toMatchObject({
      operacao: 'aporte_necessario',
      meta: '1000000',
      taxa: '12',
      taxa_periodo: 'ano',
      prazo_meses: 240,
    });
  });

  it('present value', () => {
    expect(extractFinanceArgs('quanto vale hoje R$ 20 mil daqui a 3 anos com juros de 10% ao ano?')).toMatchObject({
      operacao: 'valor_presente',
      valor_inicial: '20000',
      taxa: '10',
      prazo_meses: 36,
    });
  });

  it('rate conversion, and a rate without period defaults to monthly but says so', () => {
    expect(extractFinanceArgs('quanto é 1% ao mês ao ano?')).toMatchObject({ operacao: 'conversao_taxa', taxa: '1', taxa_periodo: 'mes' });
    expect(extractFinanceArgs('converter 12% a.a. para taxa mensal')).toMatchObject({ operacao: 'conversao_taxa', taxa: '12', taxa_periodo: 'ano' });
    expect(extractFinanceArgs('R$ 1000 a 2% por 5 meses')).toMatchObject({ taxa_periodo: 'mes', taxa_periodo_informado: false });
  });

  it('other common phrasings', () => {
    expect(extractFinanceArgs('Quanto terei se investir 500 reais por mês durante 5 anos a 1% ao mês?')).toMatchObject({
      operacao: 'projecao_aportes',
      aporte_mensal: '500',
      prazo_meses: 60,
    });
    expect(extractFinanceArgs('quanto preciso guardar por mês para juntar 100 mil em 5 anos com juros de 1% ao mês')).toMatchObject({
      operacao: 'aporte_necessario',
      meta: '100000',
      taxa: '1',
      prazo_meses: 60,
    });
    expect(extractFinanceArgs('Se eu aplicar R$ 20.000,00 hoje rendendo 0,9% a.m., quanto terei em 3 anos?')).toMatchObject({
      operacao: 'juros_compostos',
      valor_inicial: '20000',
      taxa: '0.9',
      prazo_meses: 36,
    });
  });

  it('cash flows for NPV and IRR', () => {
    expect(extractFinanceArgs('qual o VPL dos fluxos -1000, 500 e 700 a 10% ao ano?')).toEqual({
      operacao: 'vpl',
      fluxos: ['-1000', '500', '700'],
      taxa: '10',
      taxa_periodo: 'ano',
      taxa_periodo_informado: true,
    });
    expect(extractFinanceArgs('Qual a TIR de um investimento de R$ 100 mil com retornos de R$ 30 mil, 40 mil e 50 mil?')).toMatchObject({
      operacao: 'tir',
      fluxos: ['-100000', '30000', '40000', '50000'],
    });
    expect(extractFinanceArgs('calcule a taxa interna de retorno do fluxo de caixa: -1.000,00; 300,50; 800')).toMatchObject({
      operacao: 'tir',
      fluxos: ['-1000', '300.5', '800'],
    });
  });

  it('no numbers, no operation', () => {
    expect(extractFinanceArgs('faça uma conta pra mim')).toEqual({});
  });
});

describe('report and e-mail arguments', () => {
  it('reads e-mails, report ids and tickers', () => {
    expect(extractEmail('manda para Fulano.Silva@Exemplo.com.br por favor')).toBe('fulano.silva@exemplo.com.br');
    expect(extractReportId('filtre o rel_20260114_095826_ab12cd')).toBe('rel_20260114_095826_ab12cd');
    expect(extractReportId('filtre o relatório')).toBeUndefined();
    expect(extractTickers('só hglg11 e XPLG11')).toEqual(['HGLG11', 'XPLG11']);
  });

  it('reads segment and section filters with accents or without', () => {
    expect(extractReportFilters('filtre só os de logística', policy.filters.sections, policy.filters.segments)).toEqual({ segmento: 'logistica' });
    expect(extractReportFilters('mostra só os dividendos de shoppings', policy.filters.sections, policy.filters.segments)).toEqual({
      secao: 'proventos',
      segmento: 'shoppings',
    });
    expect(extractReportFilters('só as notícias do HGLG11', policy.filters.sections, policy.filters.segments)).toEqual({ secao: 'noticias', tickers: ['HGLG11'] });
    expect(extractReportFilters('filtre', policy.filters.sections, policy.filters.segments)).toEqual({});
  });

  it('runs the extractors a contract lists', () => {
    expect(extractArgs('manda o rel_20260114_095826_ab12cd para a@b.com', ['report_id', 'email'], policy)).toEqual({
      report_id: 'rel_20260114_095826_ab12cd',
      destinatario: 'a@b.com',
    });
  });
});

describe('a fund ratio and a sale told in numbers', () => {
  const ratio = (q: string) => extractRatioArgs(normalizeText(q));

  it('reads the price, the dividend with its period and the book value by the words around each', () => {
    expect(ratio('Um FII paga R$ 1,10 por cota ao mês e a cota está em R$ 160,00. Qual o dividend yield mensal?')).toEqual({
      operacao: 'dividend_yield',
      provento: '1.1',
      provento_periodo: 'mes',
      preco_cota: '160',
    });
    expect(ratio('cota a 95 reais e valor patrimonial por cota de 105, qual o p/vp?')).toEqual({ operacao: 'pvp', vp_cota: '105', preco_cota: '95' });
    expect(ratio('quantas cotas de um fundo que paga R$ 0,10 por cota preciso pra ganhar mil reais por mês?')).toMatchObject({
      operacao: 'cotas_para_renda',
      provento: '0.1',
      renda_mensal: '1000',
    });
    expect(ratio('magic number: com a cota a R$ 157,60 e dividendo de R$ 1,10 por mês, quantas cotas pra que o rendimento compre uma cota nova?')).toMatchObject({
      operacao: 'cotas_para_renda',
      provento: '1.1',
      preco_cota: '157.6',
      renda_mensal: '157.6',
    });
    expect(ratio('quantas cotas de um fundo que paga R$ 0,10 por cota preciso pra receber R$ 1.000 mensais, e quanto custaria a R$ 9,39 cada?')).toMatchObject({
      operacao: 'cotas_para_renda',
      preco_cota: '9.39',
    });
    expect(ratio('se o MXRF11 está a R$ 9,39 e paga R$ 0,10 por cota ao mês, quantas cotas preciso para receber R$ 500 por mês?')).toMatchObject({
      operacao: 'cotas_para_renda',
      preco_cota: '9.39',
      fundo: 'MXRF11',
    });
    // (a P/VP named with only its book value is the ratio still missing its price: a follow-up of a calculation)
    expect(ratio('e o p/vp se o valor patrimonial por cota for 162,22?')).toEqual({ operacao: 'pvp', vp_cota: '162.22' });
  });

  it('a ceiling price from a dividend and the yield wanted', () => {
    expect(ratio('preço teto: dividendo anual de 9,60 e quero yield minimo de 8%')).toEqual({
      operacao: 'preco_teto',
      provento: '9.6',
      provento_periodo: 'ano',
      taxa: '8',
      taxa_periodo: 'ano',
    });
  });

  it("states nothing for a fund's own figures or a year", () => {
    expect(ratio('qual o dy do hglg11?')).toEqual({});
    expect(ratio('se a cota custasse R$ 10, qual seria o dy desses proventos de 2024?')).toEqual({ preco_cota: '10' });
  });

  it("a sale's prices go by the verb nearest each: the purchase's and the sale's", () => {
    expect(extractTaxSale('comprei 200 cotas a R$ 98 e vendi a R$ 105, quanto pago de IR?')).toEqual({ quantidade: 200, preco_compra: '98', preco_venda: '105' });
    expect(extractTaxSale('vendi 100 cotas de HGLG11 a 165 que tinha comprado a 150')).toEqual({ quantidade: 100, preco_venda: '165', preco_compra: '150' });
    expect(extractTaxSale('se eu vender 10 cotas de KNRI11 a R$ 160')).toEqual({ quantidade: 10, preco_venda: '160' });
    // (a gain said as such is the gain, not a price)
    expect(extractTaxSale('vendi cotas de fii com lucro de 3.500 reais, quanto pago de ir?')).toEqual({ lucro: '3500' });
    // (a gain per share is the sale's gain times its shares)
    expect(extractTaxSale('vendi 100 cotas de um fii com lucro de 3 reais por cota, quanto de IR?')).toEqual({ lucro: '300' });
    // (the average price said with a verb is the purchase's)
    expect(extractTaxSale('Vendi 100 cotas a R$ 110 e meu preço médio era R$ 100. Quanto de IR devo?')).toEqual({ quantidade: 100, preco_venda: '110', preco_compra: '100' });
  });
});
