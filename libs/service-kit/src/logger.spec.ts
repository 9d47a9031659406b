import { loadPolicy } from '@cota/config';
import { withCallScope } from '@cota/messaging';
import { buildLogger, LoggingPolicy } from './logger';

const shipped = loadPolicy('logging', LoggingPolicy);

function capture(policy: LoggingPolicy = shipped, env: NodeJS.ProcessEnv = { COTA_LOG_LEVEL: 'debug' }) {
  const lines: string[] = [];
  const log = buildLogger(policy, { write: (l: string) => void lines.push(l) }, env);
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('the logger (pino, policies/logging.yaml)', () => {
  it('writes one JSON line with the level by name, ISO time, scope and message', () => {
    const { log, parsed } = capture();
    log.child({ scope: 'planner' }).info({ funds: 3 }, 'fund list loaded');
    expect(parsed()).toEqual([{ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), pid: process.pid, scope: 'planner', funds: 3, msg: 'fund list loaded' }]);
  });

  it('redacts the configured keys, at the top level and one object down', () => {
    const { log, lines } = capture();
    log.warn({ question: 'quanto rendeu minha carteira secreta?', req: { client_id: 'cliente-sigiloso', route: '/ask' } }, 'request failed');
    const [line] = lines;
    expect(line).not.toContain('carteira secreta');
    expect(line).not.toContain('cliente-sigiloso');
    expect(JSON.parse(line)).toMatchObject({ question: '[redacted]', req: { client_id: '[redacted]', route: '/ask' } });
  });

  it('masks e-mail addresses in the message and in any string field', () => {
    const { log, lines } = capture();
    log.error({ error: 'RCPT TO:<tia.zuleica@example.com.br> rejected', nested: { note: 'cc joao@x.io' } }, 'send to ana@example.com failed');
    expect(lines[0]).not.toMatch(/zuleica|joao@|ana@/);
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'send to [e-mail] failed', error: 'RCPT TO:<[e-mail]> rejected', nested: { note: 'cc [e-mail]' } });
  });

  it('keeps e-mails when the policy says so', () => {
    const { log, lines } = capture({ ...shipped, redact: { ...shipped.redact, emails: false } });
    log.info('sent to ana@example.com');
    expect(JSON.parse(lines[0]).msg).toBe('sent to ana@example.com');
  });

  it("carries the running call scope's request id and trace ids on every line", () => {
    const { log, parsed } = capture();
    withCallScope({ requestId: 'req-123456', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }, () => log.info('inside'));
    log.info('outside');
    const [inside, outside] = parsed();
    expect(inside).toMatchObject({ request_id: 'req-123456', trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' });
    expect(outside).not.toHaveProperty('request_id');
    expect(outside).not.toHaveProperty('trace_id');
  });

  it('takes COTA_LOG_LEVEL over the policy, and refuses an unknown one', () => {
    const { log, lines } = capture(shipped, { COTA_LOG_LEVEL: 'warn' });
    log.info('hidden');
    log.warn('shown');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['shown']);
    expect(() => capture(shipped, { COTA_LOG_LEVEL: 'verbose' })).toThrow(/COTA_LOG_LEVEL must be/);
  });

  it('rejects a policy with an unknown level or a key that is not a plain field name', () => {
    expect(LoggingPolicy.safeParse({ ...shipped, level: 'trace' }).success).toBe(false);
    expect(LoggingPolicy.safeParse({ ...shipped, redact: { ...shipped.redact, keys: ['a.b'] } }).success).toBe(false);
  });
});
