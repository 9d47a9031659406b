import { CotaError, type FinanceToolArgs } from '@cota/contracts';
import { Dec, dec } from '@cota/finance';

/**
 * What every calculation of `calcular_financas` shares: its result's shape, how a missing or invalid argument is said
 * (with an example of the question), and the exact digits kept beside the rounded ones.
 */

/** What a calculation answers: its inputs, results (rounded and exact), formula and text. */
export interface FinanceResult {
  title: string;
  operacao: string;
  /** Inputs as used, decimal strings. */
  entradas: Record<string, string | number>;
  /** Results rounded to cents (money) or 4 decimals (rates), decimal strings. */
  resultado: Record<string, string>;
  /** The same results with every digit decimal.js computed (40 significant digits). */
  valores_exatos: Record<string, string>;
  formula: string;
  premissas: string[];
  /** Year-by-year balance for projections. */
  tabela?: Array<{ mes: number; aportado: string; juros_acumulados: string; saldo: string }>;
  text: string;
}

/** A question that asks each calculation, said when something it needs is missing. */
export const EXAMPLES: Record<string, string> = {
  juros_compostos: '"quanto rende R$ 10.000 a 1% ao mês por 24 meses?"',
  projecao_aportes: '"quanto terei aportando R$ 500 por mês a 0,8% ao mês por 10 anos?"',
  aporte_necessario: '"quanto preciso investir por mês para ter R$ 1 milhão em 20 anos a 10% ao ano?"',
  valor_presente: '"quanto vale hoje R$ 20 mil daqui a 3 anos a 10% ao ano?"',
  conversao_taxa: '"quanto é 1% ao mês ao ano?"',
  vpl: '"qual o VPL dos fluxos -1000, 500 e 700 a 10% ao ano?"',
  tir: '"qual a TIR dos fluxos -1000, 500 e 700?"',
  var: '"VaR de 95% dos retornos -2%, 1%, 0,5%, -3% e 2%"',
  sharpe: '"Sharpe com retorno de 14% ao ano, CDI de 10,5% e volatilidade de 6%"',
  capital_para_renda: '"quanto preciso ter investido para receber R$ 2.000 por mês com DY de 12% ao ano?"',
  dividend_yield: '"um FII a R$ 100 que paga R$ 0,85 por mês tem DY de quanto?"',
  pvp: '"cota a R$ 95 e valor patrimonial por cota de R$ 105: qual o P/VP?"',
  cotas_para_renda: '"quantas cotas de um fundo que paga R$ 0,10 por cota preciso para ganhar R$ 1.000 por mês?"',
  preco_teto: '"preço teto com dividendo anual de R$ 9,60 e yield mínimo de 8%"',
  retorno_real: '"meu FII rendeu 12% no ano e o IPCA foi 4,5%: qual o ganho real?"',
  retorno_total: '"investi R$ 20 mil, hoje vale R$ 23.500 e recebi R$ 1.800 de dividendos: qual o retorno total?"',
};

/** What is missing, as "preciso ..." continues it (the rate of a ceiling price is the yield wanted). */
const NEEDED: Record<string, string> = {
  valor_inicial: 'do valor inicial',
  aporte_mensal: 'do aporte mensal',
  meta: 'do valor da meta',
  taxa: 'da taxa de juros',
  prazo_meses: 'do prazo',
  fluxos: 'dos fluxos de caixa (ex.: -1000, 500, 700)',
  renda_mensal: 'da renda mensal desejada',
  preco_cota: 'do preço da cota',
  provento: 'do provento por cota',
  vp_cota: 'do valor patrimonial por cota',
  inflacao: 'da inflação do mesmo período',
  valor_final: 'do valor atual do investimento',
};
const NEEDED_BY_OPERATION: Record<string, Record<string, string>> = {
  retorno_total: { valor_inicial: 'do valor investido' },
  preco_teto: { taxa: 'do dividend yield desejado (ex.: 8% ao ano)' },
  retorno_real: { taxa: 'do retorno no período (ex.: 12%)' },
};

const LABELS: Record<string, string> = {
  valor_inicial: 'O valor inicial',
  aporte_mensal: 'O aporte mensal',
  meta: 'O valor da meta',
  valor_final: 'O valor atual',
  proventos: 'Os proventos recebidos',
  renda_mensal: 'A renda mensal',
  preco_cota: 'O preço da cota',
  provento: 'O provento por cota',
  vp_cota: 'O valor patrimonial por cota',
  taxa: 'A taxa',
};

/** Refuses a calculation missing any of `fields`, saying what it needs and how to ask. */
export function need(args: FinanceToolArgs, op: string, fields: Array<keyof FinanceToolArgs>): void {
  const missing = fields.filter((f) => args[f] === undefined || args[f] === null || args[f] === '');
  if (missing.length) {
    const list = missing.map((f) => NEEDED_BY_OPERATION[op]?.[f] ?? NEEDED[f] ?? f);
    const joined = list.length > 1 ? `${list.slice(0, -1).join(', ')} e ${list.at(-1)}` : list[0];
    throw new CotaError('BAD_REQUEST', `Para esse cálculo preciso ${joined}. Exemplo: ${EXAMPLES[op]}.`, { missing });
  }
}

/** An amount the person stated, never negative (nor zero unless `allowZero`). */
export function amount(name: string, v: string | undefined, allowZero = true): Dec {
  const d = dec(v ?? '0');
  if (d.isNegative() || (!allowZero && d.isZero())) throw new CotaError('BAD_REQUEST', `${LABELS[name] ?? name} precisa ser positivo.`);
  return d;
}

/** Every digit decimal.js computed (40 significant digits), beside the rounded result. */
export const exact = (d: Dec) => d.toSignificantDigits(40).toFixed();
