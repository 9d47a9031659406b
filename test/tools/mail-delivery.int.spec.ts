import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { ExecutorSubjects } from '@cota/contracts';
import { loadEnv } from '@cota/config';
import { createSmtpSender, MailLog, OutboxWorker, OutboxWorkerOptions } from '@cota/mail';
import { Bus, InProcessTransport, NatsTransport } from '@cota/messaging';
import { buildLogger, openDatabase, RunningService, runMigrations, startService } from '@cota/service-kit';
import { OutboxMailer, PgReportRepository, Report, toolsMigrations } from '@cota/tools';
import { createTestDatabase, startTestNats, startTestSmtp, TestDatabase, TestSmtp } from '@cota/test-support';
import { executorService } from '../../apps/executor/src/executor.service';

/**
 * Delivery of the e-mail outbox over real SMTP and a real Postgres: a local `smtp-server` on a spare
 * port receives what the OutboxWorker sends (nodemailer, SMTP_URL with credentials), and the test
 * reads it back. Covers the wake-up after an insert, retries with backoff while the server is down or
 * refuses for now, `failed` after the last attempt, two replicas sharing one queue, and the executor
 * service starting the worker from SMTP_URL.
 */
const CLIENT = 'cliente-mail-1';
const RECIPIENT = 'ana.investidora@exemplo.com.br';
const FROM = 'Cota <nao-responda@cota.local>';

const report: Report = {
  report_id: 'rel_20300115_120000_0000a1',
  kind: 'daily_briefing',
  title: 'Briefing diário de 15/01/2030',
  generated_at: '2030-01-15T12:00:00.000Z',
  parent_report_id: null,
  filters: null,
  sources: ['B3'],
  text: '## Briefing diário de 15/01/2030\n\n### Mercado\n- **IFIX**: 3.210,55 pts',
  sections: [
    {
      id: 'mercado',
      title: 'Mercado',
      columns: [],
      rows: [{ indicador: 'IFIX', valor_formatado: '3.210,55 pts', variacao_formatada: '+0,42%', data: '2030-01-14' }],
      as_of: '2030-01-14',
      note: null,
    },
    {
      id: 'carteira',
      title: 'Sua carteira',
      columns: [
        { name: 'ticker', type: 'text', label: 'Fundo' },
        { name: 'segmento', type: 'text', label: 'Segmento' },
        { name: 'valor', type: 'money', label: 'Valor' },
      ],
      rows: [{ ticker: 'HGLG11', segmento: 'Logística & <galpões>', valor: '15432.1' }],
      as_of: '2030-01-14',
      note: null,
    },
  ],
};

let db: TestDatabase;
let ds: DataSource;
let smtp: TestSmtp;
let worker: OutboxWorker | null = null;
const logs: string[] = [];
// The worker's own lines, without the logging policy's masking: the worker itself must not write the recipient.
const log: MailLog = buildLogger(
  { version: 1, level: 'info', redact: { keys: ['authorization'], censor: '[redacted]', emails: false } },
  { write: (line: string) => void logs.push(line) },
  {
    COTA_LOG_LEVEL: 'info',
  },
);

beforeAll(async () => {
  db = await createTestDatabase('mail');
  ds = await openDatabase({ url: db.url });
  await runMigrations(ds, toolsMigrations);
  await new PgReportRepository(ds).save({ client_id: CLIENT, conversation_id: 'conv-mail', report });
  smtp = await startTestSmtp();
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await smtp?.stop();
  await ds?.destroy();
  await db?.drop();
});

beforeEach(async () => {
  await ds.query('DELETE FROM email_outbox');
  smtp.received.length = 0;
  smtp.refused = 0;
  smtp.mode = 'accept';
  await smtp.start();
  logs.length = 0;
});

afterEach(async () => {
  await worker?.stop();
  worker = null;
});

function startWorker(opts: Partial<OutboxWorkerOptions> = {}): OutboxWorker {
  // The slow poll is long on purpose: deliveries here come from the wake-up or from a due retry.
  worker = new OutboxWorker(ds, createSmtpSender(smtp.url), { from: FROM, pollMs: 60_000, log, random: () => 0, ...opts });
  worker.start();
  return worker;
}

let seq = 0;
function queue(mailer: OutboxMailer, idempotencyKey: string | null = null) {
  return mailer.queue({
    client_id: CLIENT,
    report_id: report.report_id,
    recipient: RECIPIENT,
    subject: `Cota — ${report.title}`,
    body: report.text,
    request_id: `mail-${++seq}`,
    idempotency_key: idempotencyKey,
  });
}

