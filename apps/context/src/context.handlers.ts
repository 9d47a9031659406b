import { Controller, Inject, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ContextSubjects, CotaError, Events, PrivacySubjects, RequestOf } from '@cota/contracts';
import {
  asContextError,
  ContextManager,
  ContextStore,
  eraseConversationData,
  feedbackToEvalCase,
  HistoryStore,
  InvalidCursorError,
  PostgresConversationDirectory,
  PostgresFeedbackStore,
  RedisContextStore,
} from '@cota/conversation';
import { errorCode, RpcHandler, StepEvent } from '@cota/messaging';

export const CONTEXT_STORE = Symbol('CONTEXT_STORE');
export const HISTORY_STORE = Symbol('HISTORY_STORE');

/** Store outages reach callers as UNAVAILABLE rather than INTERNAL. */
const mapped = <T>(p: Promise<T>): Promise<T> =>
  p.catch((e) => {
    throw asContextError(e);
  });

const failed = (_req: unknown, e: unknown) => ({ attributes: { error_code: errorCode(asContextError(e)) } });

const keyOf = (k: { client_id: string; conversation_id: string }) => ({ clientId: k.client_id, conversationId: k.conversation_id });

/** Serves the conversation's context: resolve a follow-up, commit a turn, history, sessions, erasure. */
@Controller()
export class ContextHandlers implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly manager: ContextManager,
    @Inject(CONTEXT_STORE) private readonly store: ContextStore,
    @Inject(HISTORY_STORE) private readonly historyStore: HistoryStore,
    private readonly directory: PostgresConversationDirectory,
    private readonly feedbackStore: PostgresFeedbackStore,
  ) {}

  /** Redis commands fail fast while disconnected: take traffic only once it is ready. */
  async onModuleInit(): Promise<void> {
    if (this.store instanceof RedisContextStore) await this.store.ready();
  }

  /** Background summaries finish before the connections they use are closed. */
  async onApplicationShutdown(): Promise<void> {
    await this.manager.drain();
  }

  @RpcHandler(ContextSubjects.open)
  @StepEvent(ContextSubjects.open, Events.contextOpened, {
    attributes: (_req, res) => ({
      turn_index: res.state.turn_index,
      has_reference: res.state.last_reference !== null,
      pending_call: res.state.pending_call?.tool ?? null,
      memory_turns: res.memory.recent.length,
      has_summary: res.memory.summary !== null,
    }),
    failure: failed,
  })
  open(req: RequestOf<typeof ContextSubjects.open>) {
    return mapped(this.manager.open(req));
  }

  @RpcHandler(ContextSubjects.commit)
  @StepEvent(ContextSubjects.commit, Events.contextCommitted, {
    attributes: (req, res) => ({
      kind: req.reading.kind,
      entity: req.reading.entity,
      status: req.outcome.status,
      turn_index: req.turn_index,
      reference_updated: res.reference_updated,
    }),
    failure: failed,
  })
  commit(req: RequestOf<typeof ContextSubjects.commit>) {
    return mapped(this.manager.commit(req));
  }

  @RpcHandler(ContextSubjects.history)
  history(req: RequestOf<typeof ContextSubjects.history>) {
    return mapped(this.manager.history(req));
  }

  /** The client's conversations, newest activity first (the key's client, set by the gateway). */
  @RpcHandler(ContextSubjects.list)
  list(req: RequestOf<typeof ContextSubjects.list>) {
    return this.directory.list(req.client_id, req.limit, req.cursor).catch((e) => {
      if (e instanceof InvalidCursorError) throw new CotaError('BAD_REQUEST', e.message, { field: 'cursor' });
      throw asContextError(e);
    });
  }

  @RpcHandler(ContextSubjects.rename)
  async rename(req: RequestOf<typeof ContextSubjects.rename>) {
    return { renamed: await mapped(this.directory.rename(keyOf(req), req.title)) };
  }

  /** The conversation's turns, title and feedback, and its hot state: nothing of it is left to inherit. */
  @RpcHandler(ContextSubjects.remove)
  async remove(req: RequestOf<typeof ContextSubjects.remove>) {
    await mapped(this.manager.clear(req));
    const turns = await mapped(this.directory.remove(keyOf(req)));
    return { deleted: turns > 0, turns };
  }

  @RpcHandler(ContextSubjects.feedback)
  async feedback(req: RequestOf<typeof ContextSubjects.feedback>) {
    const comment = req.comment?.trim() ? req.comment.trim() : null;
    return { stored: await mapped(this.feedbackStore.record(keyOf(req), { requestId: req.request_id, rating: req.rating, comment })) };
  }

  @RpcHandler(ContextSubjects.feedbackExport)
  async feedbackExport(req: RequestOf<typeof ContextSubjects.feedbackExport>) {
    return { cases: (await mapped(this.feedbackStore.export(req))).map(feedbackToEvalCase) };
  }

  @RpcHandler(ContextSubjects.debug)
  debug(req: RequestOf<typeof ContextSubjects.debug>) {
    return mapped(this.manager.debug(req));
  }

  @RpcHandler(ContextSubjects.clear)
  clear(req: RequestOf<typeof ContextSubjects.clear>) {
    return mapped(this.manager.clear(req));
  }

  @RpcHandler(ContextSubjects.sessionGet)
  sessionGet(req: RequestOf<typeof ContextSubjects.sessionGet>) {
    return mapped(this.manager.sessionGet(req));
  }

  @RpcHandler(ContextSubjects.sessionSet)
  sessionSet(req: RequestOf<typeof ContextSubjects.sessionSet>) {
    return mapped(this.manager.sessionSet(req));
  }

  /** Erasure of one client: every conversation's hot state and durable turns (orchestrated by @cota/orchestration). */
  @RpcHandler(PrivacySubjects.eraseContext)
  async eraseClient(req: RequestOf<typeof PrivacySubjects.eraseContext>) {
    const erased = await mapped(
      eraseConversationData(
        {
          store: this.store,
          history: this.historyStore,
          directory: this.directory,
          feedback: this.feedbackStore,
          hotBackend: this.store instanceof RedisContextStore ? 'redis' : 'memory',
        },
        req.client_id,
      ),
    );
    return { erased };
  }
}
