import { randomUUID } from 'node:crypto';
import { BulkheadRejectedError } from 'cockatiel';
import type { z } from 'zod';
import { ALL_EVENTS, CallRequestOf, CotaError, EventDef, PayloadOf, RequestOf, ResponseOf, RpcDef, StreamDef, streamSubject, validate, WireError } from '@cota/contracts';
import { CallScope, currentCallScope, isRequestId, MessageHeaders, scopeFromHeaders, scopeToHeaders, withCallScope } from './call-scope';
import { bulkheadLimits, ClientPolicy, DEFAULT_FABRIC, FabricPolicy } from './fabric-policy';
import { BusMetrics } from './metrics';
import { BusLog, CallGuard, subscriptionBulkhead } from './resilience';
import { EventSalt, PROCESS_EVENT_SALT } from './event-salt';
import { endSpan, isTracedSubject, SpanKind, startSpan, traceparentOf, withActiveSpan } from './tracing';
import { Transport, TransportSubscription } from './transport';
import { isConnectionLost } from './connection-lost';

type Reply = { ok: true; data: unknown } | { ok: false; error: WireError };

export interface CallOptions {
  /** Overrides the subject's timeout; the deadline in scope still shortens it. */
  timeoutMs?: number;
  /** Absolute deadline (epoch ms) for this call, instead of the one in scope. */
  deadline?: number;
}

export interface BusOptions {
  /** Bulkheads of the subjects this bus serves (policies/fabric.yaml); the shipped defaults when absent. */
  fabric?: FabricPolicy;
  /** Circuit breakers per target and retries of idempotent reads for the calls this bus makes; none when absent. */
  calls?: ClientPolicy;
  /** Where failed handlers, shed load and circuit changes are logged (service-kit's Logger). */
  log?: BusLog;
  /** Prometheus metrics of handled messages, calls and breakers (metrics.ts); none when absent. */
  metrics?: BusMetrics;
  /** Salt of the conversation hashes in its telemetry events (COTA_EVENT_SALT); the process's random one when absent. */
  eventSalt?: EventSalt;
}

/** Client errors are answers, not incidents: logged at info; the rest at warn (timeouts, outages) or error. */
const LOG_LEVEL_OF: Record<string, 'info' | 'warn' | 'error'> = {
  INVALID_MESSAGE: 'info',
  BAD_REQUEST: 'info',
  NOT_FOUND: 'info',
  FORBIDDEN: 'info',
  RATE_LIMITED: 'info',
  UNAVAILABLE: 'warn',
  TIMEOUT: 'warn',
  INTERNAL: 'error',
};

/** Identifiers and text of the client: redacted even when short. */
const CLIENT_KEYS = new Set(['client_id', 'conversation_id', 'question', 'nickname', 'answer']);

/** Every string the request carried (question, client id, tool arguments...), to keep them out of logs. */
function clientStrings(body: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number, key: string): void => {
    if (out.size >= 200 || depth > 6) return;
    if (typeof v === 'string') {
      if (v.length >= (CLIENT_KEYS.has(key) ? 2 : 4)) out.add(v);
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1, key);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) if (k !== 'request_id') walk(x, depth + 1, k);
    }
  };
  walk(body, 0, '');
  return [...out].sort((a, b) => b.length - a.length);
}

function redact(text: string | undefined, secrets: string[]): string | undefined {
  if (text === undefined) return undefined;
  let out = text;
  for (const s of secrets) out = out.split(s).join('[redacted]');
  return out;
}

/**
 * The typed client every service uses: subjects come from the contracts library, requests and
 * replies are validated where they are received, errors come back as CotaError.
 * No service writes a subject string by hand.
 */
export class Bus {
  readonly instance = randomUUID().slice(0, 8);
  private readonly fabric: FabricPolicy;
  private readonly log?: BusLog;
  private readonly metrics?: BusMetrics;
  /** Breakers and retries of this bus's calls (the gateway's); null for the other services. */
  readonly guard: CallGuard | null;
  /** Salt of `conversation_hash` in the telemetry events it publishes (telemetry.ts emitStep). */
  readonly eventSalt: EventSalt;

