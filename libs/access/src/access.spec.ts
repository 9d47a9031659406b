import { ApiKeyAuthenticator, hashApiKey, InMemoryApiKeyRepository, seedDemoKeys } from './api-keys';
import { InMemoryRateLimiter } from './rate-limiter';

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

describe('InMemoryRateLimiter', () => {
  it('allows up to the per-minute limit, then says when to retry', async () => {
    const rl = new InMemoryRateLimiter({ requests_per_minute: 2, requests_per_day: 100 });
    const t = Date.UTC(2026, 0, 1, 12, 0, 45);
    expect((await rl.hit('ana', t)).allowed).toBe(true);
    expect((await rl.hit('ana', t)).allowed).toBe(true);
    expect(await rl.hit('ana', t)).toEqual({ allowed: false, retryAfterSeconds: 15, limit: 'minute' });
    expect((await rl.hit('bia', t)).allowed).toBe(true); // per client
    expect((await rl.hit('ana', t + 20_000)).allowed).toBe(true); // next minute
  });

  it('enforces the daily quota', async () => {
    const rl = new InMemoryRateLimiter({ requests_per_minute: 100, requests_per_day: 1 });
    const t = Date.UTC(2026, 0, 1, 23, 59, 0);
    expect((await rl.hit('ana', t)).allowed).toBe(true);
    expect(await rl.hit('ana', t + 1000)).toMatchObject({ allowed: false, limit: 'day', retryAfterSeconds: 59 });
  });
});
