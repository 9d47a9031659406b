import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Extension } from '@electric-sql/pglite';
import { createLogger } from './logger';

const log = createLogger('embedded-postgres');

/** PGlite's unaccent, a subpath export of the package (typed here: "node" module resolution does not read export maps). */
const UNACCENT: string = '@electric-sql/pglite/contrib/unaccent';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite served on a local socket, so embedded mode uses the same `pg`/TypeORM code as production.
 * `dataDir` null keeps it in memory (tests of the embedded path); otherwise it persists.
 *
 * PGlite has no authentication: whoever reaches its socket is the superuser. So it is never on TCP
 * (issue 11): it listens on a Unix socket inside a fresh directory only this user can open (mode
 * 0700, removed at stop), `<dir>/.s.PGSQL.5432`, which `pg` reaches with the directory as host.
 */
export async function startEmbeddedPostgres(dataDir: string | null): Promise<EmbeddedPostgres> {
  // Loaded lazily: production services never need the WASM build.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // unaccent folds accents in the chunks' full-text search (libs/retrieval), as on a real Postgres.
  const { unaccent } = (await import(UNACCENT)) as { unaccent: Extension };
  let extensions: Record<string, unknown> = { unaccent };
  try {
    const { vector } = await import('@electric-sql/pglite-pgvector');
    extensions = { ...extensions, vector };
  } catch {
    log.warn('pgvector extension for PGlite not available; vector search falls back to in-process scoring');
  }
  const db = await PGlite.create(dataDir ?? 'memory://', { extensions } as Parameters<typeof PGlite.create>[1]);
  const socketDir = mkdtempSync(join(tmpdir(), 'cota-pg-')); // created 0700: private to this user
  const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: 16 });
  try {
    await server.start();
  } catch (e) {
    rmSync(socketDir, { recursive: true, force: true });
    await db.close().catch(() => undefined);
    throw e;
  }
  const url = embeddedPostgresUrl(socketDir);
  log.info({ socket_dir: socketDir, persistent: Boolean(dataDir) }, 'embedded Postgres (PGlite) listening on a private Unix socket');
  return {
    url,
    stop: async () => {
      await server.stop().catch(() => undefined);
      await db.close().catch(() => undefined);
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** The connection URL of a Unix socket directory: the host is the directory, percent-encoded. */
export function embeddedPostgresUrl(socketDir: string): string {
  return `postgres://postgres@${encodeURIComponent(socketDir)}/postgres`;
}
