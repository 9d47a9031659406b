import { CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { RpcDef } from '@cota/contracts';
import type { Bus } from '../bus';
import type { TransportSubscription } from '../transport';
import { BusContext } from './bus-context';
import { CONTRACT_EXTRA } from './decorators';

/**
 * The Nest transport strategy of every service: `@MessagePattern`/`@EventPattern` handlers (see
 * decorators.ts) are served on the service's bus, over NATS or in-process (embedded mode): the same
 * strategy on both transports. The bus keeps what belongs to the wire (queue groups, deadlines,
 * bulkheads, trace context, the typed error reply and its log line); Nest runs the handler with its
 * pipe (validation), interceptors (telemetry) and filter (errors).
 */
export class BusServer extends Server implements CustomTransportStrategy {
  private subscriptions: TransportSubscription[] = [];

  constructor(private readonly bus: Bus) {
    super();
  }

  async listen(callback: (...optionalParams: unknown[]) => void): Promise<void> {
    try {
      for (const [pattern, handler] of this.getHandlers()) this.subscriptions.push(this.bind(pattern, handler));
      // A broker round trip makes sure the subscriptions are registered before the service counts as
      // started, so a request sent right after start-up finds its responder.
      await this.bus.transport.ping().catch(() => undefined);
      callback();
    } catch (e) {
      callback(e);
    }
  }

  close(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
  }

  on(): void {
    /* the bus reports its connection status itself (NatsTransport onStatus) */
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  private bind(pattern: string, handler: MessageHandler): TransportSubscription {
    const contract = (handler.extras as Record<string, unknown> | undefined)?.[CONTRACT_EXTRA];
    if (handler.isEventHandler) {
      return this.bus.listen(pattern, (subject, payload) => {
        const run = async () => {
          // Event handlers chained on one pattern (several @EventPattern) all receive the event.
          for (let h: MessageHandler | undefined = handler; h; h = h.next) {
            const out = await h(payload, new BusContext([subject, {}, this.bus]));
            if (isObservable(out)) await lastValueFrom(out, { defaultValue: undefined });
          }
        };
        run().catch((e) => this.logger.error?.(`event handler on ${subject} failed: ${(e as Error)?.message ?? e}`));
      });
    }
    if (!contract) throw new Error(`@MessagePattern('${pattern}') has no contract: use @RpcHandler(def) from @cota/messaging`);
    const def = contract as RpcDef;
    return this.bus.serveParsed(def, async (body, headers) => {
      const out = await handler(body, new BusContext([def.subject, headers, this.bus]));
      return isObservable(out) ? lastValueFrom(out) : out;
    });
  }
}
