import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Migration } from '@cota/service-kit';

/** Keys are random tokens; only their SHA-256 is stored, so a leaked table reveals no key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateApiKey(): string {
  return `cota_${randomBytes(24).toString('base64url')}`;
}

export interface ApiKeyRecord {
  client_id: string;
  key_hash: string;
  source: 'demo' | 'admin';
}

/** Storage of API keys (repository: every I/O of keys goes through it). */
export interface ApiKeyRepository {
  findClientByHash(keyHash: string): Promise<string | null>;
  upsert(record: ApiKeyRecord): Promise<void>;
  /** Revokes demo keys not in `keep` (COTA_DEMO_KEYS seeds exactly its keys); returns the revoked hashes. */
  revokeDemoKeysExcept(keepHashes: string[]): Promise<string[]>;
  countActive(): Promise<number>;
  /** The hashes of every key of the client (active or revoked). */
  hashesOfClient(clientId: string): Promise<string[]>;
  /** Erasure: deletes every key of the client (active or revoked); returns the deleted hashes. */
  deleteClient(clientId: string): Promise<string[]>;
}

export const accessMigrations: Migration[] = [
  {
    id: '202611220001-access-api-keys',
    async up(q) {
      await q.query(`CREATE TABLE IF NOT EXISTS api_keys (
        key_hash text PRIMARY KEY,
        client_id text NOT NULL,
        source text NOT NULL CHECK (source IN ('demo','admin')),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS api_keys_client_idx ON api_keys (client_id)');
    },
    async down(q) {
      await q.query('DROP TABLE IF EXISTS api_keys');
    },
  },
];

export class PostgresApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly ds: DataSource) {}

  async findClientByHash(keyHash: string): Promise<string | null> {
    const rows: Array<{ client_id: string }> = await this.ds.query('SELECT client_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [keyHash]);
    return rows[0]?.client_id ?? null;
  }

  async upsert(r: ApiKeyRecord): Promise<void> {
    await this.ds.query(
      `INSERT INTO api_keys (key_hash, client_id, source) VALUES ($1, $2, $3)
       ON CONFLICT (key_hash) DO UPDATE SET client_id = EXCLUDED.client_id, source = EXCLUDED.source, revoked_at = NULL`,
      [r.key_hash, r.client_id, r.source],
    );
  }

  async revokeDemoKeysExcept(keep: string[]): Promise<string[]> {
    const rows = await this.ds.query(
      `UPDATE api_keys SET revoked_at = now() WHERE source = 'demo' AND revoked_at IS NULL AND NOT (key_hash = ANY($1::text[])) RETURNING key_hash`,
      [keep],
    );
    // TypeORM answers an UPDATE ... RETURNING as [rows, count].
    return hashesOf(Array.isArray(rows?.[0]) ? rows[0] : rows);
  }

  async countActive(): Promise<number> {
    const rows: Array<{ n: string }> = await this.ds.query('SELECT count(*)::text AS n FROM api_keys WHERE revoked_at IS NULL');
    return Number(rows[0].n);
  }

  async hashesOfClient(clientId: string): Promise<string[]> {
    return hashesOf(await this.ds.query('SELECT key_hash FROM api_keys WHERE client_id = $1', [clientId]));
  }

  async deleteClient(clientId: string): Promise<string[]> {
    return hashesOf(await this.ds.query('WITH gone AS (DELETE FROM api_keys WHERE client_id = $1 RETURNING key_hash) SELECT key_hash FROM gone', [clientId]));
  }
}

const hashesOf = (rows: Array<{ key_hash: string }> | undefined): string[] => (rows ?? []).map((r) => r.key_hash);

/** For unit tests of the authenticator. */
export class InMemoryApiKeyRepository implements ApiKeyRepository {
  readonly records = new Map<string, ApiKeyRecord & { revoked: boolean }>();
  async findClientByHash(h: string) {
    const r = this.records.get(h);
    return r && !r.revoked ? r.client_id : null;
  }
  async upsert(r: ApiKeyRecord) {
    this.records.set(r.key_hash, { ...r, revoked: false });
  }
  async revokeDemoKeysExcept(keep: string[]) {
    const revoked: string[] = [];
    for (const r of this.records.values()) {
      if (r.source === 'demo' && !r.revoked && !keep.includes(r.key_hash)) {
        r.revoked = true;
        revoked.push(r.key_hash);
      }
    }
    return revoked;
  }
  async countActive() {
    return [...this.records.values()].filter((r) => !r.revoked).length;
  }
  async hashesOfClient(clientId: string) {
    return [...this.records.values()].filter((r) => r.client_id === clientId).map((r) => r.key_hash);
  }
  async deleteClient(clientId: string) {
    const gone = await this.hashesOfClient(clientId);
    for (const h of gone) this.records.delete(h);
    return gone;
  }
}

/**
 * Resolves a bearer key to its client, with a short in-process cache so the hot path does not
 * hit Postgres on every question. A revocation (`forgetKeys`, told by the key-revocation broadcast)
 * takes effect at once; the cache's `cacheMs` only bounds a revocation this process never heard of.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { clientId: string | null; until: number }>();
  /** Revocations heard so far: a lookup that a revocation overtook is not cached (it may predate it). */
  private revocations = 0;

  constructor(
    private readonly repo: ApiKeyRepository,
    private readonly cacheMs = 30_000,
    /** Told whether each lookup was answered from the cache (metrics). */
    private readonly onLookup: ((hit: boolean) => void) | null = null,
  ) {}

  async authenticate(key: string): Promise<string | null> {
    const h = hashApiKey(key);
    const hit = this.cache.get(h);
    const fresh = !!hit && hit.until > Date.now();
    this.onLookup?.(fresh);
    if (hit && fresh) return hit.clientId;
    const heard = this.revocations;
    const clientId = await this.repo.findClientByHash(h);
    if (heard !== this.revocations) return clientId;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(h, { clientId, until: Date.now() + (clientId ? this.cacheMs : 2_000) });
    return clientId;
  }

  /** Revoked keys (by hash): this process stops accepting them at once. */
  forgetKeys(keyHashes: readonly string[]): void {
    this.revocations++;
    for (const h of keyHashes) this.cache.delete(h);
  }

  /**
   * Drops this process's cached keys of one client (after its erasure answered here, when the erase
   * step ran on another replica whose broadcast may not have arrived yet).
   */
  forgetClient(clientId: string): void {
    this.revocations++;
    for (const [h, entry] of [...this.cache.entries()]) if (entry.clientId === clientId) this.cache.delete(h);
  }
}

export const DEMO_CLIENTS = ['cliente-demo-1', 'cliente-demo-2', 'cliente-demo-3'];

/**
 * Which demo seeding a gateway start does: `listed` with COTA_DEMO_KEYS (exactly those keys, any
 * mode); `generate` (one key per demo client, printed once, when there is no key at all) only in
 * embedded mode or with COTA_DEMO=1; otherwise `none`: a distributed deployment never gets demo
 * keys it did not ask for.
 */
export function demoKeySeeding(env: { embedded: boolean; demo: boolean; demoKeys: Array<{ clientId: string; key: string }> | null }): 'listed' | 'generate' | 'none' {
  if (env.demoKeys) return 'listed';
  return env.embedded || env.demo ? 'generate' : 'none';
}

/**
 * Demo seeding. With COTA_DEMO_KEYS: exactly those keys are active demo keys (the others revoked,
 * returned so the caller can tell every gateway). Without it and no key at all: one new key per
 * demo client, returned so the caller can print them once.
 */
export async function seedDemoKeys(
  repo: ApiKeyRepository,
  demoKeys: Array<{ clientId: string; key: string }> | null,
): Promise<{ created: Array<{ clientId: string; key: string }>; seeded: number; revoked: string[] }> {
  if (demoKeys) {
    for (const k of demoKeys) await repo.upsert({ client_id: k.clientId, key_hash: hashApiKey(k.key), source: 'demo' });
    const revoked = await repo.revokeDemoKeysExcept(demoKeys.map((k) => hashApiKey(k.key)));
    return { created: [], seeded: demoKeys.length, revoked };
  }
  if ((await repo.countActive()) > 0) return { created: [], seeded: 0, revoked: [] };
  const created = DEMO_CLIENTS.map((clientId) => ({ clientId, key: generateApiKey() }));
  for (const k of created) await repo.upsert({ client_id: k.clientId, key_hash: hashApiKey(k.key), source: 'demo' });
  return { created, seeded: created.length, revoked: [] };
}
