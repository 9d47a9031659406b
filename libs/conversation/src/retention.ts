import { z } from 'zod';
import { loadPolicy } from '@cota/config';
import { JobLock, RecurringJob } from '@cota/service-kit';
import { HistoryStore } from './store';

const DAY_MS = 86_400_000;

/** How long the durable conversation turns are kept, and how the context service sweeps them. */
const TurnRetention = z
  .object({
    /** false keeps every turn (nothing is swept). */
    enabled: z.boolean(),
    /** Turns (questions and answers) older than this many days are deleted. */
    max_age_days: z.number().int().min(1).max(3650),
    /** Each context replica sweeps this often; the first sweep runs right after start-up. */
    sweep_interval_seconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 86_400),
    /** Rows deleted per statement, so no sweep holds a long transaction. */
    batch_size: z.number().int().min(1).max(100_000),
    /** Upper bound of batches per sweep (the rest waits for the next sweep). */
    max_batches_per_sweep: z.number().int().min(1).max(100_000),
  })
  .strict();

export const RetentionPolicySchema = z.object({ conversation_turns: TurnRetention }).strict();
export type RetentionPolicy = z.infer<typeof RetentionPolicySchema>;

/** The file: everything under a `retention:` block. */
export const RetentionPolicyFile = z.object({ retention: RetentionPolicySchema }).strict();

/** Loads and validates `policies/retention.yaml` (once, at start-up); a bad file throws PolicyError naming the field. */
export function loadRetentionPolicy(dir?: string): RetentionPolicy {
  return loadPolicy('retention', RetentionPolicyFile, dir).retention;
}

/** The decision: turns created strictly before this instant are past retention; null when retention is off. */
export function turnRetentionCutoff(policy: RetentionPolicy, nowMs: number): Date | null {
  const p = policy.conversation_turns;
  return p.enabled ? new Date(nowMs - p.max_age_days * DAY_MS) : null;
}

/** Whether one turn (its `created_at`) is past retention at `nowMs`. */
export function isTurnExpired(policy: RetentionPolicy, createdAt: string | Date, nowMs: number): boolean {
  const cutoff = turnRetentionCutoff(policy, nowMs);
  return cutoff !== null && new Date(createdAt).getTime() < cutoff.getTime();
}

export interface RetentionSweepResult {
  cutoff: string | null;
  deleted: number;
  batches: number;
  /** True when the sweep stopped at max_batches_per_sweep with rows possibly left. */
  truncated: boolean;
}

type Sweepable = Pick<HistoryStore, 'deleteOlderThan'>;

/**
 * Several stores swept as one under the same retention (the turns, and the feedback that copies
 * their text): a batch fills from each store in turn, so it comes back short only when all are done.
 */
export function sweptTogether(...stores: Sweepable[]): Sweepable {
  return {
    async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
      let deleted = 0;
      for (const store of stores) {
        if (deleted >= limit) break;
        deleted += await store.deleteOlderThan(cutoff, limit - deleted);
      }
      return deleted;
    },
  };
}

export interface TurnRetentionSweeperDeps {
  policy: RetentionPolicy;
  history: Pick<HistoryStore, 'deleteOlderThan'>;
  clock?: () => number;
  /** Shared by the replicas (a Postgres advisory lock): one sweeps at a time. */
  lock?: JobLock;
  onSwept?: (result: RetentionSweepResult) => void;
  onError?: (error: unknown) => void;
}

/**
 * The scheduled job of the context service (a RecurringJob): deletes the turns past retention in
 * batches, right after start and then every `sweep_interval_seconds`. A sweep never overlaps the
 * previous one, and `stop()` waits for the one in flight (so the database is not closed under it).
 */
export class TurnRetentionSweeper {
  private job: RecurringJob | null = null;
  /** Set by stop(): a sweep in flight ends after its current batch. */
  private stopping = false;
  private readonly clock: () => number;

  constructor(private readonly deps: TurnRetentionSweeperDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  get enabled(): boolean {
    return this.deps.policy.conversation_turns.enabled;
  }

  /** One sweep now: batches until one comes back short (or the per-sweep bound is reached). */
  async sweepOnce(): Promise<RetentionSweepResult> {
    const p = this.deps.policy.conversation_turns;
    const cutoff = turnRetentionCutoff(this.deps.policy, this.clock());
    if (!cutoff) return { cutoff: null, deleted: 0, batches: 0, truncated: false };
    let deleted = 0;
    let batches = 0;
    for (;;) {
      if (batches >= p.max_batches_per_sweep) return { cutoff: cutoff.toISOString(), deleted, batches, truncated: true };
      const n = await this.deps.history.deleteOlderThan(cutoff, p.batch_size);
      batches++;
      deleted += n;
      if (n < p.batch_size || this.stopping) return { cutoff: cutoff.toISOString(), deleted, batches, truncated: false };
    }
  }

  start(): void {
    if (!this.enabled || this.job) return;
    this.stopping = false;
    const sweep = () =>
      this.sweepOnce().then(
        (r) => this.deps.onSwept?.(r),
        (e) => this.deps.onError?.(e),
      );
    this.job = new RecurringJob('retention-sweep', this.deps.policy.conversation_turns.sweep_interval_seconds, sweep, this.deps.lock);
    this.job.start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const job = this.job;
    this.job = null;
    await job?.stop();
  }
}
