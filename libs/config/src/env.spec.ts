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

  it('reads the NATS credentials of the service, and refuses a password without a user', () => {
    expect(loadEnv({}).natsUser).toBeNull();
    const env = loadEnv({ NATS_URL: 'nats://nats:4222', NATS_USER: 'planner', NATS_PASSWORD: 's3cret' });
    expect({ user: env.natsUser, password: env.natsPassword }).toEqual({ user: 'planner', password: 's3cret' });
    expect(() => loadEnv({ NATS_PASSWORD: 's3cret' })).toThrow(/NATS_PASSWORD needs NATS_USER/);
  });

  it('reads the secret of the event salt (COTA_EVENT_SALT), and refuses a short one', () => {
    expect(loadEnv({}).eventSalt).toBeNull();
    expect(loadEnv({ COTA_EVENT_SALT: 'um-segredo-longo-o-bastante' }).eventSalt).toBe('um-segredo-longo-o-bastante');
    expect(() => loadEnv({ COTA_EVENT_SALT: 'curto' })).toThrow(/COTA_EVENT_SALT must be at least 16 characters/);
  });

  it('binds the gateway (HOST) and the metrics ports (COTA_METRICS_HOST) to loopback unless told otherwise', () => {
    for (const env of [loadEnv({}), loadEnv({ NATS_URL: 'nats://nats:4222' })])
      expect({ host: env.host, metricsHost: env.metricsHost }).toEqual({ host: '127.0.0.1', metricsHost: '127.0.0.1' });
    const container = loadEnv({ NATS_URL: 'nats://nats:4222', HOST: '0.0.0.0', COTA_METRICS_HOST: '::' });
    expect({ host: container.host, metricsHost: container.metricsHost }).toEqual({ host: '0.0.0.0', metricsHost: '::' });
    expect(() => loadEnv({ HOST: 'http://0.0.0.0' })).toThrow(/HOST must be an IP address or a host name/);
  });

  it('parses COTA_DEMO_KEYS into client/key pairs', () => {
    expect(loadEnv({ COTA_DEMO_KEYS: 'ana:chave-da-ana-123, bia:chave-da-bia-456' }).demoKeys).toEqual([
      { clientId: 'ana', key: 'chave-da-ana-123' },
      { clientId: 'bia', key: 'chave-da-bia-456' },
    ]);
  });

  it('reads COTA_DEMO as an explicit yes/no flag, off by default', () => {
    expect(loadEnv({}).demo).toBe(false);
    for (const v of ['1', 'true', 'YES']) expect(loadEnv({ COTA_DEMO: v }).demo).toBe(true);
    for (const v of ['0', 'false', 'no', '']) expect(loadEnv({ COTA_DEMO: v }).demo).toBe(false);
  });

  it('has no mail delivery without SMTP_URL, and defaults the rest when it is set', () => {
    expect(loadEnv({}).mail).toBeNull();
    expect(loadEnv({ SMTP_FROM: 'X <x@y.z>' }).mail).toBeNull();
    expect(loadEnv({ SMTP_URL: 'smtp://u:p@mail.local:2525' }).mail).toEqual({
      smtpUrl: 'smtp://u:p@mail.local:2525',
      from: 'Cota <nao-responda@cota.local>',
      maxAttempts: 8,
      retryBaseMs: 30_000,
      retryMaxMs: 1_800_000,
      pollMs: 30_000,
    });
    expect(
      loadEnv({
        SMTP_URL: 'smtps://mail.local',
        SMTP_FROM: 'Cota <cota@exemplo.com.br>',
        COTA_MAIL_MAX_ATTEMPTS: '3',
        COTA_MAIL_RETRY_BASE_MS: '100',
        COTA_MAIL_RETRY_MAX_MS: '400',
        COTA_MAIL_POLL_MS: '50',
      }).mail,
    ).toEqual({ smtpUrl: 'smtps://mail.local', from: 'Cota <cota@exemplo.com.br>', maxAttempts: 3, retryBaseMs: 100, retryMaxMs: 400, pollMs: 50 });
  });

  it('never repeats the SMTP_URL value (it holds credentials) in its error', () => {
    expect(() => loadEnv({ SMTP_URL: 'http://user:segredo@mail.local' })).toThrow(/SMTP_URL/);
    expect(() => loadEnv({ SMTP_URL: 'http://user:segredo@mail.local' })).not.toThrow(/segredo/);
  });

  it.each([
    [{ SMTP_URL: 'mail.local:25' }, /SMTP_URL/],
    [{ SMTP_URL: 'smtp://m', COTA_MAIL_MAX_ATTEMPTS: '0' }, /COTA_MAIL_MAX_ATTEMPTS/],
    [{ SMTP_URL: 'smtp://m', COTA_MAIL_RETRY_BASE_MS: '1000', COTA_MAIL_RETRY_MAX_MS: '10' }, /COTA_MAIL_RETRY_MAX_MS/],
    [{ PORT: 'abc' }, /PORT/],
    [{ NATS_URL: 'localhost' }, /NATS_URL/],
    [{ COTA_DEMO_KEYS: 'semchave' }, /COTA_DEMO_KEYS/],
    [{ COTA_DEMO_KEYS: 'ana:curta' }, /COTA_DEMO_KEYS/],
    [{ COTA_DEMO: 'talvez' }, /COTA_DEMO/],
  ])('rejects %j naming the variable', (source, re) => {
    expect(() => loadEnv(source as NodeJS.ProcessEnv)).toThrow(EnvError);
    expect(() => loadEnv(source as NodeJS.ProcessEnv)).toThrow(re);
  });
});
