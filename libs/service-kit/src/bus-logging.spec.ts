import { z } from 'zod';
import { CotaError, defineRpc } from '@cota/contracts';
import { Bus, DEFAULT_FABRIC, InProcessTransport, withCallScope } from '@cota/messaging';
import { loadPolicy } from '@cota/config';
import { buildLogger, LoggingPolicy } from './logger';

const ask = defineRpc({
  subject: 'cota.test.logged.v1',
  service: 'executor',
  request: z.object({ request_id: z.string(), client_id: z.string(), question: z.string(), fail: z.enum(['crash', 'typed', 'bad_request']) }),
  response: z.object({ ok: z.boolean() }),
});

const QUESTION = 'Quanto rendeu minha carteira secreta da tia Zuleica?';
const CLIENT = 'cliente-sigiloso-42';

/** The JSON lines the project's logger (the shipped logging policy, at info) writes, captured. */
const raw: string[] = [];
const cap = {
  raw,
  get lines() {
    return raw.map((l) => JSON.parse(l) as Record<string, unknown>);
  },
  restore: () => undefined,
};
function captureLines() {
  raw.length = 0;
  return cap;
}
const logger = buildLogger(loadPolicy('logging', LoggingPolicy), { write: (line: string) => void raw.push(line) }, { COTA_LOG_LEVEL: 'info' }).child({ scope: 'executor' });

describe('failed handlers are logged (one structured line, no client data)', () => {
  let transport: InProcessTransport;
  let bus: Bus;
  beforeEach(() => {
    transport = new InProcessTransport();
    bus = new Bus(transport, 'executor', { log: logger, fabric: DEFAULT_FABRIC });
    bus.serve(ask, (req) => {
      // Messages that (carelessly) quote the client's data must still not leak it to the log.
      if (req.fail === 'crash') throw new TypeError(`cannot read rows for ${req.client_id}: ${req.question}`);
      if (req.fail === 'typed') throw new CotaError('UNAVAILABLE', `warehouse down while answering ${req.question}`);
      throw new CotaError('BAD_REQUEST', 'no such filter');
    });
  });
  afterEach(async () => {
    await transport.drain();
  });

  it('writes request id, subject, code and stack; never the question or the client id', async () => {
    const cap = captureLines();
    try {
      await expect(
        withCallScope({ requestId: 'req-log-0001', deadline: Date.now() + 5000 }, () =>
          bus.call(ask, { request_id: 'req-log-0001', client_id: CLIENT, question: QUESTION, fail: 'crash' }),
        ),
      ).rejects.toMatchObject({ code: 'INTERNAL' });
    } finally {
      cap.restore();
    }
    expect(cap.lines).toHaveLength(1);
    const [line] = cap.lines;
    expect(line).toEqual({
      time: expect.any(String),
      pid: process.pid,
      level: 'error',
      scope: 'executor',
      msg: 'handler failed',
      request_id: 'req-log-0001',
      subject: 'cota.test.logged.v1',
      code: 'INTERNAL',
      message: expect.stringContaining('[redacted]'),
      stack: expect.stringMatching(/^TypeError: .*\n\s+at /),
    });
    expect(cap.raw.join('')).not.toContain(CLIENT);
    expect(cap.raw.join('')).not.toContain('tia Zuleica');
  });

  it('logs typed failures by their code and level, with the request id taken from the payload outside a scope', async () => {
    const cap = captureLines();
    try {
      await expect(bus.call(ask, { request_id: 'req-log-0002', client_id: CLIENT, question: QUESTION, fail: 'typed' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      await expect(bus.call(ask, { request_id: 'req-log-0003', client_id: CLIENT, question: QUESTION, fail: 'bad_request' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    } finally {
      cap.restore();
    }
    expect(cap.lines.map((l) => [l.level, l.code, l.request_id, l.subject])).toEqual([
      ['warn', 'UNAVAILABLE', 'req-log-0002', 'cota.test.logged.v1'],
      ['info', 'BAD_REQUEST', 'req-log-0003', 'cota.test.logged.v1'],
    ]);
    for (const l of cap.lines) expect(typeof l.stack).toBe('string');
    expect(cap.raw.join('')).not.toContain(CLIENT);
    expect(cap.raw.join('')).not.toContain('tia Zuleica');
  });
});
