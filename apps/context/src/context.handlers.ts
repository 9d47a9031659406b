import { Inject, Injectable } from '@nestjs/common';
import { ContextSubjects, CotaError, Events, PrivacySubjects, TelemetryEvent } from '@cota/contracts';
import { asContextError, ContextManager, ContextStore, eraseConversationData, HistoryStore, RedisContextStore } from '@cota/conversation';
import { emitStep, since, TransportSubscription } from '@cota/messaging';
import { BusHandlers, INFRA, Infra } from '@cota/service-kit';

export const CONTEXT_STORE = Symbol('CONTEXT_STORE');
export const HISTORY_STORE = Symbol('HISTORY_STORE');

/** Store outages reach callers as UNAVAILABLE rather than INTERNAL. */
const mapped = <T>(p: Promise<T>): Promise<T> =>
  p.catch((e) => {
    throw asContextError(e);
  });

@Injectable()
export class ContextHandlers extends BusHandlers {
  constructor(
    @Inject(INFRA) infra: Infra,
    private readonly manager: ContextManager,
    @Inject(CONTEXT_STORE) private readonly store: ContextStore,
    @Inject(HISTORY_STORE) private readonly historyStore: HistoryStore,
  ) {
    super(infra);
  }

  protected async subscribe(): Promise<TransportSubscription[]> {
    // Redis commands fail fast while disconnected: take traffic only once it is ready.
    if (this.store instanceof RedisContextStore) await this.store.ready();
    const bus = this.infra.bus;
    return [
      bus.serve(ContextSubjects.resolve, (req) =>
        this.observed(Events.contextResolved, req, () => this.manager.resolve(req), (res) => ({
          entity: req.entity,
          intent: req.intent,
          turn_index: res.turn_index,
          last_reference_used: res.context.last_reference_used,
          reason: res.context.reason,
          memory_turns: res.memory.recent.length,
          has_summary: res.memory.summary !== null,
        })),
      ),
      bus.serve(ContextSubjects.commit, (req) =>
        this.observed(Events.contextCommitted, req, () => this.manager.commit(req), (res) => ({
          entity: req.entity,
          status: req.status,
          accepted: req.accepted,
          turn_index: req.turn_index,
          ticker_count: req.tickers.length,
          reference_updated: res.reference_updated,
        })),
      ),
      bus.serve(ContextSubjects.history, (req) => mapped(this.manager.history(req))),
      bus.serve(ContextSubjects.debug, (req) => mapped(this.manager.debug(req))),
      bus.serve(ContextSubjects.peek, (req) => mapped(this.manager.peek(req))),
      bus.serve(ContextSubjects.clear, (req) => mapped(this.manager.clear(req))),
      bus.serve(ContextSubjects.sessionGet, (req) => mapped(this.manager.sessionGet(req))),
      bus.serve(ContextSubjects.sessionSet, (req) => mapped(this.manager.sessionSet(req))),
      // Erasure of one client: every conversation's hot state and durable turns (orchestrated by @cota/orchestration).
      bus.serve(PrivacySubjects.eraseContext, async (req) => ({
        erased: await mapped(
          eraseConversationData(
            { store: this.store, history: this.historyStore, hotBackend: this.store instanceof RedisContextStore ? 'redis' : 'memory' },
            req.client_id,
          ),
        ),
      })),
    ];
  }

  override async onApplicationShutdown(): Promise<void> {
    super.onApplicationShutdown();
    // Background summaries finish before the connections they use are closed.
    await this.manager.drain();
  }

  /** Runs one step and publishes its telemetry (no raw client data: ids are hashed by emitStep). */
  private async observed<T>(
    def: typeof Events.contextResolved,
    req: { request_id: string; client_id: string; conversation_id: string },
    run: () => Promise<T>,
    attributes: (res: T) => TelemetryEvent['attributes'],
  ): Promise<T> {
    const t = performance.now();
    const ids = { request_id: req.request_id, client_id: req.client_id, conversation_id: req.conversation_id };
    try {
      const res = await run();
      emitStep(this.infra.bus, def, { ...ids, outcome: 'ok', timings_ms: { total: since(t) }, attributes: attributes(res) });
      return res;
    } catch (e) {
      const err = asContextError(e);
      emitStep(this.infra.bus, def, { ...ids, outcome: 'error', timings_ms: { total: since(t) }, attributes: { error_code: CotaError.is(err) ? err.code : 'INTERNAL' } });
      throw err;
    }
  }
}
