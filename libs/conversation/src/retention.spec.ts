import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyError, policiesDir } from '@cota/config';
import { parse, stringify } from 'yaml';
import { isTurnExpired, loadRetentionPolicy, RetentionPolicy, RetentionSweepResult, sweptTogether, turnRetentionCutoff, TurnRetentionSweeper } from './retention';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 30, 12, 0, 0);

const policy = (over: Partial<RetentionPolicy['conversation_turns']> = {}): RetentionPolicy => ({
  conversation_turns: { enabled: true, max_age_days: 30, sweep_interval_seconds: 60, batch_size: 2, max_batches_per_sweep: 10, ...over },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- YAML documents are mutated freely to build bad files
type Doc = any;

function loadVariant(mutate: (doc: Doc) => void): RetentionPolicy {
  const dir = mkdtempSync(join(tmpdir(), 'cota-retention-'));
  try {
    const doc = parse(readFileSync(join(policiesDir(), 'retention.yaml'), 'utf8'));
    mutate(doc);
    writeFileSync(join(dir, 'retention.yaml'), stringify(doc));
    return loadRetentionPolicy(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('retention policy (policies/retention.yaml)', () => {
  it('ships a valid policy that keeps conversation turns for a bounded number of days', () => {
    const p = loadRetentionPolicy();
    expect(p.conversation_turns.enabled).toBe(true);
    expect(p.conversation_turns.max_age_days).toBeGreaterThan(0);
    expect(p.conversation_turns.sweep_interval_seconds).toBeGreaterThan(0);
  });

  it.each([
    ['a zero age', (d: Doc) => (d.retention.conversation_turns.max_age_days = 0), 'retention.conversation_turns.max_age_days'],
    ['a fractional interval', (d: Doc) => (d.retention.conversation_turns.sweep_interval_seconds = 1.5), 'retention.conversation_turns.sweep_interval_seconds'],
    ['a missing batch size', (d: Doc) => delete d.retention.conversation_turns.batch_size, 'retention.conversation_turns.batch_size'],
    ['an unknown field', (d: Doc) => (d.retention.conversation_turns.max_age = 3), 'retention.conversation_turns'],
    ['an unknown store', (d: Doc) => (d.retention.emails = {}), 'retention'],
  ])('refuses %s, naming the file and the field', (_label, mutate, field) => {
    let error: unknown;
    try {
      loadVariant(mutate);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PolicyError);
    expect((error as PolicyError).file).toMatch(/retention\.yaml$/);
    expect((error as PolicyError).field).toBe(field);
  });
});

describe('retention decision', () => {
  it('expires turns strictly older than max_age_days', () => {
    const p = policy({ max_age_days: 30 });
    expect(turnRetentionCutoff(p, NOW)!.toISOString()).toBe(new Date(NOW - 30 * DAY).toISOString());
    expect(isTurnExpired(p, new Date(NOW - 30 * DAY - 1), NOW)).toBe(true);
    expect(isTurnExpired(p, new Date(NOW - 30 * DAY), NOW)).toBe(false);
    expect(isTurnExpired(p, new Date(NOW - 29 * DAY).toISOString(), NOW)).toBe(false);
    expect(isTurnExpired(p, '2020-01-01T00:00:00.000Z', NOW)).toBe(true);
  });

  it('keeps everything when retention is disabled', () => {
    const p = policy({ enabled: false });
    expect(turnRetentionCutoff(p, NOW)).toBeNull();
    expect(isTurnExpired(p, '2000-01-01T00:00:00.000Z', NOW)).toBe(false);
  });
});

/** A history whose rows are creation times; deleteOlderThan behaves like the Postgres one. */
function fakeHistory(createdAt: number[]) {
  const rows = [...createdAt];
  const calls: Array<{ cutoff: string; limit: number }> = [];
  return {
    rows,
    calls,
    async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
      calls.push({ cutoff: cutoff.toISOString(), limit });
      let n = 0;
      for (let i = rows.length - 1; i >= 0 && n < limit; i--) {
        if (rows[i] < cutoff.getTime()) {
          rows.splice(i, 1);
          n++;
        }
      }
      return n;
    },
  };
}

describe('TurnRetentionSweeper', () => {
  afterEach(() => jest.useRealTimers());

  it('deletes in batches until a batch comes back short', async () => {
    const history = fakeHistory([NOW - 40 * DAY, NOW - 35 * DAY, NOW - 31 * DAY, NOW - 10 * DAY, NOW]);
    const sweeper = new TurnRetentionSweeper({ policy: policy({ batch_size: 2 }), history, clock: () => NOW });
    expect(await sweeper.sweepOnce()).toEqual({ cutoff: new Date(NOW - 30 * DAY).toISOString(), deleted: 3, batches: 2, truncated: false });
    expect(history.rows).toEqual([NOW - 10 * DAY, NOW]);
    expect(await sweeper.sweepOnce()).toMatchObject({ deleted: 0, batches: 1 });
  });

  it('stops at max_batches_per_sweep and leaves the rest to the next sweep', async () => {
    const history = fakeHistory(Array.from({ length: 7 }, (_, i) => NOW - (40 + i) * DAY));
    const sweeper = new TurnRetentionSweeper({ policy: policy({ batch_size: 2, max_batches_per_sweep: 2 }), history, clock: () => NOW });
    expect(await sweeper.sweepOnce()).toMatchObject({ deleted: 4, batches: 2, truncated: true });
    expect(history.rows).toHaveLength(3);
  });

  it('does nothing when disabled, not even start a timer', async () => {
    const history = fakeHistory([0]);
    const sweeper = new TurnRetentionSweeper({ policy: policy({ enabled: false }), history, clock: () => NOW });
    expect(await sweeper.sweepOnce()).toEqual({ cutoff: null, deleted: 0, batches: 0, truncated: false });
    sweeper.start();
    await sweeper.stop();
    expect(history.calls).toEqual([]);
  });

  it('sweeps right after start, then every sweep_interval_seconds, until stopped', async () => {
    jest.useFakeTimers({ now: NOW });
    const history = fakeHistory([NOW - 40 * DAY]);
    const swept: RetentionSweepResult[] = [];
    const sweeper = new TurnRetentionSweeper({ policy: policy({ sweep_interval_seconds: 60 }), history, onSwept: (r) => swept.push(r) });
    sweeper.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(swept.map((r) => r.deleted)).toEqual([1]);
    history.rows.push(Date.now() - 31 * DAY);
    await jest.advanceTimersByTimeAsync(59_000);
    expect(swept).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(swept.map((r) => r.deleted)).toEqual([1, 1]);
    await sweeper.stop();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(swept).toHaveLength(2);
  });

  it('reports a failing sweep and keeps its schedule', async () => {
    jest.useFakeTimers({ now: NOW });
    const errors: unknown[] = [];
    let calls = 0;
    const sweeper = new TurnRetentionSweeper({
      policy: policy({ sweep_interval_seconds: 10 }),
      history: {
        deleteOlderThan: async () => {
          calls++;
          throw new Error('database down');
        },
      },
      onError: (e) => errors.push(e),
    });
    sweeper.start();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(['database down', 'database down']);
    await sweeper.stop();
  });
});

describe('sweptTogether', () => {
  it('fills each batch from the stores in turn, short only when all are done', async () => {
    const rows = { turns: 5, feedback: 3 };
    const store = (k: keyof typeof rows) => ({
      deleteOlderThan: async (_c: Date, limit: number) => {
        const n = Math.min(limit, rows[k]);
        rows[k] -= n;
        return n;
      },
    });
    const both = sweptTogether(store('turns'), store('feedback'));
    const cutoff = new Date('2026-01-01');
    expect(await both.deleteOlderThan(cutoff, 4)).toBe(4);
    expect(await both.deleteOlderThan(cutoff, 4)).toBe(4);
    expect(await both.deleteOlderThan(cutoff, 4)).toBe(0);
    expect(rows).toEqual({ turns: 0, feedback: 0 });
  });
});
