import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { CotaError } from '@cota/contracts';
import { loadPolicy } from '@cota/config';
import { AlertRule, describeRule } from './rule';

/** policies/quotas.yaml `alerts`: how many rules one client may keep (active or paused). */
export const AlertQuota = z.object({ alerts: z.object({ max_rules_per_client: z.number().int().min(1).max(1000) }).strict() }).passthrough();
export const loadAlertQuota = () => loadPolicy('quotas', AlertQuota).alerts;

export interface StoredRule {
  rule_id: string;
  rule: AlertRule;
  description: string;
  status: 'active' | 'paused';
  created_at: string;
}

export interface ClientNotification {
  notification_id: number;
  rule_id: string | null;
  title: string;
  body: string;
  created_at: string;
  read: boolean;
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

/** The clients' alert rules and notifications (Postgres); every read and write is scoped by client. */
export class AlertStore {
  constructor(
    private readonly ds: DataSource,
    private readonly maxRulesPerClient: number,
  ) {}

  /** Creates a rule within the client's limit; the same confirmation id creates it once. */
  async create(clientId: string, rule: AlertRule, idempotencyKey: string | null): Promise<{ rule: StoredRule; created: boolean }> {
    const q = this.ds.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      // One client's creations are serialised, so two at once cannot both pass the limit.
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`alerts:${clientId}`]);
      if (idempotencyKey) {
        const same = await q.query('SELECT * FROM alert_rules WHERE idempotency_key = $1 AND client_id = $2', [idempotencyKey, clientId]);
        if (same.length) {
          await q.commitTransaction();
          return { rule: toStored(same[0]), created: false };
        }
      }
      const n = Number((await q.query('SELECT count(*) AS n FROM alert_rules WHERE client_id = $1', [clientId]))[0].n);
      if (n >= this.maxRulesPerClient) {
        throw new CotaError('BAD_REQUEST', `Você já tem ${n} alertas, o limite por cliente. Remova um (ex.: "remover alerta 1") antes de criar outro.`, {
          limit: this.maxRulesPerClient,
        });
      }
      const rows = await q.query(
        `INSERT INTO alert_rules (rule_id, client_id, rule, description, status, idempotency_key) VALUES ($1, $2, $3::jsonb, $4, 'active', $5) RETURNING *`,
        [`alr_${randomUUID()}`, clientId, JSON.stringify(rule), describeRule(rule), idempotencyKey],
      );
      await q.commitTransaction();
      return { rule: toStored(rows[0]), created: true };
    } catch (e) {
      if (q.isTransactionActive) await q.rollbackTransaction();
      throw e;
    } finally {
      await q.release();
    }
  }

  /** The client's rules, oldest first (their position is the number the chat uses: "remover alerta 2"). */
  async list(clientId: string): Promise<StoredRule[]> {
    return (await this.ds.query('SELECT * FROM alert_rules WHERE client_id = $1 ORDER BY created_at, rule_id', [clientId])).map(toStored);
  }

  async setStatus(clientId: string, ruleId: string, status: 'active' | 'paused'): Promise<StoredRule | null> {
    const [rows] = await this.ds.query('UPDATE alert_rules SET status = $3 WHERE client_id = $1 AND rule_id = $2 RETURNING *', [clientId, ruleId, status]);
    return rows?.[0] ? toStored(rows[0]) : null;
  }

  async remove(clientId: string, ruleId: string): Promise<boolean> {
    const r = await this.ds.query('WITH gone AS (DELETE FROM alert_rules WHERE client_id = $1 AND rule_id = $2 RETURNING 1) SELECT count(*)::int AS n FROM gone', [
      clientId,
      ruleId,
    ]);
    return r[0].n > 0;
  }

  /** The newest notifications and how many are unread. */
  async notifications(clientId: string, limit = 50): Promise<{ notifications: ClientNotification[]; unread: number }> {
    const rows = await this.ds.query(
      'SELECT notification_id, rule_id, title, body, created_at, read_at FROM client_notifications WHERE client_id = $1 ORDER BY notification_id DESC LIMIT $2',
      [clientId, limit],
    );
    const unread = Number((await this.ds.query('SELECT count(*) AS n FROM client_notifications WHERE client_id = $1 AND read_at IS NULL', [clientId]))[0].n);
    return {
      notifications: rows.map((r: Record<string, unknown>) => ({
        notification_id: Number(r.notification_id),
        rule_id: (r.rule_id as string | null) ?? null,
        title: String(r.title),
        body: String(r.body),
        created_at: iso(r.created_at),
        read: r.read_at !== null,
      })),
      unread,
    };
  }

  /** Marks the client's notifications up to `upTo` (all when null) as read; returns how many changed. */
  async markRead(clientId: string, upTo: number | null): Promise<number> {
    const r = await this.ds.query(
      `WITH done AS (UPDATE client_notifications SET read_at = now() WHERE client_id = $1 AND read_at IS NULL AND ($2::bigint IS NULL OR notification_id <= $2) RETURNING 1) SELECT count(*)::int AS n FROM done`,
      [clientId, upTo],
    );
    return r[0].n;
  }

  /** Erasure: the client's rules (their evaluations with them) and notifications. */
  async erase(clientId: string): Promise<{ rules: number; notifications: number }> {
    const n = await this.ds.query('WITH gone AS (DELETE FROM client_notifications WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone', [clientId]);
    const r = await this.ds.query('WITH gone AS (DELETE FROM alert_rules WHERE client_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone', [clientId]);
    return { rules: r[0].n, notifications: n[0].n };
  }
}

function toStored(r: Record<string, unknown>): StoredRule {
  return {
    rule_id: String(r.rule_id),
    rule: AlertRule.parse(r.rule),
    description: String(r.description),
    status: r.status as StoredRule['status'],
    created_at: iso(r.created_at),
  };
}
