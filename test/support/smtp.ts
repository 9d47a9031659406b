import { SMTPServer } from 'smtp-server';
import { freePort } from './nats-server';

/** One message as the test SMTP server received it, with its MIME parts decoded. */
export interface ReceivedMail {
  /** Envelope. */
  from: string;
  to: string[];
  /** Decoded headers (lower-case names). */
  headers: Record<string, string>;
  subject: string;
  text: string | null;
  html: string | null;
  raw: string;
}

/**
 * How the server treats the next messages: accept them, refuse them for now (451, the client
 * should retry) or for good (550). Refusals happen at DATA, after the client sent the message.
 */
export type SmtpMode = 'accept' | 'reject-temporarily' | 'reject-permanently';

export interface TestSmtp {
  port: number;
  /** `smtp://user:pass@127.0.0.1:<port>` (the server checks these credentials). */
  url: string;
  received: ReceivedMail[];
  /** Messages the server refused (DATA) so far. */
  refused: number;
  mode: SmtpMode;
  /** Resolves once `count` messages were received in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Closes the listener (the port then refuses connections); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const USER = 'cota';
const PASS = 'senha-de-teste';

/** A local SMTP server (the `smtp-server` package) on a spare port: plain SMTP with AUTH, no TLS. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const port = await freePort();
  let server: SMTPServer | null = null;
  const state: TestSmtp = {
    port,
    url: `smtp://${USER}:${PASS}@127.0.0.1:${port}`,
    received: [],
    refused: 0,
    mode: 'accept',
    waitFor: async (count, timeoutMs = 15_000) => {
      const until = Date.now() + timeoutMs;
      while (state.received.length < count) {
        if (Date.now() > until) throw new Error(`test SMTP server: ${state.received.length} of ${count} messages after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return state.received;
    },
    start: async () => {
      if (server) return;
      const s = new SMTPServer({
        logger: false,
        authOptional: false,
        allowInsecureAuth: true,
        disabledCommands: ['STARTTLS'],
        closeTimeout: 100,
        onAuth(auth, _session, cb) {
          if (auth.username === USER && auth.password === PASS) cb(null, { user: USER });
          else cb(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
        },
        onData(stream, session, cb) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            if (state.mode !== 'accept') {
              state.refused++;
              const temporary = state.mode === 'reject-temporarily';
              const err = Object.assign(new Error(temporary ? 'Try again later' : 'Message rejected'), { responseCode: temporary ? 451 : 550 });
              cb(err);
              return;
            }
            const raw = Buffer.concat(chunks).toString('utf8');
            const parsed = parseMime(raw);
            state.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((a) => a.address),
              headers: parsed.headers,
              subject: parsed.headers.subject ?? '',
              text: parsed.parts.find((p) => p.type === 'text/plain')?.body ?? null,
              html: parsed.parts.find((p) => p.type === 'text/html')?.body ?? null,
              raw,
            });
            cb();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      server = s;
    },
    stop: async () => {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await state.start();
  return state;
}

// --- A small MIME reader: enough for what nodemailer writes (multipart, quoted-printable, base64). ---

function bytesToUtf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

function decodeQuotedPrintable(s: string): string {
  return bytesToUtf8(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`). */
function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _cs: string, enc: string, txt: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(txt, 'base64').toString('utf8')
        : bytesToUtf8(txt.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))),
    );
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  return headers;
}

function parseMime(raw: string): { headers: Record<string, string>; parts: Array<{ type: string; body: string }> } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(split < 0 ? raw : raw.slice(0, split));
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const contentType = headers['content-type'] ?? 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = contentType.match(/boundary="?([^";]+)"?/i)?.[1];
    if (!boundary) return { headers, parts: [] };
    const sections = body.split(`--${boundary}`).slice(1);
    const parts = sections.filter((p) => !p.startsWith('--')).flatMap((p) => parseMime(p.replace(/^\r?\n/, '')).parts);
    return { headers, parts };
  }
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const decoded = cte === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : cte === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
  return { headers, parts: [{ type, body: decoded.replace(/\r\n/g, '\n') }] };
}
