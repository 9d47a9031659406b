import { AckPolicy, DeliverPolicy, DiscardPolicy, JsMsg, NatsConnection, nanos, RetentionPolicy, StorageType, StreamInfo, StringCodec } from 'nats';
import { WAREHOUSE_EVENTS_SUBJECTS, WAREHOUSE_STREAM } from '@cota/contracts';
import { NatsTransport } from './nats-transport';
import type { Transport } from './transport';

const sc = StringCodec();

/** How long the stream keeps events and how long a repeated message id is recognised (policies/feeds.yaml `events`). */
export interface StreamRetention {
  maxAgeMs: number;
  duplicateWindowMs: number;
  maxBytes: number;
}

/** One event as the stream stored it. */
export interface StoredEvent {
  subject: string;
  /** The payload as published (JSON); the reader validates it against the subject's schema. */
  data: string;
  seq: number;
  time: Date;
}

/** One delivery of the durable consumer: acknowledged only once its effect is recorded. */
export interface Delivery extends StoredEvent {
  /** 1 the first time; more when the evaluator died or failed before acknowledging it. */
  deliveries: number;
}

export interface DurableOptions {
  /** A delivery not acknowledged after this long is sent again. */
  ackWaitMs: number;
  /** Deliveries before the stream gives up on one event (it stays in the stream; the failure is logged). */
  maxDeliver: number;
}

export interface DurableConsumer {
  stop(): Promise<void>;
}

const isNotFound = (e: unknown) => /not found/i.test((e as Error)?.message ?? '');

/**
 * The warehouse change events on JetStream: the stream WAREHOUSE_STREAM over `cota.events.warehouse.>`
 * (file storage, limits retention), the publish with the event id as message id (`Nats-Msg-Id`, so a
 * retry within the duplicate window is stored once), replays from a time, and durable consumers with
 * explicit acks. Core NATS subscribers of those subjects receive each event too, as it is published.
 */
export class WarehouseStream {
  constructor(private readonly nc: NatsConnection) {}

  /** The stream over a transport's NATS connection; null on the in-process bus (embedded mode). */
  static of(transport: Transport): WarehouseStream | null {
    return transport instanceof NatsTransport ? new WarehouseStream(transport.connection) : null;
  }

  /** Creates the stream, or brings its limits to the policy's. */
  async ensure(retention: StreamRetention): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    const limits = {
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(retention.maxAgeMs),
      duplicate_window: nanos(retention.duplicateWindowMs),
      max_bytes: retention.maxBytes,
    };
    try {
      const info = await jsm.streams.info(WAREHOUSE_STREAM);
      const c = info.config;
      if (c.max_age !== limits.max_age || c.duplicate_window !== limits.duplicate_window || c.max_bytes !== limits.max_bytes) {
        await jsm.streams.update(WAREHOUSE_STREAM, { ...c, ...limits });
      }
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await jsm.streams.add({ name: WAREHOUSE_STREAM, subjects: [WAREHOUSE_EVENTS_SUBJECTS], ...limits });
    }
  }

  /** The stream's configuration and state (null when it does not exist yet). */
  async info(): Promise<StreamInfo | null> {
    const jsm = await this.nc.jetstreamManager();
    return jsm.streams.info(WAREHOUSE_STREAM).catch((e) => {
      if (isNotFound(e)) return null;
      throw e;
    });
  }

  /** Stores one event; `duplicate` when the stream already had this message id within its window. */
  async publish(subject: string, data: string, msgId: string): Promise<{ seq: number; duplicate: boolean }> {
    const ack = await this.nc.jetstream().publish(subject, sc.encode(data), { msgID: msgId, expect: { streamName: WAREHOUSE_STREAM } });
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  /**
   * The events stored since `since` whose subject matches `filter`, oldest first, through an ephemeral
   * ordered consumer. Without `follow` it stops at the newest event stored when it started.
   */
  async replay(filter: string, since: Date, onEvent: (e: StoredEvent) => void, opts: { follow?: boolean; signal?: AbortSignal } = {}): Promise<number> {
    const consumer = await this.nc.jetstream().consumers.get(WAREHOUSE_STREAM, {
      filterSubjects: filter,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: since.toISOString(),
    });
    let n = 0;
    if (opts.follow) {
      const messages = await consumer.consume({ max_messages: 256 });
      opts.signal?.addEventListener('abort', () => void messages.close());
      for await (const m of messages) {
        onEvent(toStored(m));
        n++;
      }
      return n;
    }
    // Up to what is stored now: a message with nothing pending behind it is the last; an empty fetch means none matched.
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 256, expires: 1500 });
      let got = 0;
      let done = false;
      for await (const m of batch) {
        onEvent(toStored(m));
        n++;
        got++;
        if (m.info.pending === 0) {
          done = true;
          break;
        }
      }
      if (done || got === 0 || opts.signal?.aborted) return n;
    }
  }

  /**
   * A durable consumer with explicit acks over `filter`, created on first use and shared by every
   * replica that consumes it (each event goes to one of them). The handler's returned promise decides:
   * resolved, the event is acknowledged; rejected, it is delivered again after `ackWaitMs`.
   */
  async consumeDurable(
    name: string,
    filter: string,
    handler: (d: Delivery) => Promise<void>,
    opts: DurableOptions,
    onError: (e: Error, d: Delivery) => void,
  ): Promise<DurableConsumer> {
    const jsm = await this.nc.jetstreamManager();
    const config = {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      // From the oldest event kept: what was published before the consumer first existed is read too
      // (the handler decides what concerns it).
      deliver_policy: DeliverPolicy.All,
      filter_subject: filter,
      ack_wait: nanos(opts.ackWaitMs),
      max_deliver: opts.maxDeliver,
    };
    try {
      await jsm.consumers.info(WAREHOUSE_STREAM, name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await jsm.consumers.add(WAREHOUSE_STREAM, config);
    }
    const consumer = await this.nc.jetstream().consumers.get(WAREHOUSE_STREAM, name);
    const messages = await consumer.consume({ max_messages: 64 });
    const loop = (async () => {
      for await (const m of messages) {
        const d: Delivery = { ...toStored(m), deliveries: m.info.redeliveryCount };
        let ok = false;
        try {
          await handler(d);
          ok = true;
        } catch (e) {
          onError(e as Error, d);
        }
        try {
          if (ok) m.ack();
          else m.nak(opts.ackWaitMs);
        } catch {
          /* the connection closed: the stream delivers it again after ack_wait */
        }
      }
    })();
    return {
      stop: async () => {
        await messages.close().catch(() => undefined);
        await loop.catch(() => undefined);
      },
    };
  }
}

function toStored(m: JsMsg): StoredEvent {
  return { subject: m.subject, data: sc.decode(m.data), seq: m.seq, time: new Date(Math.floor(m.info.timestampNanos / 1_000_000)) };
}
