import { ALERTS_CONSUMER, WAREHOUSE_EVENTS_SUBJECTS } from '@cota/contracts';
import { WarehouseStream, type Transport } from '@cota/messaging';
import type { Logger } from '@cota/service-kit';
import type { AlertEvaluator, FiredAlert } from './evaluator';

export interface AlertsConsumerOptions {
  log: Pick<Logger, 'info' | 'warn'>;
  onFired?: (fired: FiredAlert[]) => void;
  /** An event not acknowledged after this long is delivered again (to this or another replica). */
  ackWaitMs?: number;
  /** How long to wait before trying again while the stream does not exist yet (the ingest worker creates it). */
  retryMs?: number;
}

export interface AlertsConsumer {
  /** Resolves once the consumer reads the stream (embedded: at once). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs the evaluator on the warehouse change events: over NATS, as the durable JetStream consumer
 * ALERTS_CONSUMER (each event to one replica, acknowledged only after its evaluation committed, so an
 * evaluator that dies mid-way gets it again and its unique keys make the second time change nothing);
 * embedded, on the in-process bus, where the outbox publisher sends each event once.
 */
export function startAlertsConsumer(transport: Transport, evaluator: AlertEvaluator, opts: AlertsConsumerOptions): AlertsConsumer {
  const onFired = (fired: FiredAlert[]) => {
    if (fired.length) opts.onFired?.(fired);
  };
  const stream = WarehouseStream.of(transport);
  if (!stream) {
    const sub = transport.subscribe(WAREHOUSE_EVENTS_SUBJECTS, (subject, data) => {
      evaluator.handle(subject, data).then(onFired, (e: Error) => opts.log.warn({ subject, error: e.message }, 'alert evaluation failed'));
    });
    return { ready: Promise.resolve(), stop: async () => sub.unsubscribe() };
  }
  let stopped = false;
  let running: { stop(): Promise<void> } | null = null;
  let timer: NodeJS.Timeout | null = null;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((res) => (markReady = res));
  const attempt = async (): Promise<void> => {
    try {
      running = await stream.consumeDurable(
        ALERTS_CONSUMER,
        WAREHOUSE_EVENTS_SUBJECTS,
        async (d) => onFired(await evaluator.handle(d.subject, d.data)),
        { ackWaitMs: opts.ackWaitMs ?? 30_000, maxDeliver: 20 },
        (e, d) => opts.log.warn({ subject: d.subject, seq: d.seq, deliveries: d.deliveries, error: e.message }, 'alert evaluation failed; the event comes again'),
      );
      markReady();
      if (stopped) await running.stop();
      else opts.log.info({ consumer: ALERTS_CONSUMER }, 'alerts evaluator consuming the change events');
    } catch (e) {
      if (stopped) return;
      opts.log.info({ error: (e as Error).message }, 'alerts evaluator waiting for the change events stream');
      timer = setTimeout(() => void attempt(), opts.retryMs ?? 10_000);
      timer.unref();
    }
  };
  void attempt();
  return {
    ready,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.stop();
    },
  };
}
