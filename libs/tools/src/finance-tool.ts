import { CotaError, type FinanceToolArgs } from '@cota/contracts';
import {
  Dec,
  dec,
  futureValue,
  futureValueWithContributions,
  growthFactor,
  historicalVaR,
  inverseNormal,
  mean,
  sampleStdDev,
  internalRateOfReturn,
  monthlyToYearly,
  netPresentValue,
  presentValue,
  projectionWithContributions,
  requiredContribution,
  toCents,
  yearlyToMonthly,
} from '@cota/finance';
import { formatDecimal, formatMoney, formatPercent } from '@cota/text';
import { formatRate } from './format';
import { amount, exact, EXAMPLES, type FinanceResult, need } from './calculation';
import { RATIO_OPERATIONS } from './fund-ratios';

export type { FinanceResult };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Term as the person said it ("2 anos") and in months. */
function termText(args: FinanceToolArgs): string {
  const m = args.prazo_meses!;
  return args.prazo_unidade === 'anos' && m % 12 === 0 ? plural(m / 12, 'ano', 'anos') : plural(m, 'mês', 'meses');
}

interface Periods {
  rate: Dec;
  n: number;
  unit: 'mês' | 'ano';
  notes: string[];
}

/**
 * The rate and number of periods the formula uses. A yearly rate over whole years compounds
 * yearly; otherwise everything runs in months, a yearly rate becoming its equivalent monthly
 * rate (1 + i_a)^(1/12) − 1, which the answer states.
 */
function periods(args: FinanceToolArgs, monthly: boolean): Periods {
  const rate = dec(args.taxa!);
  if (rate.lte(-1)) throw new CotaError('BAD_REQUEST', 'A taxa de juros precisa ser maior que -100%.');
  const months = args.prazo_meses!;
  if (!Number.isInteger(months) || months <= 0 || months > 1200) throw new CotaError('BAD_REQUEST', 'O prazo precisa ser de 1 mês a 100 anos.');
  const notes: string[] = [];
  if (args.taxa_periodo_informado === false) notes.push('A taxa foi considerada ao mês, porque o período não foi informado.');
  if (args.taxa_periodo === 'ano') {
    if (!monthly && months % 12 === 0) return { rate, n: months / 12, unit: 'ano', notes };
    const m = yearlyToMonthly(rate);
    notes.push(`A taxa de ${formatRate(rate)} ao ano equivale a ${formatRate(m, 6)} ao mês (juros compostos: (1 + i_a)^(1/12) − 1).`);
    return { rate: m, n: months, unit: 'mês', notes };
  }
  return { rate, n: months, unit: 'mês', notes };
}

const cents = (d: Dec) => toCents(d).toFixed(2);
const rateAsText = (args: FinanceToolArgs) => `${formatRate(args.taxa!)} ${args.taxa_periodo === 'ano' ? 'ao ano' : 'ao mês'}`;

function inputs(args: FinanceToolArgs): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const k of ['valor_inicial', 'aporte_mensal', 'meta', 'renda_mensal', 'taxa', 'taxa_periodo', 'prazo_meses'] as const) {
    if (args[k] !== undefined && args[k] !== null) out[k] = args[k] as string | number;
  }
  return out;
}

