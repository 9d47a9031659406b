import type { DataSource, QueryRunner } from 'typeorm';
import type { Turn } from '@cota/contracts';
import type { Migration } from '@cota/service-kit';
import { ConstantBackoff, handleWhen, retry } from 'cockatiel';
import { isConnectionLost } from '@cota/messaging';
import { ConversationKey, HistoryStore, IndexedTurn } from './store';
import { deleteOldestBatch } from './retention-batch';

/**
 * A pooled connection the server dropped (a restart, an operator's pg_terminate_backend) fails the
 * first query sent on it; the pool then opens a fresh one. One more attempt keeps the turn.
 */
const onLostConnection = retry(handleWhen(isConnectionLost), { maxAttempts: 2, backoff: new ConstantBackoff(50) });

/** Schema of the durable conversation history (owned by this library, applied by the context service). */
export const conversationMigrations: Migration[] = [
  {
    id: '202611220100-conversation-turns',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`
        CREATE TABLE IF NOT EXISTS conversation_turns (
          id bigserial PRIMARY KEY,
          client_id text NOT NULL,
          conversation_id text NOT NULL,
          turn_index integer NOT NULL CHECK (turn_index > 0),
          role text NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
          content text NOT NULL,
          meta jsonb NOT NULL DEFAULT '{}'::jsonb,
          created_at timestamptz NOT NULL
        )`);
      await q.query('CREATE INDEX IF NOT EXISTS conversation_turns_conversation_idx ON conversation_turns (client_id, conversation_id, turn_index, id)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE IF EXISTS conversation_turns');
    },
  },
  {
    // Retention (policies/retention.yaml) deletes turns by age; erasure deletes them by client
    // (the conversation index already leads with client_id).
    id: '202611240100-conversation-turns-created-idx',
    async up(q: QueryRunner): Promise<void> {
      await q.query('CREATE INDEX IF NOT EXISTS conversation_turns_created_idx ON conversation_turns (created_at)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP INDEX IF EXISTS conversation_turns_created_idx');
    },
  },
  {
    // A commit is repeated when its reply was lost (libs/contracts `mustLand`): two attempts may be
    // written at once, which NOT EXISTS alone cannot see. One row per (conversation, turn, role).
    id: '202611260100-conversation-turns-unique-turn',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`DELETE FROM conversation_turns a USING conversation_turns b
        WHERE a.client_id = b.client_id AND a.conversation_id = b.conversation_id AND a.turn_index = b.turn_index AND a.role = b.role AND a.id > b.id`);
      await q.query('CREATE UNIQUE INDEX IF NOT EXISTS conversation_turns_turn_role_uq ON conversation_turns (client_id, conversation_id, turn_index, role)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP INDEX IF EXISTS conversation_turns_turn_role_uq');
    },
  },
  {
    // The titles clients give their conversations (the list shows the first question otherwise).
    id: '202611270100-conversation-titles',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`
        CREATE TABLE IF NOT EXISTS conversation_titles (
          client_id text NOT NULL,
          conversation_id text NOT NULL,
          title text NOT NULL,
          updated_at timestamptz NOT NULL,
          PRIMARY KEY (client_id, conversation_id)
        )`);
      // The list reads each conversation's last activity from its turns.
      await q.query('CREATE INDEX IF NOT EXISTS conversation_turns_client_idx ON conversation_turns (client_id, conversation_id, created_at)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP INDEX IF EXISTS conversation_turns_client_idx');
      await q.query('DROP TABLE IF EXISTS conversation_titles');
    },
  },
  {
    // A person's verdict on an answer, with the questions and the answer's meta copied in (never a key).
    id: '202611270200-answer-feedback',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`
        CREATE TABLE IF NOT EXISTS answer_feedback (
          id bigserial PRIMARY KEY,
          client_id text NOT NULL,
          conversation_id text NOT NULL,
          request_id text NOT NULL,
          turn_index integer NOT NULL,
          rating text NOT NULL CHECK (rating IN ('up', 'down')),
          comment text,
          questions jsonb NOT NULL,
          answer text NOT NULL,
          meta jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          UNIQUE (client_id, conversation_id, request_id)
        )`);
      await q.query('CREATE INDEX IF NOT EXISTS answer_feedback_created_idx ON answer_feedback (created_at)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE IF EXISTS answer_feedback');
    },
  },
];

interface TurnRow {
  role: Turn['role'];
  content: string;
  meta: Record<string, unknown> | string;
  created_at: Date | string;
}

const toTurn = (r: TurnRow): Turn => ({
  role: r.role,
  content: r.content,
  meta: typeof r.meta === 'string' ? (JSON.parse(r.meta) as Record<string, unknown>) : r.meta,
  created_at: new Date(r.created_at).toISOString(),
});

type TurnValues = [clientId: string, conversationId: string, turnIndex: number, role: string, content: string, meta: string, createdAt: string];

