import { EnvError, loadEnv } from './env';

describe('loadEnv', () => {
  it('is embedded when none of NATS_URL, DATABASE_URL, REDIS_URL is set', () => {
    const env = loadEnv({});
    expect(env.embedded).toBe(true);
    expect(env.port).toBe(3000);
    expect(env.redisPrefix).toBe('cota:');
  });

  it('is distributed as soon as one server is configured', () => {
    expect(loadEnv({ NATS_URL: 'nats://127.0.0.1:4222' }).embedded).toBe(false);
  });

  it('parses COTA_DEMO_KEYS into client/key pairs', () => {
    expect(loadEnv({ COTA_DEMO_KEYS: 'ana:chave-da-ana-123, bia:chave-da-bia-456' }).demoKeys).toEqual([
      { clientId: 'ana', key: 'chave-da-ana-123' },
      { clientId: 'bia', key: 'chave-da-bia-456' },
    ]);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ NATS_URL: 'localhost' }, /NATS_URL/],
    [{ COTA_DEMO_KEYS: 'semchave' }, /COTA_DEMO_KEYS/],
    [{ COTA_DEMO_KEYS: 'ana:curta' }, /COTA_DEMO_KEYS/],
  ])('rejects %j naming the variable', (source, re) => {
    expect(() => loadEnv(source as NodeJS.ProcessEnv)).toThrow(EnvError);
    expect(() => loadEnv(source as NodeJS.ProcessEnv)).toThrow(re);
  });
});