function compound(args: FinanceToolArgs): FinanceResult {
  need(args, 'juros_compostos', ['valor_inicial', 'taxa', 'prazo_meses']);
  const pv = amount('valor_inicial', args.valor_inicial, false);
  const p = periods(args, false);
  const factor = growthFactor(p.rate, p.n);
  const fv = futureValue(pv, p.rate, p.n);
  const interest = fv.minus(pv);
  const periodReturn = factor.minus(1);
  const text = [
    `**${formatMoney(pv)} a ${rateAsText(args)} por ${termText(args)} rendem ${formatMoney(interest)} de juros: o montante final é ${formatMoney(fv)}.**`,
    `Fórmula dos juros compostos: M = C × (1 + i)^n`,
    `M = ${formatMoney(pv)} × (1 + ${formatDecimal(p.rate.times(100), 6, true)}%)^${p.n} = ${formatMoney(pv)} × ${formatDecimal(factor, 8)} = **${formatMoney(fv)}**`,
    `Rendimento no período: ${formatRate(periodReturn)} (juros = M − C = ${formatMoney(interest)}).`,
    ...p.notes,
    'Cálculo exato com decimal.js; valores arredondados ao centavo só na apresentação. Não considera impostos, taxas ou inflação.',
  ].join('\n\n');
  return {
    title: 'Juros compostos',
    operacao: 'juros_compostos',
    entradas: inputs(args),
    resultado: { montante: cents(fv), juros: cents(interest), rendimento_pct: toCents(periodReturn.times(100)).toFixed(2), periodos: String(p.n), taxa_por_periodo: exact(p.rate) },
    valores_exatos: { montante: exact(fv), juros: exact(interest), fator: exact(factor) },
    formula: 'M = C × (1 + i)^n',
    premissas: p.notes,
    text,
  };
}

function projection(args: FinanceToolArgs): FinanceResult {
  need(args, 'projecao_aportes', ['aporte_mensal', 'taxa', 'prazo_meses']);
  const pv = amount('valor_inicial', args.valor_inicial);
  const pmt = amount('aporte_mensal', args.aporte_mensal, false);
  const p = periods(args, true);
  const fv = futureValueWithContributions(pv, pmt, p.rate, p.n);
  const invested = pv.plus(pmt.times(p.n));
  const interest = fv.minus(invested);
  const rows = projectionWithContributions(pv, pmt, p.rate, p.n);
  const table = rows
    .filter((r) => r.period % 12 === 0 || r.period === p.n)
    .map((r) => ({ mes: r.period, aportado: cents(r.totalContributed), juros_acumulados: cents(r.balance.minus(r.totalContributed)), saldo: cents(r.balance) }));
  const start = pv.isZero() ? '' : `${formatMoney(pv)} iniciais e `;
  const text = [
    `**Com ${start}aportes de ${formatMoney(pmt)} por mês a ${rateAsText(args)}, em ${termText(args)} você terá ${formatMoney(fv)}.**`,
    `Total aportado: ${formatMoney(invested)}; juros: ${formatMoney(interest)}.`,
    'Fórmula (aportes no fim de cada mês): M = C × (1 + i)^n + A × ((1 + i)^n − 1) / i',
    `M = ${formatMoney(pv)} × (1 + i)^${p.n} + ${formatMoney(pmt)} × ((1 + i)^${p.n} − 1) / i, com i = ${formatRate(p.rate, 6)} ao mês`,
    ...(table.length > 1
      ? [
          [
            '| Mês | Aportado | Juros acumulados | Saldo |',
            '| --- | --- | --- | --- |',
            ...table.map((t) => `| ${t.mes} | ${formatMoney(t.aportado)} | ${formatMoney(t.juros_acumulados)} | ${formatMoney(t.saldo)} |`),
          ].join('\n'),
        ]
      : []),
    ...p.notes,
    'Cálculo exato com decimal.js; não considera impostos, taxas ou inflação.',
  ].join('\n\n');
  return {
    title: 'Projeção com aportes mensais',
    operacao: 'projecao_aportes',
    entradas: inputs(args),
    resultado: { montante: cents(fv), total_aportado: cents(invested), juros: cents(interest), periodos: String(p.n), taxa_mensal: exact(p.rate) },
    valores_exatos: { montante: exact(fv), juros: exact(interest) },
    formula: 'M = C × (1 + i)^n + A × ((1 + i)^n − 1) / i',
    premissas: p.notes,
    tabela: table,
    text,
  };
}

