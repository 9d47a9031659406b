import type { DataSource } from 'typeorm';
import type { FeedbackRating, FeedbackRecord } from '@cota/contracts';
import { ConversationKey } from './store';
import { deleteOldestBatch } from './retention-batch';

export interface FeedbackInput {
  requestId: string;
  rating: FeedbackRating;
  comment: string | null;
}

interface FeedbackRow {
  client_id: string;
  conversation_id: string;
  request_id: string;
  turn_index: number | string;
  rating: FeedbackRating;
  comment: string | null;
  created_at: Date | string;
  questions: string[] | string;
  answer: string;
  meta: Record<string, unknown> | string;
}

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/**
 * A person's 👍/👎 on one answer, stored with what is needed to replay it: the conversation's questions
 * up to the rated one and the answer's recorded meta (the structured question, entity, params,
 * status; the API key is never part of a turn). One verdict per answer: rating again replaces it.
 */
export class PostgresFeedbackStore {
  constructor(private readonly ds: DataSource) {}

  /** False when no answer of this conversation carries the request id. */
  async record(key: ConversationKey, input: FeedbackInput): Promise<boolean> {
    const rows = (await this.ds.query(
      `WITH rated AS (
         SELECT turn_index, content, meta FROM conversation_turns
          WHERE client_id = $1 AND conversation_id = $2 AND role = 'assistant' AND meta->>'request_id' = $3
          ORDER BY turn_index DESC LIMIT 1
       )
       INSERT INTO answer_feedback (client_id, conversation_id, request_id, turn_index, rating, comment, questions, answer, meta, created_at)
       SELECT $1, $2, $3, r.turn_index, $4, $5,
              COALESCE((SELECT jsonb_agg(q.content ORDER BY q.turn_index, q.id) FROM conversation_turns q
                         WHERE q.client_id = $1 AND q.conversation_id = $2 AND q.role = 'user' AND q.turn_index <= r.turn_index), '[]'::jsonb),
              r.content, r.meta, now()
         FROM rated r
       ON CONFLICT (client_id, conversation_id, request_id)
         DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, created_at = EXCLUDED.created_at
       RETURNING 1`,
      [key.clientId, key.conversationId, input.requestId, input.rating, input.comment],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Feedback for the ops export, oldest first. */
  async export(filter: { rating: FeedbackRating | null; since: string | null; limit: number }): Promise<FeedbackRecord[]> {
    const rows = (await this.ds.query(
      `SELECT client_id, conversation_id, request_id, turn_index, rating, comment, created_at, questions, answer, meta FROM answer_feedback
        WHERE ($1::text IS NULL OR rating = $1) AND ($2::timestamptz IS NULL OR created_at >= $2)
        ORDER BY created_at, id LIMIT $3`,
      [filter.rating, filter.since, filter.limit],
    )) as FeedbackRow[];
    return rows.map((r) => ({
      client_id: r.client_id,
      conversation_id: r.conversation_id,
      request_id: r.request_id,
      turn_index: Number(r.turn_index),
      rating: r.rating,
      comment: r.comment,
      created_at: new Date(r.created_at).toISOString(),
      questions: json<string[]>(r.questions),
      answer: r.answer,
      meta: json<Record<string, unknown>>(r.meta),
    }));
  }

  /** Retention (policies/retention.yaml, with the turns it copies): at most `limit` verdicts given before `cutoff`. */
  async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
    return deleteOldestBatch(this.ds, 'answer_feedback', cutoff, limit);
  }

  /** Erasure: every verdict of one client. */
  async eraseClient(clientId: string): Promise<number> {
    const [row] = (await this.ds.query('WITH gone AS (DELETE FROM answer_feedback WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone', [clientId])) as Array<{
      n: number;
    }>;
    return Number(row?.n ?? 0);
  }
}
