import { CotaError } from '@cota/contracts';
import { calculateFinance } from './finance-tool';
import { formatRate } from './format';

describe('pt-BR formatting', () => {
  it('formats rates the Brazilian way, without trailing zeros', () => {
    expect(formatRate('0.015')).toBe('1,5%');
    expect(formatRate('0.126825030131969720661201')).toBe('12,6825%');
    expect(formatRate('0.01')).toBe('1%');
  });
});

describe('calcular_financas', () => {
  it('the product example: R$ 10.000 at 1% a month for 24 months', () => {
    const r = calculateFinance({
      operacao: 'juros_compostos',
      valor_inicial: '10000',
      taxa: '1',
      taxa_periodo: 'mes',
      taxa_periodo_informado: true,
      prazo_meses: 24,
      prazo_unidade: 'meses',
    });
    expect(r.resultado).toMatchObject({ montante: '12697.35', juros: '2697.35', rendimento_pct: '26.97', periodos: '24' });
    expect(r.valores_exatos.montante).toBe('12697.34648531914468903714880493455422105');
    expect(r.text).toContain('R$ 10.000,00 a 1% ao mês por 24 meses rendem R$ 2.697,35 de juros: o montante final é R$ 12.697,35.');
    expect(r.text).toContain('M = C × (1 + i)^n');
    expect(r.text).toContain('1,26973465');
  });

  it('a yearly rate over whole years compounds yearly; over months it is converted and said so', () => {
    const years = calculateFinance({ operacao: 'juros_compostos', valor_inicial: '1000', taxa: '10', taxa_periodo: 'ano', prazo_meses: 24, prazo_unidade: 'anos' });
    expect(years.resultado.montante).toBe('1210.00');
    expect(years.text).toContain('por 2 anos');
    const months = calculateFinance({ operacao: 'juros_compostos', valor_inicial: '1000', taxa: '10', taxa_periodo: 'ano', prazo_meses: 18, prazo_unidade: 'meses' });
    // 1000 × 1.1^(18/12) = 1153.6897...
    expect(months.resultado.montante).toBe('1153.69');
    expect(months.text).toMatch(/equivale a 0,7974\d*% ao mês/);
  });

  it('projection with monthly contributions, with a yearly table', () => {
    const r = calculateFinance({ operacao: 'projecao_aportes', valor_inicial: '1000', aporte_mensal: '500', taxa: '1', taxa_periodo: 'mes', prazo_meses: 24 });
    // 1000·1.01^24 + 500·(1.01^24 − 1)/0.01 = 1269.7346 + 13486.7324 = 14756.47
    expect(r.resultado).toMatchObject({ montante: '14756.47', total_aportado: '13000.00', juros: '1756.47' });
    expect(r.tabela!.map((t) => t.mes)).toEqual([12, 24]);
    expect(r.tabela![1].saldo).toBe('14756.47');
    expect(r.text).toContain('| Mês | Aportado | Juros acumulados | Saldo |\n| --- |');
  });

  it('required monthly contribution for a goal', () => {
    const r = calculateFinance({ operacao: 'aporte_necessario', meta: '100000', taxa: '1', taxa_periodo: 'mes', prazo_meses: 24 });
    expect(r.resultado.aporte_mensal).toBe('3707.35');
    expect(r.text).toContain('você precisa aportar R$ 3.707,35 por mês');
    const done = calculateFinance({ operacao: 'aporte_necessario', meta: '1000', valor_inicial: '5000', taxa: '1', taxa_periodo: 'mes', prazo_meses: 12 });
    expect(done.resultado.aporte_mensal).toBe('0.00');
  });

  it('the capital that pays a monthly income at a dividend yield (a yearly DY is twelve months of income)', () => {
    expect(calculateFinance({ operacao: 'capital_para_renda', renda_mensal: '2000', taxa: '12', taxa_periodo: 'ano' }).resultado.capital).toBe('200000.00');
    const monthly = calculateFinance({ operacao: 'capital_para_renda', renda_mensal: '1000', taxa: '0.8', taxa_periodo: 'mes' });
    expect(monthly.resultado.capital).toBe('125000.00');
    expect(monthly.text).toContain('você precisa ter R$ 125.000,00 investidos');
    expect(() => calculateFinance({ operacao: 'capital_para_renda', renda_mensal: '1000', taxa: '0', taxa_periodo: 'mes' })).toThrow('maior que zero');
    expect(() => calculateFinance({ operacao: 'capital_para_renda', taxa: '1', taxa_periodo: 'mes' })).toThrow('da renda mensal desejada');
  });

  it('the real return of a nominal one over the inflation of the same period (Fisher), not the simple difference', () => {
    // (1 + 12%) ÷ (1 + 4,5%) − 1 = 7,1770% (not 7,5%)
    const real = calculateFinance({ operacao: 'retorno_real', taxa: '12', inflacao: '4.5' });
    expect(real.resultado.retorno_real).toBe('7.177');
    expect(real.text).toContain('o ganho real foi de 7,18%');
    expect(real.text).toContain('A diferença simples, 7,5%, superestima o ganho real');
    // (a return below the inflation is a real loss)
    expect(calculateFinance({ operacao: 'retorno_real', taxa: '3', inflacao: '5' }).resultado.retorno_real).toBe('-1.9048');
    expect(() => calculateFinance({ operacao: 'retorno_real', taxa: '12' })).toThrow('da inflação do mesmo período');
  });

  it("an investment's total return: its value now and the income it paid, over what it cost", () => {
    // (23.500 + 1.800 − 20.000) ÷ 20.000 = 26,5%: 17,5% by price, 9% of income
    const total = calculateFinance({ operacao: 'retorno_total', valor_inicial: '20000', valor_final: '23500', proventos: '1800' });
    expect(total.resultado).toEqual({ retorno_total: '26.5', ganho: '5300.00' });
    expect(total.text).toContain('o retorno total é de 26,5% (ganho de R$ 5.300,00)');
    expect(total.text).toContain('Só pelo preço, 17,5%; os proventos somam 9%.');
    expect(calculateFinance({ operacao: 'retorno_total', valor_inicial: '10000', valor_final: '9000' }).resultado.retorno_total).toBe('-10');
    expect(() => calculateFinance({ operacao: 'retorno_total', valor_inicial: '10000' })).toThrow('do valor atual do investimento');
  });

  it('present value and rate conversion', () => {
    expect(
      calculateFinance({ operacao: 'valor_presente', valor_inicial: '1210', taxa: '10', taxa_periodo: 'ano', prazo_meses: 24, prazo_unidade: 'anos' }).resultado.valor_presente,
    ).toBe('1000.00');
    const conv = calculateFinance({ operacao: 'conversao_taxa', taxa: '1', taxa_periodo: 'mes' });
    expect(conv.resultado.taxa_anual).toBe('0.12682503');
    expect(conv.text).toContain('1% ao mês equivalem a 12,6825% ao ano');
    expect(calculateFinance({ operacao: 'conversao_taxa', taxa: '12', taxa_periodo: 'ano' }).resultado.taxa_mensal).toBe('0.00948879');
  });

  it('NPV and IRR of cash flows', () => {
    const v = calculateFinance({ operacao: 'vpl', fluxos: ['-1000', '500', '700'], taxa: '10', taxa_periodo: 'ano', taxa_periodo_informado: true });
    // -1000 + 500/1.1 + 700/1.21 = 33.0578...
    expect(v.resultado.vpl).toBe('33.06');
    expect(v.text).toContain('O VPL dos fluxos (-R$ 1.000,00; R$ 500,00; R$ 700,00) à taxa de 10% ao ano é R$ 33,06.');
    expect(v.text).toContain('VPL positivo');
    const t = calculateFinance({ operacao: 'tir', fluxos: ['-1000', '1100'] });
    expect(t.resultado).toEqual({ tir: '0.1', tir_pct: '10.00' });
    expect(t.text).toContain('A TIR dos fluxos (-R$ 1.000,00; R$ 1.100,00) é 10,00% por período**');
    expect(() => calculateFinance({ operacao: 'tir', fluxos: ['100', '200'] })).toThrow(/Não existe TIR/);
    expect(() => calculateFinance({ operacao: 'vpl', fluxos: ['-100'], taxa: '10' })).toThrow(/dois fluxos/);
  });

  it('missing inputs are explained in pt-BR with an example', () => {
    let err: unknown;
    try {
      calculateFinance({ operacao: 'juros_compostos', taxa: '1' });
    } catch (e) {
      err = e;
    }
    expect(CotaError.is(err, 'BAD_REQUEST')).toBe(true);
    expect((err as Error).message).toBe('Para esse cálculo preciso do valor inicial e do prazo. Exemplo: "quanto rende R$ 10.000 a 1% ao mês por 24 meses?".');
    expect(() => calculateFinance({ operacao: 'juros_compostos', valor_inicial: '100', taxa: '1', prazo_meses: 0 })).toThrow(/prazo/);
    expect(() => calculateFinance({ operacao: 'xyz' })).toThrow(/Não sei fazer/);
  });
});

