import type { DataSource } from 'typeorm';
import { openDatabase, postgresJobLock, RecurringJob } from '@cota/service-kit';
import { createTestDatabase, TestDatabase } from '@cota/test-support';

/** The job lock on the real Postgres: replicas (two pools here) run a job one at a time. */
describe('recurring jobs shared by replicas (Postgres advisory lock)', () => {
  let db: TestDatabase;
  let replicaA: DataSource;
  let replicaB: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase('jobs');
    replicaA = await openDatabase({ url: db.url });
    replicaB = await openDatabase({ url: db.url });
  }, 60_000);
  afterAll(async () => {
    await replicaA.destroy();
    await replicaB.destroy();
    await db.drop();
  });

  it('lets one replica run the job while the other skips it, then either may run it again', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = postgresJobLock(replicaA, 'sweep').tryRun(async () => {
      await held;
      return 'a ran';
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(await postgresJobLock(replicaB, 'sweep').tryRun(async () => 'b ran')).toBeNull();
    // Another job is not blocked by this one.
    expect(await postgresJobLock(replicaB, 'other').tryRun(async () => 'other ran')).toBe('other ran');
    release();
    expect(await first).toBe('a ran');
    expect(await postgresJobLock(replicaB, 'sweep').tryRun(async () => 'b ran')).toBe('b ran');
  });

  it('releases the lock when the body fails', async () => {
    await expect(postgresJobLock(replicaA, 'failing').tryRun(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await postgresJobLock(replicaB, 'failing').tryRun(async () => 'ran')).toBe('ran');
  });

  it('runs a recurring job at start, on one replica only, and waits for the run in flight on stop', async () => {
    const runs: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const a = new RecurringJob(
      'demo',
      3600,
      async () => {
        runs.push('a');
        await held;
      },
      postgresJobLock(replicaA, 'demo'),
    );
    a.start();
    await new Promise((r) => setTimeout(r, 100));
    const b = new RecurringJob(
      'demo',
      3600,
      async () => {
        runs.push('b');
      },
      postgresJobLock(replicaB, 'demo'),
    );
    b.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toEqual(['a']);
    let stopped = false;
    const stopping = a.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    await b.stop();
  });
});
