import type { DataSource } from 'typeorm';
import type { ConversationSummary, ListConversationsResponse } from '@cota/contracts';
import { ConversationKey } from './store';

/** A conversation's title when the client gave none: its first question, cut to a line. */
export const TITLE_FROM_QUESTION_CHARS = 80;

export function titleFromQuestion(question: string | null | undefined): string {
  const line = (question ?? '').replace(/\s+/g, ' ').trim();
  if (!line) return 'Conversa sem perguntas';
  return line.length > TITLE_FROM_QUESTION_CHARS ? `${line.slice(0, TITLE_FROM_QUESTION_CHARS - 1).trimEnd()}…` : line;
}

/** Where a page of the list ends: the last conversation's activity and id (opaque to callers). */
interface Cursor {
  at: string;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at, c.id]), 'utf8').toString('base64url');
}

/** The cursor a caller sent back, or null when it is not one this store wrote. */
export function decodeCursor(raw: string): Cursor | null {
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string' || Number.isNaN(Date.parse(v[0]))) return null;
    return { at: v[0], id: v[1] };
  } catch {
    return null;
  }
}

export class InvalidCursorError extends Error {
  constructor() {
    super('cursor is not one this list wrote');
    this.name = 'InvalidCursorError';
  }
}

interface SummaryRow {
  id: string;
  last_activity: Date | string;
  questions: number | string;
  title: string | null;
  first_question: string | null;
}

/**
 * The client's conversations as a list (read from the durable turns, so a conversation exists once a
 * question was recorded), the titles the client gave them, and their deletion. Every query is scoped
 * by the client id the caller's key belongs to.
 */
export class PostgresConversationDirectory {
  constructor(private readonly ds: DataSource) {}

  async list(clientId: string, limit: number, cursor: string | null): Promise<ListConversationsResponse> {
    const after = cursor === null ? null : decodeCursor(cursor);
    if (cursor !== null && !after) throw new InvalidCursorError();
    const rows = (await this.ds.query(
      `WITH convs AS (
         SELECT conversation_id AS id, max(created_at) AS last_activity,
                count(*) FILTER (WHERE role = 'user')::int AS questions,
                (array_agg(content ORDER BY turn_index, id) FILTER (WHERE role = 'user'))[1] AS first_question
           FROM conversation_turns WHERE client_id = $1 GROUP BY conversation_id
       )
       SELECT c.id, c.last_activity, c.questions, c.first_question, t.title
         FROM convs c LEFT JOIN conversation_titles t ON t.client_id = $1 AND t.conversation_id = c.id
        WHERE $2::timestamptz IS NULL OR (c.last_activity, c.id) < ($2::timestamptz, $3::text)
        ORDER BY c.last_activity DESC, c.id DESC
        LIMIT $4`,
      [clientId, after?.at ?? null, after?.id ?? '', limit + 1],
    )) as SummaryRow[];
    const page = rows.slice(0, limit).map((r): ConversationSummary => ({
      id: r.id,
      title: r.title ?? titleFromQuestion(r.first_question),
      last_activity: new Date(r.last_activity).toISOString(),
      questions: Number(r.questions),
    }));
    const last = page[page.length - 1];
    return { conversations: page, next_cursor: rows.length > limit && last ? encodeCursor({ at: last.last_activity, id: last.id }) : null };
  }

  /** Names a conversation the client has (false when it has none with this id). */
  async rename(key: ConversationKey, title: string): Promise<boolean> {
    const rows = (await this.ds.query(
      `INSERT INTO conversation_titles (client_id, conversation_id, title, updated_at)
       SELECT $1, $2, $3, now() WHERE EXISTS (SELECT 1 FROM conversation_turns WHERE client_id = $1 AND conversation_id = $2)
       ON CONFLICT (client_id, conversation_id) DO UPDATE SET title = EXCLUDED.title, updated_at = EXCLUDED.updated_at
       RETURNING 1`,
      [key.clientId, key.conversationId, title],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Deletes the conversation's turns, title and feedback; returns how many turns went. */
  async remove(key: ConversationKey): Promise<number> {
    const args = [key.clientId, key.conversationId];
    await this.ds.query('DELETE FROM conversation_titles WHERE client_id = $1 AND conversation_id = $2', args);
    await this.ds.query('DELETE FROM answer_feedback WHERE client_id = $1 AND conversation_id = $2', args);
    const [row] = (await this.ds.query(
      'WITH gone AS (DELETE FROM conversation_turns WHERE client_id = $1 AND conversation_id = $2 RETURNING 1) SELECT count(*)::int AS n FROM gone',
      args,
    )) as Array<{ n: number }>;
    return Number(row?.n ?? 0);
  }

  /** Erasure: every title of one client. */
  async eraseClient(clientId: string): Promise<number> {
    const [row] = (await this.ds.query('WITH gone AS (DELETE FROM conversation_titles WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone', [
      clientId,
    ])) as Array<{
      n: number;
    }>;
    return Number(row?.n ?? 0);
  }
}
