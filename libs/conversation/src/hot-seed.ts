import type { LastReference } from '@cota/contracts';
import { ContextPolicy, referenceFromCommit } from '@cota/dialogue';
import { freshTurns } from './memory';
import { HotSeed, IndexedTurn } from './store';

const tickersOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : []);

/**
 * The last reference the recorded answers left: the newest answer that set one under the dialogue's
 * rule (an accepted ok answer about one fund of an allowed entity; other answers leave it as it was).
 */
function referenceLeftBy(turns: IndexedTurn[], policy: ContextPolicy): LastReference | null {
  for (const { turnIndex, turn } of [...turns].reverse()) {
    if (turn.role !== 'assistant') continue;
    const m = turn.meta;
    const outcome = {
      // Only an ok answer sets a reference; what else it was does not matter here.
      status: m.status === 'ok' ? ('ok' as const) : ('error' as const),
      accepted: m.accepted === true,
      entity: typeof m.entity === 'string' ? m.entity : null,
      intent: typeof m.intent === 'string' ? m.intent : '',
      tickers: tickersOf(m.tickers),
      turnIndex,
    };
    const reference = referenceFromCommit(policy, outcome, new Date(turn.created_at));
    if (reference) return reference;
  }
  return null;
}

/**
 * The hot state a conversation starts from when it has none, rebuilt from its durable history (oldest
 * first): the numbering, the turns the hot state would still hold (within the context TTL, each cut to
 * `max_chars` as hot state keeps it) and the last reference they left. A conversation idle past the TTL
 * therefore starts with nothing but its numbering, as it did when its hot state expired.
 */
export function seedFromHistory(recorded: IndexedTurn[], policy: ContextPolicy, nowMs: number): HotSeed {
  const turnCount = Math.max(0, ...recorded.map((t) => t.turnIndex));
  const fresh = freshTurns(recorded, policy.ttl_seconds, nowMs).map(({ turnIndex, turn }) => ({ turnIndex, turn: forHotState(turn, policy.max_chars) }));
  return { turnCount, turns: fresh, reference: referenceLeftBy(fresh, policy) };
}

/** Hot state feeds prompts, so a turn is kept there within max_chars; the durable history keeps it whole. */
export function forHotState<T extends { content: string }>(turn: T, maxChars: number): T {
  return turn.content.length <= maxChars ? turn : { ...turn, content: turn.content.slice(0, maxChars - 1) + '…' };
}
