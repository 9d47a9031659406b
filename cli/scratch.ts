import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { policiesDir } from '@cota/config';

/**
 * A fresh database on the Postgres of DATABASE_URL (default the local one), for a run that must
 * answer from this checkout's warehouse (evaluations, load benchmarks); dropped by `drop()`.
 */
export async function createScratchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const adminUrl = base.replace(/\/[^/]*$/, '/postgres');
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return { url: base.replace(/\/[^/]*$/, `/${name}`), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined) };
}

/**
 * A copy of the shipped policies with the per-client quotas raised: a benchmark is one client asking
 * a lot, which the product's rate limit would stop. Everything else is unchanged.
 */
export function policiesWithRaisedQuotas(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cota-bench-policies-'));
  cpSync(policiesDir(), dir, { recursive: true });
  const quotas = readFileSync(join(dir, 'quotas.yaml'), 'utf8')
    .replace(/requests_per_minute: \d+/, 'requests_per_minute: 100000000')
    .replace(/requests_per_day: \d+/, 'requests_per_day: 1000000000');
  writeFileSync(join(dir, 'quotas.yaml'), quotas);
  return dir;
}

/** A TCP port free on 127.0.0.1 right now (for a gateway or a NATS server this run starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