function goal(args: FinanceToolArgs): FinanceResult {
  need(args, 'aporte_necessario', ['meta', 'taxa', 'prazo_meses']);
  const target = amount('meta', args.meta, false);
  const pv = amount('valor_inicial', args.valor_inicial);
  const p = periods(args, true);
  const pmt = requiredContribution(target, pv, p.rate, p.n);
  const invested = pv.plus(pmt.times(p.n));
  const start = pv.isZero() ? '' : ` (partindo de ${formatMoney(pv)})`;
  const text = [
    pmt.isZero()
      ? `**${formatMoney(pv)} investidos a ${rateAsText(args)} já chegam a ${formatMoney(target)} em ${termText(args)}: não é preciso aportar.**`
      : `**Para chegar a ${formatMoney(target)} em ${termText(args)} a ${rateAsText(args)}${start}, você precisa aportar ${formatMoney(pmt)} por mês.**`,
    `Total aportado: ${formatMoney(invested)}; o restante (${formatMoney(target.minus(invested).isNegative() ? 0 : target.minus(invested))}) vem dos juros.`,
    'Fórmula (aportes no fim de cada mês): A = (Meta − C × (1 + i)^n) × i / ((1 + i)^n − 1)',
    `Com i = ${formatRate(p.rate, 6)} ao mês e n = ${p.n} meses.`,
    ...p.notes,
    'Cálculo exato com decimal.js; não considera impostos, taxas ou inflação.',
  ].join('\n\n');
  return {
    title: 'Aporte mensal necessário',
    operacao: 'aporte_necessario',
    entradas: inputs(args),
    resultado: { aporte_mensal: cents(pmt), total_aportado: cents(invested), periodos: String(p.n), taxa_mensal: exact(p.rate) },
    valores_exatos: { aporte_mensal: exact(pmt) },
    formula: 'A = (Meta − C × (1 + i)^n) × i / ((1 + i)^n − 1)',
    premissas: p.notes,
    text,
  };
}

function present(args: FinanceToolArgs): FinanceResult {
  need(args, 'valor_presente', ['valor_inicial', 'taxa', 'prazo_meses']);
  const future = amount('valor_inicial', args.valor_inicial, false);
  const p = periods(args, false);
  const pv = presentValue(future, p.rate, p.n);
  const text = [
    `**${formatMoney(future)} daqui a ${termText(args)}, descontados a ${rateAsText(args)}, valem hoje ${formatMoney(pv)}.**`,
    'Fórmula do valor presente: VP = VF / (1 + i)^n',
    `VP = ${formatMoney(future)} / ${formatDecimal(growthFactor(p.rate, p.n), 8)} = **${formatMoney(pv)}**`,
    ...p.notes,
    'Cálculo exato com decimal.js.',
  ].join('\n\n');
  return {
    title: 'Valor presente',
    operacao: 'valor_presente',
    entradas: inputs(args),
    resultado: { valor_presente: cents(pv), desconto: cents(future.minus(pv)), periodos: String(p.n) },
    valores_exatos: { valor_presente: exact(pv) },
    formula: 'VP = VF / (1 + i)^n',
    premissas: p.notes,
    text,
  };
}

function conversion(args: FinanceToolArgs): FinanceResult {
  need(args, 'conversao_taxa', ['taxa']);
  const rate = dec(args.taxa!);
  if (rate.lte(-1)) throw new CotaError('BAD_REQUEST', 'A taxa de juros precisa ser maior que -100%.');
  const fromYear = args.taxa_periodo === 'ano';
  const converted = fromYear ? yearlyToMonthly(rate) : monthlyToYearly(rate);
  const text = [
    fromYear ? `**${formatRate(rate)} ao ano equivalem a ${formatRate(converted, 6)} ao mês.**` : `**${formatRate(rate)} ao mês equivalem a ${formatRate(converted)} ao ano.**`,
    fromYear ? 'Fórmula (juros compostos): i_m = (1 + i_a)^(1/12) − 1' : 'Fórmula (juros compostos): i_a = (1 + i_m)^12 − 1',
    `A conta simples (${fromYear ? 'dividir por 12' : 'multiplicar por 12'}) daria ${formatRate(fromYear ? rate.div(12) : rate.times(12), 6)}, o que ignora os juros sobre juros.`,
    ...(args.taxa_periodo_informado === false ? ['A taxa foi considerada ao mês, porque o período não foi informado.'] : []),
  ].join('\n\n');
  return {
    title: 'Conversão de taxa',
    operacao: 'conversao_taxa',
    entradas: inputs(args),
    resultado: fromYear ? { taxa_mensal: converted.toDecimalPlaces(8).toFixed() } : { taxa_anual: converted.toDecimalPlaces(8).toFixed() },
    valores_exatos: { taxa_convertida: exact(converted) },
    formula: fromYear ? 'i_m = (1 + i_a)^(1/12) − 1' : 'i_a = (1 + i_m)^12 − 1',
    premissas: [],
    text,
  };
}

