import type { FinanceToolArgs } from '@cota/contracts';
import { Dec, dec } from '@cota/finance';
import { formatDecimal, formatMoney } from '@cota/text';
import { amount, exact, type FinanceResult, need } from './calculation';
import { formatRate } from './format';

/**
 * A fund's ratios from the numbers the person states (`calcular_financas`): the dividend yield of a dividend at a
 * price, the P/VP of a price over a book value, the shares a monthly income needs at a dividend. Never a fund's data.
 */

type Stated = 'preco_cota' | 'provento' | 'vp_cota' | 'renda_mensal' | 'taxa';

/** The numbers a ratio needs, each stated and above zero. */
function stated(args: FinanceToolArgs, op: string, fields: Stated[]): Dec[] {
  need(args, op, fields);
  return fields.map((f) => amount(f, args[f] as string, false));
}

const inputs = (args: FinanceToolArgs, keys: Array<keyof FinanceToolArgs>) =>
  Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k] as string])) as Record<string, string>;

/** DY = provento ÷ preço, in the dividend's period; a monthly one also as a year: × 12 (simple) and compounded. */
export function dividendYield(args: FinanceToolArgs): FinanceResult {
  const [price, dividend] = stated(args, 'dividend_yield', ['preco_cota', 'provento']);
  const yearlyDividend = args.provento_periodo === 'ano';
  const own = dividend.div(price);
  const lines: string[] = [];
  const resultado: Record<string, string> = {};
  if (yearlyDividend) {
    lines.push(`**Com proventos de ${formatMoney(dividend)} por cota no ano e a cota a ${formatMoney(price)}, o dividend yield é de ${formatRate(own, 2)} ao ano.**`);
    lines.push(`Conta: ${formatMoney(dividend)} ÷ ${formatMoney(price)} = ${formatRate(own, 4)}; por mês, ${formatRate(own.div(12), 4)} (÷ 12).`);
    resultado.dy_anual_pct = own.times(100).toDecimalPlaces(4).toFixed();
  } else {
    const simple = own.times(12);
    const compounded = own.plus(1).pow(12).minus(1);
    lines.push(
      `**Com ${formatMoney(dividend)} por cota ao mês e a cota a ${formatMoney(price)}, o dividend yield é de ${formatRate(own, 4)} ao mês, ou ${formatRate(simple, 2)} ao ano (× 12).**`,
    );
    lines.push(
      `Conta: ${formatMoney(dividend)} ÷ ${formatMoney(price)} = ${formatRate(own, 4)} ao mês; × 12 = ${formatRate(simple, 2)} ao ano, como o DY de FII é cotado (a renda de 12 meses sobre o preço). Reinvestindo todo mês, seria ${formatRate(compounded, 2)} ao ano.`,
    );
    resultado.dy_mensal_pct = own.times(100).toDecimalPlaces(4).toFixed();
    resultado.dy_anual_pct = simple.times(100).toDecimalPlaces(4).toFixed();
  }
  lines.push('Uma conta com os valores informados: o provento de um FII muda todo mês e não é garantido.');
  return {
    title: 'Dividend yield',
    operacao: 'dividend_yield',
    entradas: inputs(args, ['preco_cota', 'provento', 'provento_periodo']),
    resultado,
    valores_exatos: { dy: exact(own) },
    formula: 'DY = provento por cota ÷ preço da cota',
    premissas: ['Provento e preço informados; sem impostos.'],
    text: lines.join('\n\n'),
  };
}

/** P/VP = preço ÷ valor patrimonial por cota; below 1 the share trades at a discount to its book value. */
export function priceToBook(args: FinanceToolArgs): FinanceResult {
  const [price, book] = stated(args, 'pvp', ['preco_cota', 'vp_cota']);
  const ratio = price.div(book);
  const gap = ratio.minus(1);
  const side = gap.isZero()
    ? 'igual ao valor patrimonial'
    : gap.lt(0)
      ? `com desconto de ${formatRate(gap.abs(), 2)} sobre o valor patrimonial`
      : `com ágio de ${formatRate(gap, 2)} sobre o valor patrimonial`;
  const text = [
    `**Com a cota a ${formatMoney(price)} e valor patrimonial por cota de ${formatMoney(book)}, o P/VP é ${formatDecimal(ratio, 4, true)}: ${side}.**`,
    `Conta: ${formatMoney(price)} ÷ ${formatMoney(book)} = ${formatDecimal(ratio, 4, true)}.`,
    'Uma conta com os valores informados; o P/VP sozinho não diz se o fundo está barato ou caro.',
  ].join('\n\n');
  return {
    title: 'P/VP',
    operacao: 'pvp',
    entradas: inputs(args, ['preco_cota', 'vp_cota']),
    resultado: { pvp: ratio.toDecimalPlaces(4).toFixed() },
    valores_exatos: { pvp: exact(ratio) },
    formula: 'P/VP = preço da cota ÷ valor patrimonial por cota',
    premissas: ['Preço e valor patrimonial informados.'],
    text,
  };
}

