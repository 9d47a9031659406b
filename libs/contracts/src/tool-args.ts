/**
 * Arguments of the personal-finance tools as the gate reads them and the executor takes them (the
 * tool contracts of policies/tool_gate.yaml validate their values; these are their shapes in code).
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
