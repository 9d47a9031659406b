import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createOutboxWorker, OutboxWorker } from '@cota/mail';
import { INFRA, Infra, createLogger, requireDatabase } from '@cota/service-kit';

const log = createLogger('executor');

/**
 * Delivery of the e-mail outbox over SMTP, when SMTP_URL is set (env.mail): the worker starts once
 * the module is up (after ToolsHandlers applied the outbox migrations) and stops, letting a send in
 * flight finish, before the database closes. Without SMTP_URL nothing runs and messages stay `queued`.
 */
@Injectable()
export class OutboxDelivery implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly worker: OutboxWorker | null;

  constructor(@Inject(INFRA) infra: Infra) {
    this.worker = infra.env.mail ? createOutboxWorker(requireDatabase(infra), infra.env.mail) : null;
  }

  /** Whether queued e-mail is delivered (the e-mail tool tells the client either way). */
  get enabled(): boolean {
    return this.worker !== null;
  }

  /** A message was queued: deliver it now rather than at the next poll. */
  wake(): void {
    this.worker?.wake();
  }

  onApplicationBootstrap(): void {
    if (this.worker) this.worker.start();
    else log.info('SMTP_URL not set: e-mails stay queued in the outbox, none is delivered');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }
}