/** Shares that pay a monthly income at a stated dividend per share: ⌈renda ÷ provento⌉ (whole shares). */
export function sharesForIncome(args: FinanceToolArgs): FinanceResult {
  const [dividend, income] = stated(args, 'cotas_para_renda', ['provento', 'renda_mensal']);
  const monthly = args.provento_periodo === 'ano' ? dividend.div(12) : dividend;
  const shares = income.div(monthly).ceil();
  const price = args.preco_cota ? dec(args.preco_cota) : null;
  const capital = price && price.gt(0) ? shares.times(price) : null;
  // (an income of one share's price is the magic number: a month's income buys one more share)
  const magic = price !== null && income.eq(price);
  const lead = magic
    ? `**O número mágico é ${formatDecimal(shares, 0)} cotas: com ${formatMoney(monthly)} por cota ao mês, a renda de um mês compra uma cota nova de ${formatMoney(price!)} (${formatMoney(capital!)} investidos).**`
    : `**Para receber ${formatMoney(income)} por mês com ${formatMoney(monthly)} por cota ao mês, você precisa de ${formatDecimal(shares, 0)} cotas${capital ? ` (${formatMoney(capital)} a ${formatMoney(price!)} por cota)` : ''}.**`;
  const text = [
    lead,
    `Conta: ${formatMoney(income)} ÷ ${formatMoney(monthly)} = ${formatDecimal(income.div(monthly), 2, true)}, arredondado para cima em cotas inteiras.`,
    'Uma conta com o provento informado: o rendimento de um FII muda todo mês e não é garantido. Rendimentos de FII são isentos de IR para pessoa física nas condições da lei.',
  ].join('\n\n');
  return {
    title: magic ? 'Número mágico' : 'Cotas para uma renda mensal',
    operacao: 'cotas_para_renda',
    entradas: inputs(args, ['provento', 'provento_periodo', 'renda_mensal', 'preco_cota']),
    resultado: { cotas: shares.toFixed(0), ...(capital ? { capital: capital.toFixed(2) } : {}) },
    valores_exatos: { cotas: exact(income.div(monthly)) },
    formula: 'cotas = ⌈renda mensal ÷ provento mensal por cota⌉',
    premissas: ['Provento constante; cotas inteiras.'],
    text,
  };
}

/** The ceiling price (Bazin's): the price at which a year's dividends pay the yield wanted, provento anual ÷ DY. */
export function ceilingPrice(args: FinanceToolArgs): FinanceResult {
  const [dividend, rate] = stated(args, 'preco_teto', ['provento', 'taxa']);
  const yearly = args.provento_periodo === 'ano' ? dividend : dividend.times(12);
  const price = yearly.div(rate);
  const text = [
    `**Com ${formatMoney(yearly)} de proventos por cota no ano e dividend yield mínimo de ${formatRate(rate, 2)}, o preço teto é ${formatMoney(price)}.**`,
    `Conta: ${formatMoney(yearly)}${args.provento_periodo === 'ano' ? '' : ` (${formatMoney(dividend)} × 12)`} ÷ ${formatRate(rate, 2)} = ${formatMoney(price)}. Acima desse preço, o mesmo provento rende menos que o DY desejado.`,
    'Uma conta com os valores informados (método de Bazin); o provento de um FII muda e não é garantido, e o preço teto não é uma recomendação.',
  ].join('\n\n');
  return {
    title: 'Preço teto',
    operacao: 'preco_teto',
    entradas: { ...inputs(args, ['provento', 'provento_periodo']), taxa: args.taxa! },
    resultado: { preco_teto: price.toDecimalPlaces(2).toFixed(2) },
    valores_exatos: { preco_teto: exact(price) },
    formula: 'preço teto = proventos do ano por cota ÷ DY desejado',
    premissas: ['Proventos constantes; sem impostos.'],
    text,
  };
}

export const RATIO_OPERATIONS: Record<string, (a: FinanceToolArgs) => FinanceResult> = {
  dividend_yield: dividendYield,
  pvp: priceToBook,
  cotas_para_renda: sharesForIncome,
  preco_teto: ceilingPrice,
};