function flowsOf(args: FinanceToolArgs, op: string): Dec[] {
  need(args, op, ['fluxos']);
  const flows = (args.fluxos ?? []).map((f) => dec(f));
  if (flows.length < 2) throw new CotaError('BAD_REQUEST', `Preciso de pelo menos dois fluxos de caixa. Exemplo: ${EXAMPLES[op]}.`);
  if (flows.length > 600) throw new CotaError('BAD_REQUEST', 'São fluxos demais para um cálculo pela conversa (máximo de 600).');
  return flows;
}

const flowList = (flows: Dec[]) => flows.map((f) => formatMoney(f)).join('; ');

function npv(args: FinanceToolArgs): FinanceResult {
  const flows = flowsOf(args, 'vpl');
  need(args, 'vpl', ['taxa']);
  const rate = dec(args.taxa!);
  if (rate.lte(-1)) throw new CotaError('BAD_REQUEST', 'A taxa de juros precisa ser maior que -100%.');
  const value = netPresentValue(rate, flows);
  const unit = args.taxa_periodo === 'ano' ? 'ano' : 'mês';
  const expanded =
    flows.length <= 6
      ? `VPL = ${flows.map((f, t) => (t === 0 ? formatMoney(f) : `${formatMoney(f)} / (1 + ${formatRate(rate)})^${t}`)).join(' + ')} = **${formatMoney(value)}**`
      : null;
  const text = [
    `**O VPL dos fluxos (${flowList(flows)}) à taxa de ${rateAsText(args)} é ${formatMoney(value)}.**`,
    'Fórmula do valor presente líquido: VPL = Σ FC_t / (1 + i)^t, com o primeiro fluxo em t = 0.',
    ...(expanded ? [expanded] : []),
    value.gt(0)
      ? 'VPL positivo: os fluxos remuneram mais que a taxa considerada.'
      : value.lt(0)
        ? 'VPL negativo: os fluxos não cobrem a taxa considerada.'
        : 'VPL zero: os fluxos rendem exatamente a taxa considerada.',
    `Considera um fluxo por ${unit}, o período da taxa.${args.taxa_periodo_informado === false ? ' A taxa foi considerada ao mês, porque o período não foi informado.' : ''}`,
    'Cálculo exato com decimal.js.',
  ].join('\n\n');
  return {
    title: 'Valor presente líquido (VPL)',
    operacao: 'vpl',
    entradas: { ...inputs(args), fluxos: flows.map((f) => f.toFixed()).join(';') },
    resultado: { vpl: cents(value) },
    valores_exatos: { vpl: exact(value) },
    formula: 'VPL = Σ FC_t / (1 + i)^t',
    premissas: [`Um fluxo por ${unit}.`],
    text,
  };
}

