import { Cron } from 'croner';
import type { DataSource } from 'typeorm';

/** Runs a job body only when this replica holds the job's lock; null when another replica is running it. */
export interface JobLock {
  tryRun<T>(run: () => Promise<T>): Promise<T | null>;
}

/**
 * A Postgres session advisory lock named after the job, held on one pooled connection while the body
 * runs: replicas sharing the database run the job one at a time, and a replica that dies releases it
 * with its connection.
 */
export function postgresJobLock(ds: DataSource, job: string): JobLock {
  return {
    async tryRun<T>(run: () => Promise<T>): Promise<T | null> {
      const conn = ds.createQueryRunner();
      await conn.connect();
      try {
        const [row] = (await conn.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [`cota-job:${job}`])) as Array<{ locked: boolean }>;
        if (!row?.locked) return null;
        try {
          return await run();
        } finally {
          await conn.query('SELECT pg_advisory_unlock(hashtext($1))', [`cota-job:${job}`]);
        }
      } finally {
        await conn.release();
      }
    },
  };
}

/**
 * A job run right after `start()` and then every `everySeconds` (croner): runs never overlap (croner's
 * protection), with a `lock` only one replica runs it at a time, and `stop()` waits for the run in flight.
 * The timer never keeps a process alive on its own.
 */
export class RecurringJob {
  private cron: Cron | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    readonly name: string,
    private readonly everySeconds: number,
    private readonly body: () => Promise<void>,
    private readonly lock?: JobLock,
  ) {}

  /** Runs the job now, then every `everySeconds` counted from now. */
  start(): void {
    if (this.cron) return;
    this.cron = new Cron('* * * * * *', { interval: this.everySeconds, startAt: new Date(), protect: true, unref: true }, () => this.run());
    void this.cron.trigger();
  }

  async stop(): Promise<void> {
    this.cron?.stop();
    this.cron = null;
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<void> {
    const run = this.lock ? this.lock.tryRun(this.body) : this.body();
    this.running = run;
    try {
      await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }
}