  constructor(
    readonly transport: Transport,
    /** Who this bus belongs to (for error attribution). */
    readonly owner: string,
    opts: BusOptions = {},
  ) {
    this.fabric = opts.fabric ?? DEFAULT_FABRIC;
    this.log = opts.log;
    this.guard = opts.calls ? new CallGuard(opts.calls, opts.log) : null;
    this.metrics = opts.metrics;
    this.eventSalt = opts.eventSalt ?? PROCESS_EVENT_SALT;
    if (this.metrics && this.guard) this.metrics.watchBreakers(owner, this.guard);
  }

  /**
   * Calls a subject. Inside a call scope (a question's, or a handler's) the request carries the
   * scope's deadline and request id, and waits at most the time left or the subject's timeout,
   * whichever is smaller; past the deadline it is not sent at all (TIMEOUT).
   */
  async call<D extends RpcDef>(def: D, request: CallRequestOf<D>, opts: CallOptions = {}): Promise<ResponseOf<D>> {
    // Validated once per hop, where it is received (the handler's pipe): the request is often the
    // largest payload of the hop (a narration carries the data rows) and parsing it here as well
    // doubled its cost. A malformed request still fails the call, as INVALID_MESSAGE from the receiver.
    const data = JSON.stringify(request);
    const scope = currentCallScope();
    const ownId = (request as { request_id?: unknown })?.request_id;
    const requestId = scope.requestId ?? (isRequestId(ownId) ? ownId : undefined);
    // Client span (tracing on): the next hop becomes its child; off, an upstream trace context passes through.
    // Health probes make no trace of their own.
    const span = !isTracedSubject(def.subject)
      ? null
      : startSpan(def.subject, SpanKind.CLIENT, scope.traceparent, {
          'messaging.system': 'nats',
          'messaging.destination.name': def.subject,
          'cota.service': this.owner,
          'cota.target': def.service,
          ...(requestId ? { 'cota.request_id': requestId } : {}),
        });
    const traceparent = span ? traceparentOf(span) : scope.traceparent;
    const sent: CallScope = { deadline: opts.deadline ?? scope.deadline, requestId, ...(traceparent ? { traceparent } : {}) };
    const attempt = () => this.send(def, data, opts.timeoutMs ?? def.timeoutMs, sent);
    const started = performance.now();
    let outcome = 'ok';
    try {
      const replyData = this.guard ? await this.guard.run(def, attempt) : await attempt();
      return validate(def.response, replyData, `reply from ${def.subject}`);
    } catch (e) {
      outcome = CotaError.is(e) ? e.code : 'INTERNAL';
      throw e;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      endSpan(span, outcome);
      this.metrics?.calls.observe({ service: this.owner, subject: def.subject, outcome }, seconds);
      this.log?.debug?.({ subject: def.subject, outcome, ms: Math.round(seconds * 1000), ...(requestId ? { request_id: requestId } : {}) }, 'call completed');
    }
  }

  private async send(def: RpcDef, data: string, subjectTimeoutMs: number, scope: CallScope): Promise<unknown> {
    let timeoutMs = subjectTimeoutMs;
    if (scope.deadline !== undefined) {
      const left = scope.deadline - Date.now();
      if (left <= 0) {
        throw new CotaError('TIMEOUT', `the request's deadline passed before ${def.subject} was called`, { subject: def.subject, deadline: 'passed' }, def.service);
      }
      timeoutMs = Math.min(timeoutMs, Math.ceil(left));
    }
    let raw: string;
    try {
      raw = await this.transport.request(def.subject, data, timeoutMs, scopeToHeaders(scope));
    } catch (e) {
      // Attribute outages and timeouts to the service that owns the subject.
      if (CotaError.is(e) && !e.service && !e.details?.bus) throw new CotaError(e.code, e.message, e.details, def.service);
      throw e;
    }
    let reply: Reply;
    try {
      reply = JSON.parse(raw) as Reply;
    } catch {
      throw new CotaError('INVALID_MESSAGE', `reply from ${def.subject} is not JSON`, undefined, def.service);
    }
    if (!reply.ok) throw CotaError.fromWire({ ...reply.error, service: reply.error.service ?? def.service });
    return reply.data;
  }

