import { CotaError } from '@cota/contracts';
import type { MessageHeaders } from './call-scope';
import { EventHandler, RequestHandler, subjectMatches, Transport, TransportSubscription } from './transport';

interface Server {
  queue: string;
  handler: RequestHandler;
}

/**
 * In-process transport for embedded mode: same semantics as NATS (queue groups share load
 * round-robin, no responder means UNAVAILABLE, timeouts, wildcard event subscriptions).
 * Messages are still serialised so that what runs embedded is what runs distributed.
 */
export class InProcessTransport implements Transport {
  readonly name = 'in-process' as const;
  private readonly servers = new Map<string, Server[]>();
  private readonly cursor = new Map<string, number>();
  private readonly listeners = new Set<{ pattern: string; handler: EventHandler }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  async request(subject: string, data: string, timeoutMs: number, headers: MessageHeaders = {}): Promise<string> {
    if (this.closed) throw new CotaError('UNAVAILABLE', 'transport is closed');
    const servers = this.servers.get(subject);
    if (!servers || servers.length === 0) {
      throw new CotaError('UNAVAILABLE', `no service is answering ${subject}`, { subject });
    }
    // One member per queue group receives the message, like NATS.
    const groups = new Map<string, Server[]>();
    for (const s of servers) groups.set(s.queue, [...(groups.get(s.queue) ?? []), s]);
    const [queue, members] = groups.entries().next().value as [string, Server[]];
    const n = this.cursor.get(subject + '|' + queue) ?? 0;
    this.cursor.set(subject + '|' + queue, n + 1);
    const server = members[n % members.length];

    let timer: NodeJS.Timeout | undefined;
    const meta = { ...headers }; // a copy, as a broker would deliver
    const work = Promise.resolve().then(() => server.handler(data, meta));
    this.track(work);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CotaError('TIMEOUT', `${subject} did not answer in ${timeoutMs} ms`, { subject })), timeoutMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  serve(subject: string, queue: string, handler: RequestHandler): TransportSubscription {
    const entry = { queue, handler };
    this.servers.set(subject, [...(this.servers.get(subject) ?? []), entry]);
    return {
      unsubscribe: () =>
        this.servers.set(
          subject,
          (this.servers.get(subject) ?? []).filter((s) => s !== entry),
        ),
    };
  }

  publish(subject: string, data: string): void {
    if (this.closed) return;
    for (const l of this.listeners) {
      if (subjectMatches(l.pattern, subject)) {
        // Asynchronous like a broker: a slow listener never delays the publisher.
        setImmediate(() => {
          try {
            l.handler(subject, data);
          } catch {
            /* listeners own their errors */
          }
        });
      }
    }
  }

  subscribe(pattern: string, handler: EventHandler): TransportSubscription {
    const entry = { pattern, handler };
    this.listeners.add(entry);
    return { unsubscribe: () => this.listeners.delete(entry) };
  }

  isConnected(): boolean {
    return !this.closed;
  }

  async ping(): Promise<number> {
    if (this.closed) throw new CotaError('UNAVAILABLE', 'transport is closed');
    return 0;
  }

  async drain(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    this.servers.clear();
    this.listeners.clear();
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
  }
}
