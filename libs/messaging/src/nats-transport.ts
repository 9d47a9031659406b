import { connect, DebugEvents, ErrorCode, Events, headers as natsHeaders, Msg, MsgHdrs, NatsConnection, NatsError, StringCodec, Subscription } from 'nats';
import { CotaError, inboxOf } from '@cota/contracts';
import type { MessageHeaders } from './call-scope';
import { EventHandler, RequestHandler, Transport, TransportSubscription } from './transport';

const sc = StringCodec();

function toNatsHeaders(h: MessageHeaders | undefined): MsgHdrs | undefined {
  const entries = Object.entries(h ?? {});
  if (!entries.length) return undefined;
  const out = natsHeaders();
  for (const [k, v] of entries) out.set(k, v);
  return out;
}

function fromNatsHeaders(h: MsgHdrs | undefined): MessageHeaders {
  const out: Record<string, string> = {};
  if (h) for (const k of h.keys()) out[k] = h.get(k);
  return out;
}

export interface NatsTransportOptions {
  url: string;
  /** Connection name shown by the NATS server (service + instance). */
  name: string;
  /** Called on connection state changes, for logs, with how loud each is (natsStatusLevel). */
  onStatus?: (status: string, level: NatsStatusLevel) => void;
  /**
   * NATS user and password (NATS_USER/NATS_PASSWORD). `nats://user:pass@host:4222` in the URL works too;
   * these win over the URL's. The user's permissions are generated from libs/contracts (bus-access.ts); its
   * replies arrive on `_INBOX.<user>.>` (inboxOf), the only inbox those permissions let it read.
   */
  user?: string | null;
  pass?: string | null;
}

/**
 * Splits credentials out of a NATS URL (`nats://user:pass@host:4222`), so they reach the server as
 * CONNECT fields and never appear in logs or connection names.
 */
export function natsServerAndCredentials(url: string): { server: string; user: string | null; pass: string | null } {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^@/]*)@(.*)$/i.exec(url.trim());
  if (!m) return { server: url.trim(), user: null, pass: null };
  const [, scheme, auth, rest] = m;
  const idx = auth.indexOf(':');
  const user = decodeURIComponent(idx >= 0 ? auth.slice(0, idx) : auth) || null;
  const pass = idx >= 0 ? decodeURIComponent(auth.slice(idx + 1)) || null : null;
  return { server: scheme + rest, user, pass };
}

export type NatsStatusLevel = 'debug' | 'info' | 'warn';

/**
 * How loud a connection status is: nats.js's routine debug events (its ping timer fires every 10 s,
 * each reconnect attempt) at debug; losing the server, a stale link or an error at warn; the rest
 * (reconnected, cluster update, lame duck) at info.
 */
export function natsStatusLevel(type: string): NatsStatusLevel {
  if (type === Events.Disconnect || type === Events.Error || type === DebugEvents.StaleConnection) return 'warn';
  if (type === DebugEvents.PingTimer || type === DebugEvents.Reconnecting) return 'debug';
  return 'info';
}

/** Maps a nats.js failure to the wire error a caller can act on. */
function toCotaError(err: unknown, subject: string, timeoutMs: number): CotaError {
  const code = (err as NatsError)?.code;
  if (code === ErrorCode.NoResponders) return new CotaError('UNAVAILABLE', `no service is answering ${subject}`, { subject });
  if (code === ErrorCode.PermissionsViolation) {
    // The server's per-service permissions (generated from libs/contracts) do not let this user call it.
    return new CotaError('FORBIDDEN', `this service may not call ${subject} (NATS permissions violation)`, { subject, bus: true });
  }
  if (code === ErrorCode.Timeout) return new CotaError('TIMEOUT', `${subject} did not answer in ${timeoutMs} ms`, { subject });
  if (code === ErrorCode.ConnectionClosed || code === ErrorCode.ConnectionDraining || code === ErrorCode.Disconnect) {
    return new CotaError('UNAVAILABLE', 'the message bus (NATS) is not reachable', { subject, bus: true });
  }
  return new CotaError('INTERNAL', `bus error on ${subject}: ${(err as Error)?.message ?? String(err)}`, { subject });
}

/**
 * NATS transport on raw nats.js (a third of the NestJS transport's per-hop cost).
 * Reconnects forever; in-flight handlers finish before the connection closes.
 *
 * Outgoing messages (requests, replies, events) are handed to nats.js together, so they leave in one
 * socket write: nats.js alone flushes per microtask, and a socket write was the largest single CPU
 * cost per hop. Under load they wait for the end of the event-loop turn (setImmediate: everything the
 * turn produced goes together). With at most one request and one handler in flight they wait only
 * for the current job's promise chain to settle (process.nextTick runs after the microtask queue
 * drains, before any I/O): a handler's reply and its step event, or a question's parallel calls, share
 * one write, and an idle hop pays no extra loop turn.
 */
export class NatsTransport implements Transport {
  readonly name = 'nats' as const;
  private readonly subs = new Set<Subscription>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** False between a disconnect and the reconnect: requests then fail fast instead of waiting out their timeout. */
  private linkUp = true;
  /** Sends waiting for the end of this event-loop turn. */
  private outgoing: Array<() => void> = [];
  private flushScheduled = false;
  /** Requests of this process waiting for their reply. */
  private pendingRequests = 0;