function irr(args: FinanceToolArgs): FinanceResult {
  const flows = flowsOf(args, 'tir');
  const r = internalRateOfReturn(flows);
  if (!r) {
    throw new CotaError(
      'BAD_REQUEST',
      'Não existe TIR para esses fluxos: é preciso ao menos um fluxo negativo (investimento) e um positivo (retorno), e uma taxa entre -99,99% e 1000% por período.',
    );
  }
  const yearly = r.gt(-1) ? monthlyToYearly(r) : null;
  const text = [
    `**A TIR dos fluxos (${flowList(flows)}) é ${formatPercent(r.times(100), 2)} por período** (${formatRate(r, 6)} com mais casas).`,
    'A TIR é a taxa i que zera o valor presente líquido: Σ FC_t / (1 + i)^t = 0 (calculada por Newton-Raphson, com bissecção de reserva).',
    ...(yearly ? [`Se os fluxos forem mensais, equivale a ${formatRate(yearly)} ao ano; se forem anuais, a TIR já é anual.`] : []),
    'Cálculo exato com decimal.js.',
  ].join('\n\n');
  return {
    title: 'Taxa interna de retorno (TIR)',
    operacao: 'tir',
    entradas: { fluxos: flows.map((f) => f.toFixed()).join(';') },
    resultado: { tir: r.toDecimalPlaces(8).toFixed(), tir_pct: toCents(r.times(100)).toFixed(2) },
    valores_exatos: { tir: exact(r) },
    formula: 'Σ FC_t / (1 + TIR)^t = 0',
    premissas: ['A taxa é por período entre os fluxos.'],
    text,
  };
}

const pct = (v: string) => dec(v).div(100);

/** Value at Risk: historical over the returns given, or parametric from a volatility (normal). */
function valueAtRisk(args: FinanceToolArgs): FinanceResult {
  const confidence = pct(args.confianca ?? '95');
  if (confidence.lte(0.5) || confidence.gte(1)) throw new CotaError('BAD_REQUEST', 'O nível de confiança do VaR precisa estar entre 50% e 100% (ex.: 95% ou 99%).');
  const atRisk = args.valor_inicial ? amount('valor_inicial', args.valor_inicial, false) : null;
  const level = formatRate(confidence, 2);
  const money = (v: Dec) => (atRisk ? ` (${formatMoney(v.times(atRisk))} sobre ${formatMoney(atRisk)})` : '');
  if (args.retornos && args.retornos.length > 0) {
    const returns = args.retornos.map(pct);
    if (returns.length < 2) throw new CotaError('BAD_REQUEST', 'Para o VaR histórico preciso de pelo menos dois retornos.');
    const v = historicalVaR(returns, confidence);
    const text = [
      `**VaR histórico de ${level}: ${formatRate(v, 2)} por período${money(v)}.**`,
      `Ordenei os ${returns.length} retornos do pior para o melhor e tomei o k-ésimo pior, k = ⌈(1 − ${level}) × ${returns.length}⌉: a perda que não foi superada em ${level} dos períodos observados.`,
      returns.length < 20 ? 'Com poucos retornos o VaR histórico é só indicativo: ele não enxerga perdas piores que as já vistas.' : null,
      'Cálculo exato com decimal.js. O VaR não é a perda máxima possível.',
    ].filter((x): x is string => x !== null);
    return {
      title: 'Valor em risco (VaR histórico)',
      operacao: 'var',
      entradas: { retornos: args.retornos.join(';'), confianca: confidence.times(100).toFixed(), ...(atRisk ? { valor_inicial: atRisk.toFixed() } : {}) },
      resultado: { var_pct: toCents(v.times(100)).toFixed(2), ...(atRisk ? { var_valor: cents(v.times(atRisk)) } : {}) },
      valores_exatos: { var: exact(v) },
      formula: 'VaR = −R_(k), k = ⌈(1 − c) · n⌉',
      premissas: ['Os retornos passados representam os próximos.'],
      text: text.join('\n\n'),
    };
  }
  if (!args.volatilidade) throw new CotaError('BAD_REQUEST', `Para calcular o VaR preciso dos retornos ou da volatilidade. Exemplo: ${EXAMPLES.var}.`, { missing: ['retornos'] });
  const sigma = pct(args.volatilidade);
  const z = inverseNormal(confidence);
  const mu = args.retorno ? pct(args.retorno) : new Dec(0);
  const v = Dec.max(0, z.times(sigma).minus(mu));
  const text = [
    `**VaR paramétrico de ${level}: ${formatRate(v, 2)} por período${money(v)}.**`,
    `VaR = z × σ${mu.isZero() ? '' : ' − μ'} = ${formatDecimal(z, 4)} × ${formatRate(sigma)}${mu.isZero() ? '' : ` − ${formatRate(mu)}`}, com z o quantil da distribuição normal para ${level}.`,
    'Supõe retornos com distribuição normal, o que subestima perdas extremas.',
  ];
  return {
    title: 'Valor em risco (VaR paramétrico)',
    operacao: 'var',
    entradas: { volatilidade: args.volatilidade, confianca: confidence.times(100).toFixed(), ...(atRisk ? { valor_inicial: atRisk.toFixed() } : {}) },
    resultado: { var_pct: toCents(v.times(100)).toFixed(2), z: z.toDecimalPlaces(4).toFixed(), ...(atRisk ? { var_valor: cents(v.times(atRisk)) } : {}) },
    valores_exatos: { var: exact(v) },
    formula: 'VaR = z_c × σ − μ',
    premissas: ['Retornos com distribuição normal.'],
    text: text.join('\n\n'),
  };
}

