import { createTransport } from 'nodemailer';

/** One message ready to go out. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Message-ID header (`<id@domain>`): the outbox id, so a resent message can be recognised. */
  messageId: string;
}

/** Delivers one message or throws (nodemailer errors carry code/responseCode/command). */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface SmtpSenderOptions {
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
}

/**
 * nodemailer's SMTP transport from a URL (`smtp://user:pass@host:port`, `smtps://` for implicit
 * TLS; STARTTLS is used when the server offers it). One connection per message.
 */
export function createSmtpSender(url: string, opts: SmtpSenderOptions = {}): MailSender {
  const transport = createTransport({
    url,
    connectionTimeout: opts.connectionTimeoutMs ?? 10_000,
    greetingTimeout: opts.greetingTimeoutMs ?? 10_000,
    socketTimeout: opts.socketTimeoutMs ?? 30_000,
    logger: false,
  });
  return {
    send: async (m) => {
      await transport.sendMail({ from: m.from, to: m.to, subject: m.subject, html: m.html, text: m.text, messageId: m.messageId });
    },
    close: () => transport.close(),
  };
}
