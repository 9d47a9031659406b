import { mkdirSync } from 'node:fs';
import { Logger } from './logger';

const log = new Logger('embedded-postgres');

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite served on a local socket, so embedded mode uses the same `pg`/TypeORM code as production.
 * `dataDir` null keeps it in memory (tests of the embedded path); otherwise it persists.
 */
export async function startEmbeddedPostgres(dataDir: string | null): Promise<EmbeddedPostgres> {
  // Loaded lazily: production services never need the WASM build.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  let extensions: Record<string, unknown> = {};
  try {
    const { vector } = await import('@electric-sql/pglite-pgvector');
    extensions = { vector };
  } catch {
    log.warn('pgvector extension for PGlite not available; vector search falls back to in-process scoring');
  }
  const db = await PGlite.create(dataDir ?? 'memory://', { extensions } as Parameters<typeof PGlite.create>[1]);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  log.info('embedded Postgres (PGlite) listening', { url, persistent: Boolean(dataDir) });
  return {
    url,
    stop: async () => {
      await server.stop().catch(() => undefined);
      await db.close().catch(() => undefined);
    },
  };
}