  private constructor(private readonly nc: NatsConnection) {}

  /** The raw connection, for JetStream (the warehouse change events' stream, warehouse-stream.ts). */
  get connection(): NatsConnection {
    return this.nc;
  }

  static async connect(opts: NatsTransportOptions): Promise<NatsTransport> {
    const parsed = natsServerAndCredentials(opts.url);
    const user = opts.user ?? parsed.user;
    const pass = opts.pass ?? parsed.pass;
    const nc = await connect({
      servers: parsed.server,
      name: opts.name,
      ...(user ? { user, pass: pass ?? undefined, inboxPrefix: inboxOf(user) } : {}),
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      pingInterval: 10_000,
      // nats.js otherwise builds an Error (and a NatsError for the timer) up front on every request to
      // keep the caller's async stack: ~8% of the gateway's busy CPU under load. Our calls fail as
      // CotaErrors naming the subject, so that stack is never shown.
      noAsyncTraces: true,
    });
    const transport = new NatsTransport(nc);
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') transport.linkUp = false;
        if (s.type === 'reconnect') transport.linkUp = true;
        opts.onStatus?.(`${s.type}${s.data ? ' ' + String(s.data) : ''}`, natsStatusLevel(s.type));
      }
    })().catch(() => undefined);
    return transport;
  }

  async request(subject: string, data: string, timeoutMs: number, headers?: MessageHeaders): Promise<string> {
    if (this.nc.isClosed()) throw new CotaError('UNAVAILABLE', 'the message bus (NATS) connection is closed', { subject, bus: true });
    if (!this.linkUp) throw new CotaError('UNAVAILABLE', 'the message bus (NATS) is not reachable; reconnecting', { subject, bus: true });
    this.pendingRequests++;
    try {
      const payload = sc.encode(data);
      const hdrs = toNatsHeaders(headers);
      const msg = await new Promise<Msg>((resolve, reject) =>
        this.send(() => {
          try {
            this.nc.request(subject, payload, { timeout: timeoutMs, noMux: false, headers: hdrs }).then(resolve, reject);
          } catch (err) {
            reject(err);
          }
        }),
      );
      return sc.decode(msg.data);
    } catch (err) {
      throw toCotaError(err, subject, timeoutMs);
    } finally {
      this.pendingRequests--;
    }
  }

  serve(subject: string, queue: string, handler: RequestHandler): TransportSubscription {
    const sub = this.nc.subscribe(subject, {
      queue,
      callback: (err, msg) => {
        if (err) return;
        const work = handler(sc.decode(msg.data), fromNatsHeaders(msg.headers)).then(
          (reply) => {
            if (msg.reply) {
              const payload = sc.encode(reply);
              this.send(() => msg.respond(payload));
            }
          },
          () => undefined, // the bus turns handler errors into replies; this is a last guard
        );
        this.track(work);
      },
    });
    this.subs.add(sub);
    return {
      unsubscribe: () => {
        this.subs.delete(sub);
        sub.unsubscribe();
      },
    };
  }

  publish(subject: string, data: string): void {
    const payload = sc.encode(data);
    this.send(() => {
      if (!this.nc.isClosed() && !this.nc.isDraining()) this.nc.publish(subject, payload);
    });
  }

  subscribe(pattern: string, handler: EventHandler): TransportSubscription {
    const sub = this.nc.subscribe(pattern, {
      callback: (err, msg) => {
        if (!err) handler(msg.subject, sc.decode(msg.data));
      },
    });
    this.subs.add(sub);
    return {
      unsubscribe: () => {
        this.subs.delete(sub);
        sub.unsubscribe();
      },
    };
  }

  isConnected(): boolean {
    return this.linkUp && !this.nc.isClosed() && !this.nc.isDraining();
  }

  async ping(): Promise<number> {
    if (!this.linkUp) throw new CotaError('UNAVAILABLE', 'NATS is not reachable (reconnecting)');
    try {
      return await this.nc.rtt();
    } catch (err) {
      throw new CotaError('UNAVAILABLE', `NATS is not reachable: ${(err as Error).message}`);
    }
  }

  async drain(): Promise<void> {
    this.flush();
    if (this.nc.isClosed()) return;
    // Stop receiving, let in-flight handlers reply, then close.
    await Promise.allSettled([...this.subs].map((s) => s.drain()));
    await Promise.allSettled([...this.inFlight]);
    this.flush(); // their replies
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }

  /** Queues one send for the end of this job or of this event-loop turn (see the class comment). */
  private send(fn: () => void): void {
    this.outgoing.push(fn);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    if (this.pendingRequests <= 1 && this.inFlight.size <= 1) process.nextTick(() => this.flush());
    else setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.outgoing;
    this.outgoing = [];
    for (const fn of batch) {
      try {
        fn();
      } catch {
        /* a reply or event that cannot be sent (closed connection) is dropped, as nats.js would */
      }
    }
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
  }
}