interface PendingAppend {
  values: TurnValues;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** Idempotent per (conversation, turn, role): a retry after a lost reply cannot record the turn twice. */
const INSERT_ONE = `INSERT INTO conversation_turns (client_id, conversation_id, turn_index, role, content, meta, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (client_id, conversation_id, turn_index, role) DO NOTHING`;

/** The same, for many turns in one statement (one array per column, in append order). */
const INSERT_MANY = `INSERT INTO conversation_turns (client_id, conversation_id, turn_index, role, content, meta, created_at)
  SELECT v.client_id, v.conversation_id, v.turn_index, v.role, v.content, v.meta, v.created_at
    FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[])
         WITH ORDINALITY AS v(client_id, conversation_id, turn_index, role, content, meta, created_at, n)
   ORDER BY v.n
  ON CONFLICT (client_id, conversation_id, turn_index, role) DO NOTHING`;

/** Appends waiting in one batch at most (a statement's arrays stay small). */
const MAX_BATCH = 200;

/**
 * Full conversation history in Postgres: one row per turn, never summarised; deleted only by
 * retention and erasure. An append resolves once its row is committed (a turn is never lost), but
 * the appends of one event-loop turn (concurrent questions) share one INSERT: under load a round
 * trip per turn was a large share of the context service's and Postgres's CPU. Should the shared
 * statement fail, each turn is retried alone, so one bad row never fails another question.
 */
export class PostgresHistoryStore implements HistoryStore {
  private pending: PendingAppend[] = [];
  private flushScheduled = false;

  constructor(private readonly ds: DataSource) {}

  append(key: ConversationKey, turnIndex: number, turn: Turn): Promise<void> {
    const values: TurnValues = [key.clientId, key.conversationId, turnIndex, turn.role, turn.content, JSON.stringify(turn.meta ?? {}), turn.created_at];
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ values, resolve, reject });
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.pending.splice(0, MAX_BATCH);
    if (this.pending.length) {
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    }
    if (batch.length === 1) return this.insertOne(batch[0].values).then(batch[0].resolve, batch[0].reject);
    try {
      // One array per column; a turn appended twice (a repeated commit) is kept once by the unique index.
      const columns = batch[0].values.map((_, c) => batch.map((b) => b.values[c]));
      await onLostConnection.execute(() => this.ds.query(INSERT_MANY, columns));
      for (const b of batch) b.resolve();
    } catch {
      // Each turn alone, so one bad row never fails another question.
      await Promise.all(batch.map((b) => this.insertOne(b.values).then(b.resolve, b.reject)));
    }
  }

  private async insertOne(values: TurnValues): Promise<void> {
    await onLostConnection.execute(() => this.ds.query(INSERT_ONE, values));
  }

  async list(key: ConversationKey, limit: number): Promise<Turn[]> {
    const rows = (await this.ds.query(
      `SELECT role, content, meta, created_at FROM (
         SELECT role, content, meta, created_at, turn_index, id FROM conversation_turns t
          WHERE client_id = $1 AND conversation_id = $2
            AND NOT (role = 'user' AND meta @> '{"unanswered": true}' AND NOT EXISTS (
              SELECT 1 FROM conversation_turns a
               WHERE a.client_id = t.client_id AND a.conversation_id = t.conversation_id AND a.turn_index = t.turn_index AND a.role = 'assistant'))
          ORDER BY turn_index DESC, id DESC LIMIT $3
       ) last ORDER BY turn_index, id`,
      [key.clientId, key.conversationId, limit],
    )) as TurnRow[];
    return rows.map(toTurn);
  }

  async recent(key: ConversationKey, limit: number): Promise<IndexedTurn[]> {
    const rows = (await this.ds.query(
      `SELECT turn_index, role, content, meta, created_at FROM (
         SELECT turn_index, role, content, meta, created_at, id FROM conversation_turns
          WHERE client_id = $1 AND conversation_id = $2
          ORDER BY turn_index DESC, id DESC LIMIT $3
       ) last ORDER BY turn_index, id`,
      [key.clientId, key.conversationId, limit],
    )) as Array<TurnRow & { turn_index: number }>;
    return rows.map((r) => ({ turnIndex: Number(r.turn_index), turn: toTurn(r) }));
  }

  async markUnanswered(key: ConversationKey, turnIndexes: number[]): Promise<void> {
    if (turnIndexes.length === 0) return;
    await onLostConnection.execute(() =>
      this.ds.query(
        `UPDATE conversation_turns t SET meta = t.meta || '{"unanswered": true}'::jsonb
          WHERE t.client_id = $1 AND t.conversation_id = $2 AND t.turn_index = ANY($3::int[]) AND t.role = 'user'
            AND NOT t.meta @> '{"unanswered": true}'
            AND NOT EXISTS (SELECT 1 FROM conversation_turns a
                             WHERE a.client_id = t.client_id AND a.conversation_id = t.conversation_id AND a.turn_index = t.turn_index AND a.role = 'assistant')`,
        [key.clientId, key.conversationId, turnIndexes],
      ),
    );
  }

  async eraseClient(clientId: string): Promise<number> {
    const [row] = (await this.ds.query('WITH gone AS (DELETE FROM conversation_turns WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone', [clientId])) as Array<{
      n: number;
    }>;
    return Number(row?.n ?? 0);
  }

  /**
   * One batch of the retention sweep. Rows another replica is deleting at the same moment are
   * skipped (SKIP LOCKED), so replicas sweeping together neither block nor double count.
   */
  async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
    return deleteOldestBatch(this.ds, 'conversation_turns', cutoff, limit);
  }

  async lastTurnIndex(key: ConversationKey): Promise<number> {
    const [row] = (await this.ds.query('SELECT COALESCE(MAX(turn_index), 0)::int AS last FROM conversation_turns WHERE client_id = $1 AND conversation_id = $2', [
      key.clientId,
      key.conversationId,
    ])) as Array<{ last: number }>;
    return Number(row?.last ?? 0);
  }
}
