import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AlertEvaluator, type AlertsConsumer, startAlertsConsumer } from '@cota/alerts';
import { ExecutorBroadcasts } from '@cota/contracts';
import { INFRA, Infra, createLogger, requireDatabase } from '@cota/service-kit';
import { OutboxDelivery } from './outbox-delivery';

const log = createLogger('executor');

/**
 * The clients' alerts, evaluated on the warehouse change events: the durable JetStream consumer over NATS
 * (one replica per event), the in-process bus embedded. Starts once the module is up (ToolsHandlers created
 * the alert tables) and stops before the database closes.
 */
@Injectable()
export class AlertsEvaluation implements OnApplicationBootstrap, OnApplicationShutdown {
  private consumer: AlertsConsumer | null = null;

  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly outbox: OutboxDelivery,
  ) {}

  onApplicationBootstrap(): void {
    const evaluator = new AlertEvaluator(requireDatabase(this.infra));
    this.consumer = startAlertsConsumer(this.infra.bus.transport, evaluator, {
      log,
      // Every gateway pushes it to the client's open notification streams (the page's bell).
      onFired: (fired) => {
        log.info({ notifications: fired.length }, 'alerts fired');
        // Their e-mails were queued with them: send now, not at the next poll.
        this.outbox.wake();
        const now = new Date().toISOString();
        for (const f of fired) {
          this.infra.bus.emit(ExecutorBroadcasts.notificationCreated, {
            client_id: f.client_id,
            notification: { notification_id: f.notification_id, rule_id: f.rule_id, title: f.title, body: f.body, created_at: now, read: false },
          });
        }
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }
}
