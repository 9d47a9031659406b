import type { ErasedStore } from '@cota/contracts';
import { PostgresConversationDirectory } from './conversation-directory';
import { PostgresFeedbackStore } from './feedback';
import { ContextStore, HistoryStore } from './store';

/**
 * The context service's part of a client erasure: the hot state of every conversation (Redis, or
 * memory in embedded mode) and the durable turns (conversation_turns). Hot state goes first, so a
 * conversation cannot be re-seeded from turns that are about to go; then the titles and the
 * feedback (answer_feedback) the client gave. Idempotent.
 */
export async function eraseConversationData(
  deps: { store: ContextStore; history: HistoryStore; directory: PostgresConversationDirectory; feedback: PostgresFeedbackStore; hotBackend: 'redis' | 'memory' },
  clientId: string,
): Promise<ErasedStore[]> {
  const hot = await deps.store.eraseClient(clientId);
  const turns = await deps.history.eraseClient(clientId);
  const titles = await deps.directory.eraseClient(clientId);
  const feedback = await deps.feedback.eraseClient(clientId);
  return [
    { service: 'context', store: 'conversation_hot_state', backend: deps.hotBackend, count: hot },
    { service: 'context', store: 'conversation_turns', backend: 'postgres', count: turns },
    { service: 'context', store: 'conversation_titles', backend: 'postgres', count: titles },
    { service: 'context', store: 'answer_feedback', backend: 'postgres', count: feedback },
  ];
}