describe('reference values of the issue and risk measures', () => {
  it('IRR of -1000, 300, 400, 500 is 8,90%; their NPV at 10% is -21,04', () => {
    expect(calculateFinance({ operacao: 'tir', fluxos: ['-1000', '300', '400', '500'] }).resultado.tir_pct).toBe('8.90');
    const npv = calculateFinance({ operacao: 'vpl', fluxos: ['-1000', '300', '400', '500'], taxa: '10', taxa_periodo: 'ano' });
    expect(npv.resultado.vpl).toBe('-21.04');
    expect(npv.text).toContain('-R$ 21,04');
  });

  it('parametric VaR: z(95%) × σ × amount; historical VaR: the k-th worst return', () => {
    const p = calculateFinance({ operacao: 'var', volatilidade: '2', confianca: '95', valor_inicial: '100000' });
    expect(p.resultado.z).toBe('1.6449');
    expect(p.resultado.var_valor).toBe('3289.71');
    const h = calculateFinance({ operacao: 'var', retornos: ['-2', '1', '0.5', '-3', '2', '1.5', '-1', '0.2', '0.8', '-0.5'], confianca: '90' });
    // 10 returns at 90%: k = ceil(0.1 × 10) = 1, the worst (-3%).
    expect(h.resultado.var_pct).toBe('3.00');
  });

  it('Sharpe from return, risk-free rate and volatility, and from a series', () => {
    expect(calculateFinance({ operacao: 'sharpe', retorno: '14', taxa_livre_risco: '10.5', volatilidade: '6' }).resultado.sharpe).toBe('0.5833');
    // mean 1%, sample σ 0,2%, rf 0,9% → 0,5.
    expect(calculateFinance({ operacao: 'sharpe', retornos: ['0.8', '1', '1.2'], taxa_livre_risco: '0.9' }).resultado.sharpe).toBe('0.5');
  });

  it('refuses what is not a VaR or a Sharpe', () => {
    expect(() => calculateFinance({ operacao: 'var', volatilidade: '2', confianca: '150' })).toThrow(/confiança/);
    expect(() => calculateFinance({ operacao: 'sharpe', retorno: '10', volatilidade: '0' })).toThrow(/volatilidade zero/);
  });
});
