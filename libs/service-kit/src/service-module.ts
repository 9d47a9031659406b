import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { TransportSubscription } from '@cota/messaging';
import { HealthCheck, serveHealth } from './health';
import { INFRA, Infra } from './infra';

/**
 * Base for a service's bus handlers: subclasses return their subscriptions from `subscribe()`;
 * this registers them (plus health) when Nest starts the module and removes them on shutdown.
 */
@Injectable()
export abstract class BusHandlers implements OnModuleInit, OnApplicationShutdown {
  private subs: TransportSubscription[] = [];

  constructor(@Inject(INFRA) protected readonly infra: Infra) {}

  protected abstract subscribe(): TransportSubscription[] | Promise<TransportSubscription[]>;

  /** Extra readiness checks (e.g. "fund list loaded"). */
  protected healthChecks(): Record<string, HealthCheck> {
    return {};
  }

  async onModuleInit(): Promise<void> {
    this.subs = [...(await this.subscribe()), serveHealth(this.infra, this.healthChecks())];
    // A broker round trip makes sure the subscriptions are registered before the service counts as
    // started, so a request sent right after start-up finds its responder.
    await this.infra.bus.transport.ping().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    for (const s of this.subs) s.unsubscribe();
    this.subs = [];
  }
}
