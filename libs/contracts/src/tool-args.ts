/**
 * Arguments of the finance tools (personal transactions, `calcular_financas`) as the gate reads them
 * and the executor takes them (the tool contracts of policies/tool_gate.yaml validate their values;
 * these are their shapes in code).
 */
export type TransactionKind = 'despesa' | 'receita';

/** Filters of `consultar_transacoes`. */
export interface TransactionFilters {
  tipo?: TransactionKind;
  categoria?: string;
  data_inicio?: string;
  data_fim?: string;
  valor_min?: string;
  valor_max?: string;
}

/** Everything `consultar_transacoes` takes: the filters, grouping, order and how many rows. */
export interface TransactionQueryArgs extends TransactionFilters {
  agrupar_por?: 'categoria' | 'mes';
  ordem?: 'maiores' | 'recentes';
  limite?: number;
}

/** Arguments of `calcular_financas` (resolved by the tool gate; amounts and rates as decimal strings). */
export interface FinanceToolArgs {
  operacao?: string;
  valor_inicial?: string;
  aporte_mensal?: string;
  meta?: string;
  taxa?: string;
  taxa_periodo?: 'mes' | 'ano';
  taxa_periodo_informado?: boolean;
  prazo_meses?: number;
  prazo_unidade?: 'meses' | 'anos';
  /** Cash flows (decimal strings), the first at t = 0, for vpl/tir. */
  fluxos?: string[];
  /** Percent per period (VaR, Sharpe): "-2" is −2%. */
  retornos?: string[];
  /** Percent per period (Sharpe). */
  retorno?: string;
  /** Percent per period (VaR parametric, Sharpe). */
  volatilidade?: string;
  /** Percent, VaR confidence (default 95). */
  confianca?: string;
  /** Percent per period (Sharpe), default 0. */
  taxa_livre_risco?: string;
  /** The monthly income a capital should pay at a yield (capital_para_renda), or shares at a dividend (cotas_para_renda). */
  renda_mensal?: string;
  /** A share's price as stated (dividend_yield, pvp). */
  preco_cota?: string;
  /** A dividend per share as stated, and the period it is paid for (dividend_yield, cotas_para_renda). */
  provento?: string;
  provento_periodo?: 'mes' | 'ano';
  /** The book value per share as stated (pvp). */
  vp_cota?: string;
  /** Inflation over the same period as the return, percent (retorno_real). */
  inflacao?: string;
  /** What an investment is worth now, and the income it paid meanwhile (retorno_total). */
  valor_final?: string;
  proventos?: string;
  /** The fund named beside a ratio's own numbers ("se o MXRF11 paga R$ 0,10"): said in the answer, its data never used. */
  fundo?: string;
}
