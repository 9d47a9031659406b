import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  CallRequestOf,
  CotaError,
  EventDef,
  PayloadOf,
  RequestOf,
  ResponseOf,
  RpcDef,
  StreamDef,
  streamSubject,
  validate,
  WireError,
} from '@cota/contracts';
import { Transport, TransportSubscription } from './transport';

type Reply = { ok: true; data: unknown } | { ok: false; error: WireError };

export interface CallOptions {
  timeoutMs?: number;
}

/**
 * The typed client every service uses: subjects come from the contracts library, payloads are
 * validated before sending and after receiving, errors come back as CotaError.
 * No service writes a subject string by hand.
 */
export class Bus {
  readonly instance = randomUUID().slice(0, 8);

  constructor(
    readonly transport: Transport,
    /** Who this bus belongs to (for error attribution). */
    readonly owner: string,
  ) {}

  async call<D extends RpcDef>(def: D, request: CallRequestOf<D>, opts: CallOptions = {}): Promise<ResponseOf<D>> {
    const payload = validate(def.request, request, `request to ${def.subject}`);
    let raw: string;
    try {
      raw = await this.transport.request(def.subject, JSON.stringify(payload), opts.timeoutMs ?? def.timeoutMs);
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
    return validate(def.response, reply.data, `reply from ${def.subject}`);
  }

  /**
   * Serves a subject in the service's queue group. A malformed message or a failing handler
   * becomes a typed error reply; the handler never crashes the process.
   */
  serve<D extends RpcDef>(
    def: D,
    handler: (request: RequestOf<D>) => Promise<ResponseOf<D>> | ResponseOf<D>,
  ): TransportSubscription {
    return this.transport.serve(def.subject, def.service, async (raw) => {
      try {
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          throw new CotaError('INVALID_MESSAGE', `message on ${def.subject} is not JSON`);
        }
        const request = validate(def.request, body, `request to ${def.subject}`);
        const response = await handler(request);
        const data = validate(def.response, response, `reply from ${def.subject}`);
        return JSON.stringify({ ok: true, data } satisfies Reply);
      } catch (err) {
        const error = CotaError.is(err)
          ? err.toWire()
          : ({ code: 'INTERNAL', message: `${def.service} failed: ${(err as Error)?.message ?? String(err)}` } as WireError);
        error.service = error.service ?? def.service;
        return JSON.stringify({ ok: false, error } satisfies Reply);
      }
    });
  }

  /** Publishes an event without waiting; invalid telemetry is dropped, never thrown. */
  emit<D extends EventDef>(def: D, payload: PayloadOf<D>): void {
    const parsed = def.payload.safeParse(payload);
    if (parsed.success) this.transport.publish(def.subject, JSON.stringify(parsed.data));
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

  /** Listens to events by pattern (e.g. `cota.events.>`). */
  listen(pattern: string, handler: (subject: string, payload: unknown) => void): TransportSubscription {
    return this.transport.subscribe(pattern, (subject, data) => {
      try {
        handler(subject, JSON.parse(data));
      } catch {
        /* a bad event never breaks a listener */
      }
    });
  }
}