  /**
   * Serves a subject in the service's queue group. A malformed message or a failing handler
   * becomes a typed error reply (and one log line); the handler never crashes the process.
   * The subscription runs at most `max_concurrent` handlers with `max_queue` more waiting
   * (policies/fabric.yaml); past that it answers UNAVAILABLE at once. Work whose deadline has
   * passed (on arrival, or after waiting its turn) is answered TIMEOUT without running.
   * The handler runs in the request's call scope, so the calls it makes inherit its deadline.
   */
  serve<D extends RpcDef>(def: D, handler: (request: RequestOf<D>) => Promise<ResponseOf<D>> | ResponseOf<D>): TransportSubscription {
    return this.serveParsed(def, (body) => handler(validate(def.request, body, `request to ${def.subject}`) as RequestOf<D>));
  }

  /**
   * `serve` without the request validation: the handler receives the parsed JSON body and the
   * message headers. The Nest transport strategy (nest/bus-server.ts) serves through here and
   * validates in a pipe. The reply is validated once, where it is received (`call`).
   */
  serveParsed(def: RpcDef, handler: (body: unknown, headers: MessageHeaders) => Promise<unknown> | unknown): TransportSubscription {
    const limits = bulkheadLimits(this.fabric, def.subject);
    const bulkhead = subscriptionBulkhead(limits);
    this.metrics?.watchBulkhead(this.owner, def.subject, bulkhead, limits.max_queue);
    const shed = { count: 0, loggedAt: 0 };
    const labels = { service: this.owner, subject: def.subject };
    const traced = isTracedSubject(def.subject);
    return this.transport.serve(def.subject, def.service, async (raw, headers: MessageHeaders) => {
      const incoming = scopeFromHeaders(headers);
      // Server span, child of the caller's (tracing on; health probes never); active while the handler
      // runs, so its own calls, queries and Redis commands become its children.
      const span = !traced
        ? null
        : startSpan(def.subject, SpanKind.SERVER, incoming.traceparent, {
            'messaging.system': 'nats',
            'messaging.destination.name': def.subject,
            'cota.service': this.owner,
            ...(incoming.requestId ? { 'cota.request_id': incoming.requestId } : {}),
          });
      const scope: CallScope = span ? { ...incoming, traceparent: traceparentOf(span) } : incoming;
      return withActiveSpan(span, async () => {
        const started = performance.now();
        this.metrics?.inFlight.inc(labels);
        let outcome = 'ok';
        let body: unknown;
        const expired = () => scope.deadline !== undefined && Date.now() >= scope.deadline;
        const dropped = () => new CotaError('TIMEOUT', `deadline passed before ${def.subject} ran; dropped`, { subject: def.subject, deadline: 'passed' });
        try {
          if (expired()) throw dropped();
          return await bulkhead.execute(() =>
            withCallScope(scope, async () => {
              if (expired()) throw dropped(); // waited in the queue past its deadline
              try {
                body = JSON.parse(raw);
              } catch {
                throw new CotaError('INVALID_MESSAGE', `message on ${def.subject} is not JSON`);
              }
              const data = await handler(body, headers);
              return JSON.stringify({ ok: true, data } satisfies Reply);
            }),
          );
        } catch (err) {
          if (err instanceof BulkheadRejectedError) {
            this.logShed(def, limits, shed);
            this.metrics?.shed.inc(labels);
            const error: WireError = {
              code: 'UNAVAILABLE',
              message: `${def.service} is at capacity on ${def.subject}; try again shortly`,
              service: def.service,
              details: { subject: def.subject, overloaded: true, retry_after_s: this.fabric.bulkhead.retry_after_s },
            };
            outcome = error.code;
            return JSON.stringify({ ok: false, error } satisfies Reply);
          }
          const error = wireErrorOf(def.service, err);
          error.service = error.service ?? def.service;
          outcome = error.code;
          this.logFailure(def, scope, body, error, err);
          return JSON.stringify({ ok: false, error } satisfies Reply);
        } finally {
          const seconds = (performance.now() - started) / 1000;
          endSpan(span, outcome);
          this.metrics?.inFlight.dec(labels);
          this.metrics?.handled.observe({ ...labels, outcome }, seconds);
          if (outcome !== 'ok') this.metrics?.handleErrors.inc({ ...labels, code: outcome });
          this.log?.debug?.({ subject: def.subject, outcome, ms: Math.round(seconds * 1000), ...(scope.requestId ? { request_id: scope.requestId } : {}) }, 'message handled');
        }
      });
    });
  }