interface OutboxRow {
  message_id: string;
  status: string;
  attempts: number;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}
const row = async (id: string): Promise<OutboxRow> =>
  (await ds.query('SELECT message_id, status, attempts, sent_at, failed_at, last_error FROM email_outbox WHERE message_id = $1', [id]))[0];

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('OutboxWorker over SMTP', () => {
  it('delivers a queued report right after the insert: recipient, subject, HTML and text parts; then marks it sent', async () => {
    const w = startWorker();
    const mailer = new OutboxMailer(ds, { delivers: true, onQueued: () => w.wake() });
    const started = Date.now();
    const queued = await queue(mailer, `${CLIENT}:confirmacao-1`);

    const [mail] = await smtp.waitFor(1, 10_000);
    expect(Date.now() - started).toBeLessThan(10_000); // the wake-up, not the 60 s poll
    expect(mail.to).toEqual([RECIPIENT]);
    expect(mail.from).toBe('nao-responda@cota.local');
    expect(mail.headers.from).toBe('Cota <nao-responda@cota.local>');
    expect(mail.headers.to).toBe(RECIPIENT);
    expect(mail.subject).toBe('Cota — Briefing diário de 15/01/2030');
    expect(mail.headers['message-id']).toBe(`<${queued.message_id}@cota.local>`);
    expect(mail.headers['content-type']).toMatch(/^multipart\/alternative/);

    expect(mail.html).toMatch(/^<!DOCTYPE html>/);
    expect(mail.html).toContain('<h1 style="');
    expect(mail.html).toContain('Briefing diário de 15/01/2030</h1>');
    expect(mail.html).toContain('<strong>IFIX</strong>: 3.210,55 pts (+0,42% no dia) — 14/01/2030');
    expect(mail.html).toContain('>Logística &amp; &lt;galpões&gt;</td>');
    expect(mail.html).toContain('>R$ 15.432,10</td>');
    expect(mail.html).not.toMatch(/<img|<link|\ssrc=/i);

    expect(mail.text).toContain('Briefing diário de 15/01/2030\n=====');
    expect(mail.text).toContain('- IFIX: 3.210,55 pts (+0,42% no dia) — 14/01/2030');
    expect(mail.text).toContain('- HGLG11 · Segmento: Logística & <galpões> · Valor: R$ 15.432,10');

    const sent = await until(
      () => row(queued.message_id),
      (r) => r.status === 'sent',
    );
    expect(sent).toMatchObject({ attempts: 1, last_error: null, failed_at: null });
    expect(sent.sent_at).toBeInstanceOf(Date);

    // The same confirmation again: nothing new queued, nothing sent twice.
    const again = await queue(mailer, `${CLIENT}:confirmacao-1`);
    expect(again.message_id).toBe(queued.message_id);
    await w.runOnce();
    expect(smtp.received).toHaveLength(1);
    expect((await ds.query('SELECT count(*)::int AS n FROM email_outbox'))[0].n).toBe(1);
  });

  it('retries while the SMTP server is down and delivers once it is back', async () => {
    await smtp.stop();
    const w = startWorker({ retry: { baseDelayMs: 100, maxDelayMs: 300, maxAttempts: 20 } });
    const queued = await queue(new OutboxMailer(ds, { delivers: true, onQueued: () => w.wake() }));

    // attempts counts leases: a third lease proves two attempts failed (a second one may still be
    // connecting, and would reach the server restarted below).
    const failing = await until(
      () => row(queued.message_id),
      (r) => r.attempts >= 3,
    );
    expect(failing.status).toBe('queued');
    expect(failing.last_error).toMatch(/^(ESOCKET|ECONNECTION)/);

    await smtp.start();
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual([RECIPIENT]);
    const sent = await until(
      () => row(queued.message_id),
      (r) => r.status === 'sent',
    );
    expect(sent.attempts).toBeGreaterThanOrEqual(3);
    expect(sent.last_error).toBeNull();
  });

  it('retries a temporary refusal (451) with backoff and delivers when the server accepts again', async () => {
    smtp.mode = 'reject-temporarily';
    const w = startWorker({ retry: { baseDelayMs: 100, maxDelayMs: 200, maxAttempts: 20 } });
    const queued = await queue(new OutboxMailer(ds, { delivers: true, onQueued: () => w.wake() }));

    await until(
      async () => smtp.refused,
      (n) => n >= 2,
    );
    const refused = await row(queued.message_id);
    expect(refused.status).toBe('queued');
    expect(refused.last_error).toMatch(/^EMESSAGE 451/);

    smtp.mode = 'accept';
    await smtp.waitFor(1);
    expect(
      (
        await until(
          () => row(queued.message_id),
          (r) => r.status === 'sent',
        )
      ).attempts,
    ).toBeGreaterThanOrEqual(3);
  });

  it('ends `failed` after the maximum number of attempts, spaced by the backoff', async () => {
    smtp.mode = 'reject-temporarily';
    const started = Date.now();
    const w = startWorker({ retry: { baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 3 } });
    const queued = await queue(new OutboxMailer(ds, { delivers: true, onQueued: () => w.wake() }));

    const failed = await until(
      () => row(queued.message_id),
      (r) => r.status === 'failed',
    );
    // Waits of 100 ms then 200 ms between the three attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(failed).toMatchObject({ attempts: 3, sent_at: null });
    expect(failed.failed_at).toBeInstanceOf(Date);
    expect(failed.last_error).toMatch(/^EMESSAGE 451/);
    expect(smtp.refused).toBe(3);
    expect(smtp.received).toHaveLength(0);
    // Nothing more is tried.
    await w.runOnce();
    expect(smtp.refused).toBe(3);
  });

  it('fails at once, without retrying, when the server refuses the message for good (550)', async () => {
    smtp.mode = 'reject-permanently';
    const w = startWorker({ retry: { baseDelayMs: 50, maxDelayMs: 50, maxAttempts: 5 } });
    const queued = await queue(new OutboxMailer(ds, { delivers: true, onQueued: () => w.wake() }));
    const failed = await until(
      () => row(queued.message_id),
      (r) => r.status === 'failed',
    );
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toMatch(/^EMESSAGE 550/);
  });

  it('delivers, at the slow poll of its schedule, what another replica queued without waking it', async () => {
    const w = startWorker({ pollMs: 1000 });
    await w.runOnce(); // the pass at start is over: only the schedule can find what comes next
    const queued = await queue(new OutboxMailer(ds)); // no onQueued: this worker is not woken
    const sent = await until(
      () => row(queued.message_id),
      (r) => r.status === 'sent',
    );
    expect(sent.attempts).toBe(1);
    expect(smtp.received).toHaveLength(1);
  });

  it('two workers (executor replicas) share the queue: every message is sent exactly once', async () => {
    const mailer = new OutboxMailer(ds);
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push((await queue(mailer)).message_id);
    const a = new OutboxWorker(ds, createSmtpSender(smtp.url), { from: FROM, log });
    const b = new OutboxWorker(ds, createSmtpSender(smtp.url), { from: FROM, log });
    try {
      const [sa, sb] = await Promise.all([a.runOnce(), b.runOnce()]);
      expect(sa.sent + sb.sent).toBe(12);
    } finally {
      await a.stop();
      await b.stop();
    }
    expect(smtp.received).toHaveLength(12);
    expect(new Set(smtp.received.map((m) => m.headers['message-id'])).size).toBe(12);
    const rows: Array<{ status: string; attempts: number }> = await ds.query('SELECT status, attempts FROM email_outbox');
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('does not send a message queued long ago (e.g. stored while no server was configured): it expires as failed', async () => {
    const queued = await queue(new OutboxMailer(ds));
    await ds.query("UPDATE email_outbox SET created_at = now() - interval '3 days' WHERE message_id = $1", [queued.message_id]);
    const w = new OutboxWorker(ds, createSmtpSender(smtp.url), { from: FROM, log });
    worker = w;
    expect(await w.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0, expired: 1 });
    expect(await row(queued.message_id)).toMatchObject({ status: 'failed', attempts: 0, last_error: expect.stringMatching(/^expired/) });
    expect(smtp.received).toHaveLength(0);
  });

  it('logs message ids and error codes, never the recipient or the report', () => {
    // Logs of every test above (this one runs last and reads what they left).
    const all = logs.join('\n');
    expect(all).not.toContain(RECIPIENT);
    expect(all).not.toContain('Briefing');
    expect(all).not.toContain(CLIENT);
    expect(all).not.toContain('senha-de-teste');
  });
});

describe('the executor in embedded mode (one process, in-process bus) with SMTP_URL set', () => {
  // Embedded mode gives the executor PGlite; PGlite needs --experimental-vm-modules under jest, so the
  // real Postgres stands in (as in test/context/embedded.int.spec.ts). The wiring is what is tested.
  it('delivers a confirmed e-mail, and stops the worker with the service', async () => {
    const transport = new InProcessTransport();
    const env = loadEnv({ SMTP_URL: smtp.url, COTA_MAIL_POLL_MS: '60000' });
    expect(env.embedded).toBe(true);
    const service = await startService(executorService, env, { transport, database: ds, redis: null });
    try {
      const res = await new Bus(transport, 'tool-gate').call(ExecutorSubjects.runTool, {
        request_id: 'mail-embedded-1',
        client_id: CLIENT,
        conversation_id: 'conv-mail',
        name: 'enviar_relatorio_email',
        args: { report_id: report.report_id, destinatario: RECIPIENT, confirmacao_id: 'embedded-1' },
      });
      expect(res.result).toMatchObject({ status: 'queued', entrega: 'smtp' });
      const [mail] = await smtp.waitFor(1, 10_000);
      expect(mail.to).toEqual([RECIPIENT]);
      expect(mail.headers.from).toBe(FROM);
      const id = (res.result as { message_id: string }).message_id;
      expect(
        (
          await until(
            () => row(id),
            (r) => r.status === 'sent',
          )
        ).attempts,
      ).toBe(1);
    } finally {
      await service.stop();
      await transport.drain();
    }
  }, 60_000);

  it('without SMTP_URL runs no worker: the answer says the e-mail was stored, not sent, and it stays queued', async () => {
    const transport = new InProcessTransport();
    const service = await startService(executorService, loadEnv({}), { transport, database: ds, redis: null });
    try {
      const res = await new Bus(transport, 'tool-gate').call(ExecutorSubjects.runTool, {
        request_id: 'mail-embedded-2',
        client_id: CLIENT,
        conversation_id: 'conv-mail',
        name: 'enviar_relatorio_email',
        args: { report_id: report.report_id, destinatario: RECIPIENT, confirmacao_id: 'embedded-2' },
      });
      expect(res.result).toMatchObject({ status: 'queued', entrega: 'desativada' });
      expect((res.result as { text: string }).text).toMatch(
        /foi guardado na caixa de saída.*, mas não foi enviado para ana\.investidora@exemplo\.com\.br: não há servidor de e-mail configurado/,
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.received).toHaveLength(0);
      expect(await row((res.result as { message_id: string }).message_id)).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      await service.stop();
      await transport.drain();
    }
  }, 60_000);
});

describe('the executor service with SMTP_URL set', () => {
  it('starts the worker, answers that the report is in the send queue, delivers it, and stops cleanly', async () => {
    const nats = await startTestNats();
    let service: RunningService | null = null;
    let transport: NatsTransport | null = null;
    try {
      const env = loadEnv({ NATS_URL: nats.url, DATABASE_URL: db.url, SMTP_URL: smtp.url, SMTP_FROM: 'Cota Relatórios <relatorios@cota.local>', COTA_MAIL_POLL_MS: '60000' });
      service = await startService(executorService, env);
      transport = await NatsTransport.connect({ url: nats.url, name: 'mail-test' });
      const bus = new Bus(transport, 'tool-gate');
      const res = await bus.call(ExecutorSubjects.runTool, {
        request_id: 'mail-exec-1',
        client_id: CLIENT,
        conversation_id: 'conv-mail',
        name: 'enviar_relatorio_email',
        args: { report_id: report.report_id, destinatario: 'Bia@Exemplo.com', confirmacao_id: 'exec-1' },
      });
      expect(res.result).toMatchObject({ status: 'queued', entrega: 'smtp', destinatario: 'bia@exemplo.com' });
      expect((res.result as { text: string }).text).toMatch(/^O relatório "Briefing diário de 15\/01\/2030" foi colocado na fila de envio para bia@exemplo\.com/);

      const [mail] = await smtp.waitFor(1, 10_000);
      expect(mail.to).toEqual(['bia@exemplo.com']);
      expect(mail.headers.from).toBe('Cota Relatórios <relatorios@cota.local>');
      expect(mail.subject).toBe('Cota — Briefing diário de 15/01/2030');
      expect(mail.html).toContain('<strong>IFIX</strong>');
      const id = (res.result as { message_id: string }).message_id;
      expect(
        (
          await until(
            () => row(id),
            (r) => r.status === 'sent',
          )
        ).attempts,
      ).toBe(1);
    } finally {
      await transport?.drain();
      await service?.stop();
      await nats.stop();
    }
  }, 60_000);
});
