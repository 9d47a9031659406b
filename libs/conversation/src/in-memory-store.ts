import type { LastReference, Turn } from '@cota/contracts';
import {
  ClosedTurn,
  ContextSnapshot,
  ContextStore,
  ConversationKey,
  foldingTurns,
  HistoryStore,
  HotLimits,
  HotSeed,
  IndexedTurn,
  MemorySummary,
  OpenedTurn,
  UnknownTurnError,
} from './store';

interface Conversation {
  turnCount: number;
  turns: IndexedTurn[];
  reference: LastReference | null;
  summary: MemorySummary | null;
  expiresAt: number;
}

const keyOf = (k: ConversationKey) => JSON.stringify([k.clientId, k.conversationId]);
const clone = <T>(v: T): T => structuredClone(v);

/** A private, deeply frozen copy: stored once, then handed to every reader without copying again. */
function frozenCopy<T>(v: T): T {
  const freeze = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || Object.isFrozen(x)) return;
    Object.freeze(x);
    for (const child of Object.values(x)) freeze(child);
  };
  const copy = structuredClone(v);
  freeze(copy);
  return copy;
}

const newest = <T>(list: T[], n: number | undefined): T[] => (n !== undefined && n > 0 ? list.slice(-n) : list.slice());

/**
 * Hot state in this process's memory: embedded mode only (one process, so JavaScript's
 * single thread already makes each method atomic). Same semantics as RedisContextStore.
 * Stored values are frozen copies, so reads share them instead of cloning the conversation.
 */
export class InMemoryContextStore implements ContextStore {
  private readonly conversations = new Map<string, Conversation>();
  private readonly sessions = new Map<string, Map<string, { value: unknown; expiresAt: number }>>();
  /** Cleared conversations, until their hot state would have expired: a seed brings back the numbering only. */
  private readonly cleared = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private live(key: ConversationKey): Conversation | undefined {
    const k = keyOf(key);
    const c = this.conversations.get(k);
    if (c && c.expiresAt <= this.now()) {
      this.conversations.delete(k);
      return undefined;
    }
    return c;
  }

  async openTurn(key: ConversationKey, turn: Turn, seed: HotSeed | null, limits: HotLimits): Promise<OpenedTurn | null> {
    let c = this.live(key);
    if (!c) {
      if (seed === null) return null;
      c = this.seeded(key, seed, limits);
      this.conversations.set(keyOf(key), c);
    }
    const previous = newest(c.turns, limits.previousTurns);
    c.turnCount += 1;
    c.turns.push(frozenCopy({ turnIndex: c.turnCount, turn }));
    if (c.turns.length > limits.keepTurns) c.turns.splice(0, c.turns.length - limits.keepTurns);
    c.expiresAt = this.now() + limits.stateTtlSeconds * 1000;
    return { turnIndex: c.turnCount, previous, reference: c.reference, summary: c.summary };
  }

  private seeded(key: ConversationKey, seed: HotSeed, limits: HotLimits): Conversation {
    const k = keyOf(key);
    const clearedUntil = this.cleared.get(k);
    this.cleared.delete(k);
    const empty = { turnCount: seed.turnCount, turns: [], reference: null, summary: null, expiresAt: 0 };
    if (clearedUntil !== undefined && clearedUntil > this.now()) return empty;
    const turns = (seed.turns ?? []).slice(-limits.keepTurns).map((t) => frozenCopy(t));
    return { ...empty, turns, reference: seed.reference ? frozenCopy(seed.reference) : null };
  }

  async closeTurn(key: ConversationKey, turnIndex: number, turn: Turn, reference: LastReference | null, limits: HotLimits): Promise<ClosedTurn> {
    const c = this.live(key);
    if (!c) return { known: false, referenceUpdated: false, unsummarised: 0 };
    if (turnIndex > c.turnCount) throw new UnknownTurnError(turnIndex, c.turnCount);
    const unsummarised = c.turnCount - (c.summary?.through ?? 0);
    // A retried commit (its first reply was lost) closes the turn once: the answer is kept once.
    if (c.turns.some((t) => t.turnIndex === turnIndex && t.turn.role === 'assistant')) return { known: true, referenceUpdated: false, unsummarised };
    c.turns.push(frozenCopy({ turnIndex, turn }));
    if (c.turns.length > limits.keepTurns) c.turns.splice(0, c.turns.length - limits.keepTurns);
    let referenceUpdated = false;
    if (reference && (!c.reference || c.reference.turn_index <= reference.turn_index)) {
      c.reference = frozenCopy(reference);
      referenceUpdated = true;
    }
    c.expiresAt = this.now() + limits.stateTtlSeconds * 1000;
    if (limits.foldAfter === undefined || unsummarised <= limits.foldAfter) return { known: true, referenceUpdated, unsummarised };
    const forFolding = { turnCount: c.turnCount, reference: c.reference, turns: newest(c.turns, foldingTurns(unsummarised)), summary: c.summary };
    return { known: true, referenceUpdated, unsummarised, forFolding };
  }

