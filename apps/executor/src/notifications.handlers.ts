import { Controller } from '@nestjs/common';
import { ExecutorSubjects, RequestOf } from '@cota/contracts';
import { RpcHandler } from '@cota/messaging';
import { AlertStore } from '@cota/alerts';

/** Serves the client's alert notifications to the gateway (GET /me/notifications, marking them read). */
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
}
