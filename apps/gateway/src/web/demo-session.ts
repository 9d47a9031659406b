import { isIPv4 } from 'node:net';
import { ApiKeyRepository, DEMO_CLIENTS, generateApiKey, hashApiKey } from '@cota/access';

export interface DemoCredentials {
  client_id: string;
  key: string;
}

/**
 * The chat page's "entrar como cliente de demonstração", in embedded mode only (one local process
 * with demo data). The key is an ordinary demo API key of the first demo client, made the first
 * time the page asks and stored (hashed) like every key, so it authenticates, is rate limited and
 * is erased with the client (DELETE /me/data) like any other. The plain key lives only in this
 * process's memory and in the browser that asked; a key no longer active (erased, revoked by
 * COTA_DEMO_KEYS at a restart) is replaced by a new one on the next login.
 * In any other mode, or to a caller from another machine, the page asks for a key and the gateway
 * answers 404 here.
 */
export class DemoSession {
  private current: DemoCredentials | null = null;
  private pending: Promise<DemoCredentials> | null = null;

  constructor(
    private readonly repo: ApiKeyRepository,
    readonly enabled: boolean,
    readonly clientId: string = DEMO_CLIENTS[0],
  ) {}

  /**
   * Whether a caller at `remoteAddress` (the socket's peer, never a forwarded header) may use the demo
   * login: embedded mode, and a caller on this machine. Embedded mode binds loopback by default, but a
   * HOST of 0.0.0.0 must not hand a working key to anyone on the network.
   */
  availableTo(remoteAddress: string | undefined): boolean {
    return this.enabled && isLoopback(remoteAddress);
  }

  /** The demo login's credentials for a caller at `remoteAddress`, or null when it may not have them. */
  async issue(remoteAddress: string | undefined): Promise<DemoCredentials | null> {
    if (!this.availableTo(remoteAddress)) return null;
    if (!this.pending) this.pending = this.activeOrNew().finally(() => (this.pending = null));
    return this.pending;
  }

  private async activeOrNew(): Promise<DemoCredentials> {
    if (this.current && (await this.repo.findClientByHash(hashApiKey(this.current.key))) === this.current.client_id) return this.current;
    const key = generateApiKey();
    await this.repo.upsert({ client_id: this.clientId, key_hash: hashApiKey(key), source: 'demo' });
    this.current = { client_id: this.clientId, key };
    return this.current;
  }
}

/** 127.0.0.0/8 (also IPv4-mapped in IPv6) or ::1: a caller on this machine. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || (isIPv4(v4) && v4.startsWith('127.'));
}
