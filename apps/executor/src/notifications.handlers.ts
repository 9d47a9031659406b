import { Controller } from '@nestjs/common';
import { ExecutorSubjects, RequestOf } from '@cota/contracts';
import { RpcHandler } from '@cota/messaging';
import { alertsPanel, AlertStore, changeAlertById } from '@cota/alerts';

/** Serves the client's alerts to the gateway: the notifications (the page's bell, marking them read) and the rules (its alerts panel). */
@Controller()
export class NotificationsHandlers {
  constructor(private readonly alerts: AlertStore) {}

  @RpcHandler(ExecutorSubjects.notifications)
  list(req: RequestOf<typeof ExecutorSubjects.notifications>) {
    return this.alerts.notifications(req.client_id, req.limit);
  }

  @RpcHandler(ExecutorSubjects.notificationsRead)
  async read(req: RequestOf<typeof ExecutorSubjects.notificationsRead>) {
    const marked = await this.alerts.markRead(req.client_id, req.up_to);
    return { marked, unread: (await this.alerts.notifications(req.client_id, 1)).unread };
  }

  @RpcHandler(ExecutorSubjects.alerts)
  async rules(req: RequestOf<typeof ExecutorSubjects.alerts>) {
    return { alerts: await alertsPanel(this.alerts, req.client_id) };
  }

  @RpcHandler(ExecutorSubjects.alertChange)
  change(req: RequestOf<typeof ExecutorSubjects.alertChange>) {
    return changeAlertById(this.alerts, req.action, req.alert_id, { client_id: req.client_id });
  }
}
