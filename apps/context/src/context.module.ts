import { DynamicModule, Module } from '@nestjs/common';
import {
  ContextManager,
  ContextStore,
  ExtractiveSummarizer,
  HistoryStore,
  InMemoryContextStore,
  LlmSummarizer,
  loadRetentionPolicy,
  PostgresConversationDirectory,
  PostgresFeedbackStore,
  PostgresHistoryStore,
  RedisContextStore,
  Summarizer,
  sweptTogether,
  TurnRetentionSweeper,
} from '@cota/conversation';
import { loadContextPolicy } from '@cota/dialogue';
import { createLlmClient } from '@cota/llm';
import { INFRA, Infra, createLogger, postgresJobLock, requireDatabase } from '@cota/service-kit';
import { ContextHandlers, CONTEXT_STORE, HISTORY_STORE } from './context.handlers';
import { RetentionJob } from './retention.job';

export interface ContextServiceOptions {
  /** Redis key prefix for the context's hot state; default `${COTA_REDIS_PREFIX ?? 'cota:'}ctx:`. */
  redisPrefix?: string;
  /** Folder holding context.yaml and retention.yaml (default: the repo's policies/). */
  policiesDir?: string;
}

const log = createLogger('context');

/** Hot state on Redis when the service has one; the in-memory store only in embedded mode. */
function hotStore(infra: Infra, options: ContextServiceOptions): ContextStore {
  if (infra.redis) {
    // The environment the service was started with (not this process's variables): test clusters set their own.
    const prefix = options.redisPrefix ?? `${infra.env.redisPrefix}ctx:`;
    return new RedisContextStore(infra.redis, { prefix });
  }
  if (!infra.embedded) throw new Error('context needs Redis: set REDIS_URL (the in-memory store is for embedded mode only)');
  return new InMemoryContextStore();
}

@Module({})
export class ContextModule {
  static register(infra: Infra, options: ContextServiceOptions = {}): DynamicModule {
    return {
      module: ContextModule,
      providers: [
        { provide: INFRA, useValue: infra },
        { provide: CONTEXT_STORE, useFactory: () => hotStore(infra, options) },
        { provide: HISTORY_STORE, useFactory: () => new PostgresHistoryStore(requireDatabase(infra)) },
        { provide: PostgresConversationDirectory, useFactory: () => new PostgresConversationDirectory(requireDatabase(infra)) },
        { provide: PostgresFeedbackStore, useFactory: () => new PostgresFeedbackStore(requireDatabase(infra)) },
        {
          // policies/retention.yaml loaded once, here: a bad file stops the service naming file and field.
          provide: TurnRetentionSweeper,
          inject: [HISTORY_STORE, PostgresFeedbackStore],
          useFactory: (history: HistoryStore, feedback: PostgresFeedbackStore) =>
            new TurnRetentionSweeper({
              policy: loadRetentionPolicy(options.policiesDir),
              // The feedback copies the questions and the answer: it goes with the turns.
              history: sweptTogether(history, feedback),
              // One context replica sweeps at a time. Embedded: one process, and PGlite serves one connection
              // at a time (a lock held on one would starve the sweep's own statements).
              lock: infra.embedded ? undefined : postgresJobLock(requireDatabase(infra), 'retention-sweep'),
              onSwept: (r) => {
                if (r.deleted || r.truncated) log.info({ ...r }, 'retention sweep deleted old conversation turns');
              },
              onError: (e) => log.warn({ error: (e as Error)?.message }, 'retention sweep failed'),
            }),
        },
        {
          provide: ContextManager,
          inject: [CONTEXT_STORE, HISTORY_STORE],
          useFactory: (store: ContextStore, history: HistoryStore) => {
            // Policy loaded once, here: a bad context.yaml stops the service naming file and field.
            const policy = loadContextPolicy(options.policiesDir);
            const extractive = new ExtractiveSummarizer();
            const llm = createLlmClient(infra.env.openai, infra.metrics?.llmUsage('context') ?? null);
            const summarizer: Summarizer = llm
              ? new LlmSummarizer(llm, extractive, policy.memory.summary_timeout_ms, (what, e) =>
                  log.warn({ what, error: (e as Error)?.message }, 'LLM summary failed, extractive fallback used'),
                )
              : extractive;
            return new ContextManager({
              policy,
              store,
              history,
              summarizer,
              onError: (what, e) => log.warn({ error: (e as Error)?.message }, `${what} failed`),
            });
          },
        },
        RetentionJob,
      ],
      controllers: [ContextHandlers],
    };
  }
}