/** Sharpe ratio from a return and a volatility, or from a series of returns (sample σ). */
function sharpe(args: FinanceToolArgs): FinanceResult {
  const rf = pct(args.taxa_livre_risco ?? '0');
  let ret: Dec;
  let sigma: Dec;
  let how: string;
  if (args.retornos && args.retornos.length >= 2) {
    const returns = args.retornos.map(pct);
    ret = mean(returns);
    sigma = sampleStdDev(returns);
    how = `Média dos ${returns.length} retornos: ${formatRate(ret)}; desvio padrão amostral: ${formatRate(sigma)}.`;
  } else if (args.retorno && args.volatilidade) {
    ret = pct(args.retorno);
    sigma = pct(args.volatilidade);
    how = `Retorno de ${formatRate(ret)} e volatilidade de ${formatRate(sigma)}.`;
  } else {
    throw new CotaError('BAD_REQUEST', `Para o índice de Sharpe preciso dos retornos, ou do retorno e da volatilidade. Exemplo: ${EXAMPLES.sharpe}.`, { missing: ['retornos'] });
  }
  if (sigma.isZero()) throw new CotaError('BAD_REQUEST', 'Com volatilidade zero o índice de Sharpe não é definido.');
  const s = ret.minus(rf).div(sigma);
  const text = [
    `**Índice de Sharpe: ${formatDecimal(s, 2)}.**`,
    `Sharpe = (retorno − taxa livre de risco) / volatilidade = (${formatRate(ret)} − ${formatRate(rf)}) / ${formatRate(sigma)} = ${formatDecimal(s, 4)}.`,
    how,
    args.taxa_livre_risco ? 'Retorno, taxa livre de risco e volatilidade precisam estar no mesmo período.' : 'Sem taxa livre de risco informada, considerei 0%.',
    s.gte(1)
      ? 'Acima de 1: bom retorno pelo risco assumido.'
      : s.gt(0)
        ? 'Entre 0 e 1: o retorno acima da taxa livre de risco é pequeno para o risco assumido.'
        : 'Negativo ou zero: não superou a taxa livre de risco.',
  ];
  return {
    title: 'Índice de Sharpe',
    operacao: 'sharpe',
    entradas: {
      ...(args.retornos ? { retornos: args.retornos.join(';') } : { retorno: args.retorno!, volatilidade: args.volatilidade! }),
      taxa_livre_risco: rf.times(100).toFixed(),
    },
    resultado: { sharpe: s.toDecimalPlaces(4).toFixed() },
    valores_exatos: { sharpe: exact(s) },
    formula: 'S = (R − r_f) / σ',
    premissas: ['Mesmo período para retorno, taxa livre de risco e volatilidade.'],
    text: text.join('\n\n'),
  };
}

