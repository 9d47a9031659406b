import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import { CallRequestOf, EventDef, PayloadOf, ResponseOf, RpcDef } from '@cota/contracts';
import type { Bus, CallOptions } from '../bus';

/**
 * The Nest client of the bus (`ClientProxy`): `send(def, request)` returns an Observable of the
 * validated reply, `emit(def, payload)` publishes an event; `call` is the same request as a Promise,
 * what the ask pipeline awaits. Patterns are contract definitions, never hand-written subjects.
 */
export class BusClient extends ClientProxy {
  constructor(readonly bus: Bus) {
    super();
  }

  /** A typed request-reply call: the deadline and request id of the current scope travel with it. */
  call<D extends RpcDef>(def: D, request: CallRequestOf<D>, opts?: CallOptions): Promise<ResponseOf<D>> {
    return this.bus.call(def, request, opts);
  }

  /** Publishes an event without waiting (validated where it is received). */
  publishEvent<D extends EventDef>(def: D, payload: PayloadOf<D>): void {
    this.bus.emit(def, payload);
  }

  async connect(): Promise<Bus> {
    return this.bus;
  }

  close(): void {
    /* the bus's transport is owned and drained by the service (boot.ts) */
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  protected publish(packet: ReadPacket<{ request: unknown }>, callback: (packet: WritePacket) => void): () => void {
    const def = asRpc(packet.pattern);
    this.bus.call(def, packet.data as CallRequestOf<typeof def>).then(
      (response) => callback({ response, isDisposed: true }),
      (err) => callback({ err, isDisposed: true }),
    );
    return () => undefined;
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    this.bus.emit(asEvent(packet.pattern), packet.data as never);
    return undefined as T;
  }

  /** Errors reach subscribers as they were (CotaError), not serialised. */
  protected override serializeError(err: unknown): unknown {
    return err;
  }
}

function asRpc(pattern: unknown): RpcDef {
  if (pattern && typeof pattern === 'object' && 'subject' in pattern && 'request' in pattern) return pattern as RpcDef;
  throw new Error('BusClient.send takes a contract definition from @cota/contracts, not a subject string');
}

function asEvent(pattern: unknown): EventDef {
  if (pattern && typeof pattern === 'object' && 'subject' in pattern && 'payload' in pattern) return pattern as EventDef;
  throw new Error('BusClient.emit takes an event definition from @cota/contracts, not a subject string');
}
