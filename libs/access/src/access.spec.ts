import { ApiKeyAuthenticator, demoKeySeeding, hashApiKey, InMemoryApiKeyRepository, seedDemoKeys } from './api-keys';
import { InMemoryAskFence } from './ask-fence';
import { InMemoryRateLimiter } from './rate-limiter';
import { describeAskFenceContract } from './testing/ask-fence-contract';
import { describeRateLimiterContract } from './testing/rate-limiter-contract';

describe('API keys', () => {
  it('stores only hashes and authenticates by key', async () => {
    const repo = new InMemoryApiKeyRepository();
    await seedDemoKeys(repo, [{ clientId: 'ana', key: 'chave-da-ana-123' }]);
    expect([...repo.records.keys()]).toEqual([hashApiKey('chave-da-ana-123')]);
    expect(JSON.stringify([...repo.records.values()])).not.toContain('chave-da-ana-123');
    const auth = new ApiKeyAuthenticator(repo);
    await expect(auth.authenticate('chave-da-ana-123')).resolves.toBe('ana');
    await expect(auth.authenticate('outra-chave-qualquer')).resolves.toBeNull();
  });

  it('COTA_DEMO_KEYS seeds exactly its keys: earlier demo keys are revoked', async () => {
    const repo = new InMemoryApiKeyRepository();
    await seedDemoKeys(repo, [{ clientId: 'ana', key: 'chave-antiga-000' }]);
    await seedDemoKeys(repo, [{ clientId: 'bia', key: 'chave-nova-11111' }]);
    const auth = new ApiKeyAuthenticator(repo, 0);
    await expect(auth.authenticate('chave-antiga-000')).resolves.toBeNull();
    await expect(auth.authenticate('chave-nova-11111')).resolves.toBe('bia');
  });

  it('without COTA_DEMO_KEYS creates one key per demo client once, and returns them to print', async () => {
    const repo = new InMemoryApiKeyRepository();
    const first = await seedDemoKeys(repo, null);
    expect(first.created.map((k) => k.clientId)).toEqual(['cliente-demo-1', 'cliente-demo-2', 'cliente-demo-3']);
    const auth = new ApiKeyAuthenticator(repo);
    await expect(auth.authenticate(first.created[1].key)).resolves.toBe('cliente-demo-2');
    expect((await seedDemoKeys(repo, null)).created).toEqual([]);
  });
});

describe('demo keys only where asked for', () => {
  const listed = [{ clientId: 'ana', key: 'chave-da-ana-123' }];
  it('seeds COTA_DEMO_KEYS in any mode', () => {
    expect(demoKeySeeding({ embedded: false, demo: false, demoKeys: listed })).toBe('listed');
    expect(demoKeySeeding({ embedded: true, demo: false, demoKeys: listed })).toBe('listed');
  });
  it('generates and prints keys embedded (first run) or with COTA_DEMO=1, never silently in distributed mode', () => {
    expect(demoKeySeeding({ embedded: true, demo: false, demoKeys: null })).toBe('generate');
    expect(demoKeySeeding({ embedded: false, demo: true, demoKeys: null })).toBe('generate');
    expect(demoKeySeeding({ embedded: false, demo: false, demoKeys: null })).toBe('none');
  });
});

describe('erasure of a client', () => {
  it("deletes every key of the client, active or revoked, and no other client's", async () => {
    const repo = new InMemoryApiKeyRepository();
    await seedDemoKeys(repo, [{ clientId: 'ana', key: 'chave-antiga-000' }]);
    await seedDemoKeys(repo, [
      { clientId: 'ana', key: 'chave-nova-11111' },
      { clientId: 'bia', key: 'chave-da-bia-222' },
    ]);
    expect((await repo.deleteClient('ana')).sort()).toEqual([hashApiKey('chave-antiga-000'), hashApiKey('chave-nova-11111')].sort());
    expect(await repo.deleteClient('ana')).toEqual([]);
    expect([...repo.records.values()].map((r) => r.client_id)).toEqual(['bia']);
  });

  it('forgets the cached keys of the client at once', async () => {
    const repo = new InMemoryApiKeyRepository();
    await seedDemoKeys(repo, [
      { clientId: 'ana', key: 'chave-da-ana-123' },
      { clientId: 'bia', key: 'chave-da-bia-456' },
    ]);
    const auth = new ApiKeyAuthenticator(repo, 60_000);
    await expect(auth.authenticate('chave-da-ana-123')).resolves.toBe('ana');
    await expect(auth.authenticate('chave-da-bia-456')).resolves.toBe('bia');
    await repo.deleteClient('ana');
    await expect(auth.authenticate('chave-da-ana-123')).resolves.toBe('ana'); // still cached
    auth.forgetClient('ana');
    await expect(auth.authenticate('chave-da-ana-123')).resolves.toBeNull();
    await expect(auth.authenticate('chave-da-bia-456')).resolves.toBe('bia');
  });
});

describe('revocation heard from the bus', () => {
  it('refuses the revoked keys at once, and only them', async () => {
    const repo = new InMemoryApiKeyRepository();
    await seedDemoKeys(repo, [
      { clientId: 'ana', key: 'chave-da-ana-123' },
      { clientId: 'bia', key: 'chave-da-bia-456' },
    ]);
    const auth = new ApiKeyAuthenticator(repo, 60_000);
    await expect(auth.authenticate('chave-da-ana-123')).resolves.toBe('ana');
    await expect(auth.authenticate('chave-da-bia-456')).resolves.toBe('bia');
    const gone = await repo.deleteClient('ana');
    auth.forgetKeys(gone);
    await expect(auth.authenticate('chave-da-ana-123')).resolves.toBeNull();
    await expect(auth.authenticate('chave-da-bia-456')).resolves.toBe('bia');
  });

  it('does not cache a lookup that a revocation overtook (it may have read the key before the revocation)', async () => {
    const repo = new InMemoryApiKeyRepository();
    await seedDemoKeys(repo, [{ clientId: 'ana', key: 'chave-da-ana-123' }]);
    let release!: () => void;
    const slow = Object.assign(Object.create(repo) as InMemoryApiKeyRepository, {
      findClientByHash: async (h: string) => {
        const found = await repo.findClientByHash(h);
        await new Promise<void>((r) => (release = r));
        return found;
      },
    });
    const auth = new ApiKeyAuthenticator(slow, 60_000);
    const first = auth.authenticate('chave-da-ana-123');
    await new Promise((r) => setImmediate(r));
    // The key is deleted and its revocation heard while the lookup had already read it.
    auth.forgetKeys(await repo.deleteClient('ana'));
    release();
    await expect(first).resolves.toBe('ana');
    const second = auth.authenticate('chave-da-ana-123');
    await new Promise((r) => setImmediate(r));
    release();
    await expect(second).resolves.toBeNull();
  });

  it('demo seeding returns the demo keys it revoked, for the broadcast', async () => {
    const repo = new InMemoryApiKeyRepository();
    await seedDemoKeys(repo, [{ clientId: 'ana', key: 'chave-antiga-000' }]);
    const next = await seedDemoKeys(repo, [{ clientId: 'ana', key: 'chave-nova-11111' }]);
    expect(next.revoked).toEqual([hashApiKey('chave-antiga-000')]);
  });
});

describeAskFenceContract('in-memory', (ttl) => new InMemoryAskFence(ttl));

describeRateLimiterContract('in-memory', (policy, windows) => new InMemoryRateLimiter(policy, windows));