/**
 * The capital that pays a monthly income at a dividend yield: C = R ÷ y, with y the monthly yield; a yearly
 * yield is twelve months' income over the price (how a FII's DY is quoted), so it is divided by 12.
 */
function incomeCapital(args: FinanceToolArgs): FinanceResult {
  need(args, 'capital_para_renda', ['renda_mensal', 'taxa']);
  const income = amount('renda_mensal', args.renda_mensal, false);
  const rate = dec(args.taxa!);
  if (!rate.gt(0)) throw new CotaError('BAD_REQUEST', 'O dividend yield precisa ser maior que zero.');
  const yearly = args.taxa_periodo === 'ano';
  const monthly = yearly ? rate.div(12) : rate;
  const capital = income.div(monthly);
  const text = [
    `**Para receber ${formatMoney(income)} por mês com dividend yield de ${rateAsText(args)}, você precisa ter ${formatMoney(capital)} investidos.**`,
    `Conta: ${formatMoney(income)} ÷ ${formatRate(monthly, 6)} ao mês${yearly ? ` (o DY anual dividido por 12: a renda de um ano sobre o preço)` : ''} = ${formatMoney(capital)}.`,
    'O rendimento de um FII muda todo mês e não é garantido: é uma conta com o DY informado, não uma promessa de renda. Rendimentos de FII são isentos de IR para pessoa física nas condições da lei.',
  ].join('\n\n');
  return {
    title: 'Capital para uma renda mensal',
    operacao: 'capital_para_renda',
    entradas: inputs(args),
    resultado: { capital: cents(capital), dy_mensal: exact(monthly) },
    valores_exatos: { capital: exact(capital) },
    formula: 'C = R ÷ y (y: DY mensal; DY anual ÷ 12)',
    premissas: ['DY constante; sem impostos nem custos.'],
    text,
  };
}

/**
 * The real return of a nominal one over the inflation of the same period (Fisher): (1 + r) ÷ (1 + π) − 1. The simple
 * difference (r − π) overstates it, and is said beside it.
 */
function realReturn(args: FinanceToolArgs): FinanceResult {
  need(args, 'retorno_real', ['taxa', 'inflacao']);
  const nominal = dec(args.taxa!);
  const inflation = pct(args.inflacao!);
  if (!inflation.gt(-1) || !nominal.gt(-1)) throw new CotaError('BAD_REQUEST', 'O retorno e a inflação precisam ser maiores que -100%.');
  const real = nominal.plus(1).div(inflation.plus(1)).minus(1);
  const text = [
    `**Com retorno de ${formatRate(nominal, 2)} e inflação de ${formatRate(inflation, 2)} no mesmo período, o ganho real foi de ${formatRate(real, 2)}.**`,
    `Conta: (1 + ${formatRate(nominal, 2)}) ÷ (1 + ${formatRate(inflation, 2)}) − 1 = ${formatRate(real, 4)}. A diferença simples, ${formatRate(nominal.minus(inflation), 2)}, superestima o ganho real.`,
    'Retorno e inflação do mesmo período, com os valores informados; sem impostos nem custos.',
  ].join('\n\n');
  return {
    title: 'Ganho real (descontada a inflação)',
    operacao: 'retorno_real',
    entradas: { taxa: args.taxa!, inflacao: args.inflacao! },
    resultado: { retorno_real: real.times(100).toDecimalPlaces(4).toFixed() },
    valores_exatos: { retorno_real: exact(real.times(100)) },
    formula: 'r_real = (1 + r) ÷ (1 + π) − 1',
    premissas: ['Retorno e inflação do mesmo período; sem impostos nem custos.'],
    text,
  };
}

