import { QueryRunner } from 'typeorm';
import type { Migration } from '@cota/service-kit';

/** The client's own expenses and income (personal finance). Every read and write filters by client_id. */
export const transactionsMigrations: Migration[] = [
  {
    id: '202611230100-client-transactions',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE TABLE IF NOT EXISTS client_transactions (
        transaction_id text PRIMARY KEY,
        client_id text NOT NULL,
        tipo text NOT NULL CHECK (tipo IN ('despesa', 'receita')),
        valor numeric(14, 2) NOT NULL CHECK (valor > 0),
        categoria text NOT NULL,
        descricao text NULL,
        data date NOT NULL,
        request_id text NOT NULL,
        idempotency_key text NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS client_transactions_client_date_idx ON client_transactions (client_id, data DESC)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE IF EXISTS client_transactions');
    },
  },
];
