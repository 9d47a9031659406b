import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { groupedSql, listSql, totalsSql, TransactionFilters } from './query';

export interface NewTransaction {
  client_id: string;
  tipo: 'despesa' | 'receita';
  valor: string;
  categoria: string;
  descricao: string | null;
  data: string;
  request_id: string;
  /** The confirmed preview's id: a "sim" that arrives twice records once. */
  idempotency_key: string | null;
}

export interface TransactionRow {
  transaction_id: string;
  tipo: 'despesa' | 'receita';
  valor: string;
  categoria: string;
  descricao: string | null;
  data: string;
}

export interface TotalRow {
  tipo: 'despesa' | 'receita';
  total: string;
  n: number;
}

export interface GroupRow extends TotalRow {
  grupo: string;
}

/** The client's transactions; every method takes the client and filters by it. */
export interface TransactionRepository {
  insert(t: NewTransaction): Promise<{ transaction: TransactionRow; created: boolean }>;
  totals(clientId: string, f: TransactionFilters): Promise<TotalRow[]>;
  grouped(clientId: string, f: TransactionFilters, by: 'categoria' | 'mes'): Promise<GroupRow[]>;
  list(clientId: string, f: TransactionFilters, order: 'maiores' | 'recentes', limit: number): Promise<TransactionRow[]>;
}

export class PgTransactionRepository implements TransactionRepository {
  constructor(private readonly db: DataSource) {}

  async insert(t: NewTransaction): Promise<{ transaction: TransactionRow; created: boolean }> {
    const rows: TransactionRow[] = await this.db.query(
      `INSERT INTO client_transactions (transaction_id, client_id, tipo, valor, categoria, descricao, data, request_id, idempotency_key)
       VALUES ($1, $2, $3, $4::numeric, $5, $6, $7::date, $8, $9)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING transaction_id, tipo, valor::text AS valor, categoria, descricao, to_char(data, 'YYYY-MM-DD') AS data`,
      [`trx_${randomUUID()}`, t.client_id, t.tipo, t.valor, t.categoria, t.descricao, t.data, t.request_id, t.idempotency_key],
    );
    if (rows[0]) return { transaction: rows[0], created: true };
    // Already recorded by the same confirmation: answer with that row (same client only).
    const existing: TransactionRow[] = await this.db.query(
      `SELECT transaction_id, tipo, valor::text AS valor, categoria, descricao, to_char(data, 'YYYY-MM-DD') AS data
         FROM client_transactions WHERE idempotency_key = $1 AND client_id = $2`,
      [t.idempotency_key, t.client_id],
    );
    if (!existing[0]) throw new Error('transaction insert conflicted with another client');
    return { transaction: existing[0], created: false };
  }

  async totals(clientId: string, f: TransactionFilters): Promise<TotalRow[]> {
    const q = totalsSql(clientId, f);
    return this.db.query(q.text, q.values);
  }

  async grouped(clientId: string, f: TransactionFilters, by: 'categoria' | 'mes'): Promise<GroupRow[]> {
    const q = groupedSql(clientId, f, by);
    return this.db.query(q.text, q.values);
  }

  async list(clientId: string, f: TransactionFilters, order: 'maiores' | 'recentes', limit: number): Promise<TransactionRow[]> {
    const q = listSql(clientId, f, order, limit);
    return this.db.query(q.text, q.values);
  }
}

/** In-memory version for unit tests: the same filters, grouping and ordering as the SQL. */
export class InMemoryTransactionRepository implements TransactionRepository {
  private readonly rows: Array<TransactionRow & { client_id: string; idempotency_key: string | null; seq: number }> = [];

  async insert(t: NewTransaction): Promise<{ transaction: TransactionRow; created: boolean }> {
    const existing = t.idempotency_key ? this.rows.find((r) => r.idempotency_key === t.idempotency_key) : undefined;
    if (existing) {
      if (existing.client_id !== t.client_id) throw new Error('transaction insert conflicted with another client');
      return { transaction: pick(existing), created: false };
    }
    const row = {
      transaction_id: `trx_${this.rows.length + 1}`,
      tipo: t.tipo,
      valor: Number(t.valor).toFixed(2),
      categoria: t.categoria,
      descricao: t.descricao,
      data: t.data,
      client_id: t.client_id,
      idempotency_key: t.idempotency_key,
      seq: this.rows.length,
    };
    this.rows.push(row);
    return { transaction: pick(row), created: true };
  }

  private matching(clientId: string, f: TransactionFilters) {
    return this.rows.filter(
      (r) =>
        r.client_id === clientId &&
        (!f.tipo || r.tipo === f.tipo) &&
        (!f.categoria || r.categoria === f.categoria) &&
        (!f.data_inicio || r.data >= f.data_inicio) &&
        (!f.data_fim || r.data <= f.data_fim) &&
        (!f.valor_min || Number(r.valor) >= Number(f.valor_min)) &&
        (!f.valor_max || Number(r.valor) <= Number(f.valor_max)),
    );
  }

  async totals(clientId: string, f: TransactionFilters): Promise<TotalRow[]> {
    return sumBy(this.matching(clientId, f), (r) => r.tipo).map((g) => ({ tipo: g.tipo, total: g.total, n: g.n }));
  }

  async grouped(clientId: string, f: TransactionFilters, by: 'categoria' | 'mes'): Promise<GroupRow[]> {
    const groups = sumBy(this.matching(clientId, f), (r) => `${by === 'categoria' ? r.categoria : r.data.slice(0, 7)}|${r.tipo}`);
    return groups
      .map((g) => ({ grupo: g.key.split('|')[0], tipo: g.tipo, total: g.total, n: g.n }))
      .sort((a, b) => (by === 'categoria' ? Number(b.total) - Number(a.total) || a.grupo.localeCompare(b.grupo) : a.grupo.localeCompare(b.grupo)));
  }

  async list(clientId: string, f: TransactionFilters, order: 'maiores' | 'recentes', limit: number): Promise<TransactionRow[]> {
    const rows = [...this.matching(clientId, f)].sort((a, b) =>
      order === 'maiores' ? Number(b.valor) - Number(a.valor) || b.data.localeCompare(a.data) : b.data.localeCompare(a.data) || b.seq - a.seq,
    );
    return rows.slice(0, limit).map(pick);
  }
}

const pick = (r: TransactionRow): TransactionRow => ({
  transaction_id: r.transaction_id,
  tipo: r.tipo,
  valor: r.valor,
  categoria: r.categoria,
  descricao: r.descricao,
  data: r.data,
});

function sumBy<T extends { tipo: 'despesa' | 'receita'; valor: string }>(rows: T[], key: (r: T) => string) {
  const out = new Map<string, { key: string; tipo: 'despesa' | 'receita'; cents: number; n: number }>();
  for (const r of rows) {
    const k = key(r);
    const g = out.get(k) ?? { key: k, tipo: r.tipo, cents: 0, n: 0 };
    g.cents += Math.round(Number(r.valor) * 100);
    g.n += 1;
    out.set(k, g);
  }
  return [...out.values()].map((g) => ({ ...g, total: (g.cents / 100).toFixed(2) }));
}