  /**
   * One structured line per failed handler: request id, subject, code, message and stack, with
   * every string of the request (question, client id, ...) redacted; never the payload itself.
   */
  private logFailure(def: RpcDef, scope: CallScope, body: unknown, error: WireError, err: unknown): void {
    if (!this.log) return;
    const secrets = clientStrings(body);
    const ownId = (body as { request_id?: unknown } | undefined)?.request_id;
    this.log[LOG_LEVEL_OF[error.code] ?? 'error'](
      {
        request_id: scope.requestId ?? (isRequestId(ownId) ? ownId : null),
        subject: def.subject,
        code: error.code,
        message: redact(error.message, secrets),
        stack: redact(err instanceof Error ? err.stack : undefined, secrets) ?? null,
      },
      'handler failed',
    );
  }

  /** Shed load is logged at most once a second per subscription, with how many messages were turned away. */
  private logShed(def: RpcDef, limits: { max_concurrent: number; max_queue: number }, shed: { count: number; loggedAt: number }): void {
    shed.count++;
    const now = Date.now();
    if (!this.log || now - shed.loggedAt < 1000) return;
    this.log.warn({ subject: def.subject, code: 'UNAVAILABLE', rejected: shed.count, ...limits }, 'load shed: subscription at capacity');
    shed.loggedAt = now;
    shed.count = 0;
  }

  /**
   * Publishes an event without waiting. The payload is typed by its contract and validated where it is
   * received (`listen`), like every other message: checking it here too cost every step a second parse.
   */
  emit<D extends EventDef>(def: D, payload: PayloadOf<D>): void {
    this.transport.publish(def.subject, JSON.stringify(payload));
  }

  /** Publishes one message of a per-request stream without waiting; invalid messages are dropped. */
  emitStream<D extends StreamDef>(def: D, key: string, payload: z.infer<D['payload']>): void {
    const parsed = def.payload.safeParse(payload);
    if (parsed.success) this.transport.publish(streamSubject(def, key), JSON.stringify(parsed.data));
  }

  /** Follows one per-request stream; messages that do not match the contract are ignored. */
  followStream<D extends StreamDef>(def: D, key: string, handler: (payload: z.infer<D['payload']>) => void): TransportSubscription {
    return this.transport.subscribe(streamSubject(def, key), (_subject, data) => {
      try {
        const parsed = def.payload.safeParse(JSON.parse(data));
        if (parsed.success) handler(parsed.data);
      } catch {
        /* a bad message never breaks the follower */
      }
    });
  }

  /**
   * Listens to events by pattern (e.g. `cota.events.>`). An event of the contracts' catalog (or of
   * `events`, when given) that does not match its payload schema is dropped, never delivered.
   */
  listen(pattern: string, handler: (subject: string, payload: unknown) => void, events: EventDef[] = ALL_EVENTS): TransportSubscription {
    const bySubject = new Map(events.map((e) => [e.subject, e]));
    return this.transport.subscribe(pattern, (subject, data) => {
      try {
        const def = bySubject.get(subject);
        const body: unknown = JSON.parse(data);
        if (!def) return handler(subject, body);
        const parsed = def.payload.safeParse(body);
        if (parsed.success) handler(subject, parsed.data);
      } catch {
        /* a bad event never breaks a listener */
      }
    });
  }
}

/** What a handler's failure becomes on the wire: its own code, UNAVAILABLE for a lost store connection, INTERNAL otherwise. */
function wireErrorOf(service: string, err: unknown): WireError {
  if (CotaError.is(err)) return err.toWire();
  const message = `${service} failed: ${(err as Error)?.message ?? String(err)}`;
  return { code: isConnectionLost(err) ? 'UNAVAILABLE' : 'INTERNAL', message } as WireError;
}
