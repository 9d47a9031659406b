import { createHmac, randomBytes } from 'node:crypto';

/** How long one salt of conversation hashes lasts: a UTC day. */
export const EVENT_SALT_PERIOD_MS = 86_400_000;

/**
 * The salt of `conversation_hash` in telemetry events. Events are correlated per conversation within
 * one UTC day and nowhere else: the day's salt is HMAC(secret, day), so a conversation hashes alike
 * in every process that shares the secret (COTA_EVENT_SALT, the same for every service and replica)
 * and differently the next day; without the secret the ids (guessable: demo clients, short
 * conversation ids) cannot be recovered by hashing candidates.
 */
export class EventSalt {
  private day = { n: Number.NaN, key: Buffer.alloc(0) };

  constructor(private readonly secret: string) {}

  /** A secret of this process alone (embedded mode, tests, CLIs): other processes hash differently. */
  static random(): EventSalt {
    return new EventSalt(randomBytes(32).toString('hex'));
  }

  /** One-way, salted hash of a conversation (16 hex characters). */
  hashConversation(clientId: string, conversationId: string, now: number = Date.now()): string {
    return createHmac('sha256', this.keyOf(Math.floor(now / EVENT_SALT_PERIOD_MS)))
      .update(`${clientId}\u0000${conversationId}`)
      .digest('hex')
      .slice(0, 16);
  }

  private keyOf(day: number): Buffer {
    if (this.day.n !== day) this.day = { n: day, key: createHmac('sha256', this.secret).update(`cota.conversation_hash.${day}`).digest() };
    return this.day.key;
  }
}

/** The salt of buses given none: one random secret per process, so the services of one process agree. */
export const PROCESS_EVENT_SALT = EventSalt.random();
