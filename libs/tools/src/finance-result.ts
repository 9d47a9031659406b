/** What a calculation of `calcular_financas` answers: its inputs, results (rounded and exact), formula and text. */
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
