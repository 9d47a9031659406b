import type { TransactionFilters } from '@cota/contracts';

export type { TransactionFilters };
export interface SqlQuery {
  text: string;
  values: unknown[];
}

/**
 * The WHERE clause of a transaction query: always the client first, then each filter as a bound
 * parameter (no value is ever written into the SQL text).
 */
export function transactionWhere(clientId: string, f: TransactionFilters): SqlQuery {
  if (!clientId) throw new Error('client_id is required for transactions');
  const values: unknown[] = [clientId];
  const parts = ['client_id = $1'];
  const add = (sql: string, v: unknown) => {
    values.push(v);
    parts.push(sql.replace('?', `$${values.length}`));
  };
  if (f.tipo) add('tipo = ?', f.tipo);
  if (f.categoria) add('categoria = ?', f.categoria);
  if (f.data_inicio) add('data >= ?::date', f.data_inicio);
  if (f.data_fim) add('data <= ?::date', f.data_fim);
  if (f.valor_min) add('valor >= ?::numeric', f.valor_min);
  if (f.valor_max) add('valor <= ?::numeric', f.valor_max);
  return { text: parts.join(' AND '), values };
}

/** Totals by type over the filtered rows. */
export function totalsSql(clientId: string, f: TransactionFilters): SqlQuery {
  const w = transactionWhere(clientId, f);
  return { text: `SELECT tipo, sum(valor)::text AS total, count(*)::int AS n FROM client_transactions WHERE ${w.text} GROUP BY tipo`, values: w.values };
}

/** Totals by category or by month, largest first (categories) or in time order (months). */
export function groupedSql(clientId: string, f: TransactionFilters, by: 'categoria' | 'mes'): SqlQuery {
  const w = transactionWhere(clientId, f);
  const key = by === 'categoria' ? 'categoria' : "to_char(data, 'YYYY-MM')";
  const order = by === 'categoria' ? 'sum(valor) DESC, grupo' : 'grupo';
  return {
    text: `SELECT ${key} AS grupo, tipo, sum(valor)::text AS total, count(*)::int AS n FROM client_transactions WHERE ${w.text} GROUP BY ${key}, tipo ORDER BY ${order}`,
    values: w.values,
  };
}

/** The rows themselves: the largest or the most recent first, at most `limit`. */
export function listSql(clientId: string, f: TransactionFilters, order: 'maiores' | 'recentes', limit: number): SqlQuery {
  const w = transactionWhere(clientId, f);
  const by = order === 'maiores' ? 'valor DESC, data DESC' : 'data DESC, created_at DESC';
  return {
    text: `SELECT transaction_id, tipo, valor::text AS valor, categoria, descricao, to_char(data, 'YYYY-MM-DD') AS data FROM client_transactions WHERE ${w.text} ORDER BY ${by} LIMIT ${Math.max(1, Math.min(200, Math.trunc(limit)))}`,
    values: w.values,
  };
}