/** What an investment returned: (value now + income received − cost) ÷ cost; the price's part and the income's said apart. */
function totalReturn(args: FinanceToolArgs): FinanceResult {
  need(args, 'retorno_total', ['valor_inicial', 'valor_final']);
  const cost = amount('valor_inicial', args.valor_inicial, false);
  const now = amount('valor_final', args.valor_final);
  const income = amount('proventos', args.proventos ?? '0');
  const gain = now.plus(income).minus(cost);
  const total = gain.div(cost);
  const text = [
    `**Investindo ${formatMoney(cost)}, com ${formatMoney(now)} hoje${income.isZero() ? '' : ` e ${formatMoney(income)} de proventos recebidos`}, o retorno total é de ${formatRate(total, 2)} (${gain.isNegative() ? 'perda' : 'ganho'} de ${formatMoney(gain.abs())}).**`,
    `Conta: (${formatMoney(now)}${income.isZero() ? '' : ` + ${formatMoney(income)}`} − ${formatMoney(cost)}) ÷ ${formatMoney(cost)} = ${formatRate(total, 4)}.${income.isZero() ? '' : ` Só pelo preço, ${formatRate(now.minus(cost).div(cost), 2)}; os proventos somam ${formatRate(income.div(cost), 2)}.`}`,
    'Uma conta com os valores informados; não considera impostos, custos nem quando cada provento foi recebido.',
  ].join('\n\n');
  return {
    title: 'Retorno total de um investimento',
    operacao: 'retorno_total',
    entradas: { valor_inicial: args.valor_inicial!, valor_final: args.valor_final!, ...(args.proventos ? { proventos: args.proventos } : {}) },
    resultado: { retorno_total: total.times(100).toDecimalPlaces(4).toFixed(), ganho: gain.toDecimalPlaces(2).toFixed(2) },
    valores_exatos: { retorno_total: exact(total.times(100)) },
    formula: 'retorno = (valor atual + proventos − custo) ÷ custo',
    premissas: ['Sem impostos nem custos; proventos não reinvestidos.'],
    text,
  };
}

const OPERATIONS: Record<string, (a: FinanceToolArgs) => FinanceResult> = {
  retorno_real: realReturn,
  retorno_total: totalReturn,
  ...RATIO_OPERATIONS,
  capital_para_renda: incomeCapital,
  vpl: npv,
  tir: irr,
  var: valueAtRisk,
  sharpe,
  juros_compostos: compound,
  projecao_aportes: projection,
  aporte_necessario: goal,
  valor_presente: present,
  conversao_taxa: conversion,
};

/** `calcular_financas`: exact decimal.js calculations with the formula explained in pt-BR. */
export function calculateFinance(args: FinanceToolArgs): FinanceResult {
  const op = OPERATIONS[args.operacao ?? ''];
  if (!op)
    throw new CotaError(
      'BAD_REQUEST',
      `Não sei fazer o cálculo "${args.operacao ?? ''}". Posso calcular juros compostos, projeção com aportes, aporte necessário para uma meta, valor presente, conversão de taxas, VPL, TIR, VaR, índice de Sharpe, o capital para uma renda mensal, o dividend yield, o P/VP, as cotas para uma renda, o ganho real e o retorno total.`,
    );
  // Rates arrive in percent ("0.8" is 0,8%), as people say them; the formulas use fractions.
  const result = args.taxa === undefined || args.taxa === null || args.taxa === '' ? op(args) : op({ ...args, taxa: pct(args.taxa).toFixed() });
  const withRate = result.entradas.taxa === undefined || !args.taxa ? result : { ...result, entradas: { ...result.entradas, taxa: args.taxa } };
  return args.fundo && RATIO_OPERATIONS[args.operacao ?? ''] ? ofNamedFund(withRate, args.fundo) : withRate;
}

/** A ratio of numbers said of a fund ("se o MXRF11 paga R$ 0,10") names it, and that the numbers are the person's. */
function ofNamedFund(result: FinanceResult, fund: string): FinanceResult {
  const note = `${fund}, com os números que você informou (não os dados do fundo na base):`;
  return { ...result, entradas: { ...result.entradas, fundo: fund }, text: `${note}\n\n${result.text}` };
}