  async snapshot(key: ConversationKey, lastTurns?: number): Promise<ContextSnapshot> {
    const c = this.live(key);
    if (!c) return { turnCount: 0, reference: null, turns: [], summary: null };
    return { turnCount: c.turnCount, reference: c.reference, turns: newest(c.turns, lastTurns), summary: c.summary };
  }

  async saveSummary(key: ConversationKey, expectedThrough: number, next: MemorySummary): Promise<boolean> {
    const c = this.live(key);
    if (!c || (c.summary?.through ?? 0) !== expectedThrough) return false;
    c.summary = frozenCopy(next);
    return true;
  }

  async clear(key: ConversationKey): Promise<boolean> {
    const k = keyOf(key);
    const c = this.live(key);
    const had = c !== undefined || (this.sessions.get(k)?.size ?? 0) > 0;
    if (c) this.cleared.set(k, c.expiresAt);
    this.conversations.delete(k);
    this.sessions.delete(k);
    return had;
  }

  async sessionGet(key: ConversationKey, names: string[] | undefined, nowMs: number): Promise<Record<string, unknown>> {
    const s = this.sessions.get(keyOf(key));
    const out: Record<string, unknown> = {};
    if (!s) return out;
    for (const [name, entry] of [...s.entries()]) {
      if (entry.expiresAt <= nowMs) {
        s.delete(name);
        continue;
      }
      if (!names || names.includes(name)) out[name] = clone(entry.value);
    }
    return out;
  }

  async eraseClient(clientId: string): Promise<number> {
    let erased = 0;
    for (const map of [this.conversations, this.sessions, this.cleared] as Array<Map<string, unknown>>) {
      for (const k of [...map.keys()]) {
        if ((JSON.parse(k) as [string, string])[0] !== clientId) continue;
        map.delete(k);
        erased++;
      }
    }
    return erased;
  }

  async sessionSet(key: ConversationKey, name: string, value: unknown, ttlSeconds: number, nowMs: number): Promise<void> {
    const k = keyOf(key);
    if (value === null || value === undefined) {
      this.sessions.get(k)?.delete(name);
      return;
    }
    const s = this.sessions.get(k) ?? new Map();
    s.set(name, { value: clone(value), expiresAt: nowMs + ttlSeconds * 1000 });
    this.sessions.set(k, s);
  }
}

/** Durable history kept in memory: for unit tests and benchmarks (services use PostgresHistoryStore). */
export class InMemoryHistoryStore implements HistoryStore {
  private readonly rows = new Map<string, IndexedTurn[]>();

  async append(key: ConversationKey, turnIndex: number, turn: Turn): Promise<void> {
    const k = keyOf(key);
    this.rows.set(k, [...(this.rows.get(k) ?? []), { turnIndex, turn: clone(turn) }]);
  }

  async list(key: ConversationKey, limit: number): Promise<Turn[]> {
    const rows = this.ordered(key);
    const answered = new Set(rows.filter((r) => r.turn.role === 'assistant').map((r) => r.turnIndex));
    const visible = rows.filter((r) => !(r.turn.role === 'user' && r.turn.meta.unanswered === true && !answered.has(r.turnIndex)));
    return visible.slice(-limit).map((r) => clone(r.turn));
  }

  async recent(key: ConversationKey, limit: number): Promise<IndexedTurn[]> {
    return this.ordered(key)
      .slice(-limit)
      .map((r) => clone({ turnIndex: r.turnIndex, turn: r.turn }));
  }

  async markUnanswered(key: ConversationKey, turnIndexes: number[]): Promise<void> {
    const rows = this.rows.get(keyOf(key)) ?? [];
    const answered = new Set(rows.filter((r) => r.turn.role === 'assistant').map((r) => r.turnIndex));
    for (const r of rows) {
      if (r.turn.role === 'user' && turnIndexes.includes(r.turnIndex) && !answered.has(r.turnIndex)) r.turn = { ...r.turn, meta: { ...r.turn.meta, unanswered: true } };
    }
  }

  /** Turn order, then append order within a turn. */
  private ordered(key: ConversationKey): IndexedTurn[] {
    const rows = [...(this.rows.get(keyOf(key)) ?? [])].map((r, seq) => ({ ...r, seq }));
    rows.sort((a, b) => a.turnIndex - b.turnIndex || a.seq - b.seq);
    return rows;
  }

  async lastTurnIndex(key: ConversationKey): Promise<number> {
    return Math.max(0, ...(this.rows.get(keyOf(key)) ?? []).map((r) => r.turnIndex));
  }

  async eraseClient(clientId: string): Promise<number> {
    let erased = 0;
    for (const [k, rows] of [...this.rows.entries()]) {
      if ((JSON.parse(k) as [string, string])[0] !== clientId) continue;
      erased += rows.length;
      this.rows.delete(k);
    }
    return erased;
  }

  async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
    let erased = 0;
    for (const [k, rows] of this.rows.entries()) {
      const kept: IndexedTurn[] = [];
      for (const r of rows) {
        if (erased < limit && Date.parse(r.turn.created_at) < cutoff.getTime()) erased++;
        else kept.push(r);
      }
      this.rows.set(k, kept);
    }
    return erased;
  }
}
