import type { LastReference, Turn } from '@cota/contracts';

/** One conversation: context never crosses either id. */
export interface ConversationKey {
  clientId: string;
  conversationId: string;
}

/** A turn as hot state keeps it: the turn plus the question number it belongs to. */
export interface IndexedTurn {
  turnIndex: number;
  turn: Turn;
}

/** Older cycles folded into text; `through` is the last turn index the summary covers. */
export interface MemorySummary {
  text: string;
  through: number;
}

export interface HotLimits {
  /** Turns kept in the hot list (oldest dropped first). */
  keepTurns: number;
  /** Idle expiry of the conversation's hot state. */
  stateTtlSeconds: number;
  /**
   * How many of the newest turns openTurn hands back (all when unset): the narrator's memory never
   * reads more, and decoding the whole hot list on every question was most of a long conversation's cost.
   */
  previousTurns?: number;
  /**
   * When more questions than this are unsummarised, closeTurn also hands back what memory folding
   * reads (`foldingTurns` of the newest turns and the summary), saving the store a second round trip.
   */
  foldAfter?: number;
}

/** The newest turns memory folding reads: each unsummarised question has at most two, plus one pair of slack. */
export const FOLDING_WINDOW = { turnsPerQuestion: 2, slack: 2 } as const;

export function foldingTurns(unsummarised: number): number {
  return FOLDING_WINDOW.turnsPerQuestion * unsummarised + FOLDING_WINDOW.slack;
}

/**
 * What a conversation's hot state starts from when it has none (new, expired, cleared, or lost with
 * the hot store): the numbering, and the recent turns and last reference rebuilt from the durable
 * history. A cleared conversation takes the numbering only (clear forgets the rest).
 */
export interface HotSeed {
  turnCount: number;
  /** Oldest first. */
  turns?: IndexedTurn[];
  reference?: LastReference | null;
}

export interface OpenedTurn {
  turnIndex: number;
  /** Hot turns as they were before this question was appended. */
  previous: IndexedTurn[];
  reference: LastReference | null;
  summary: MemorySummary | null;
}

export interface ClosedTurn {
  /** False when the conversation's hot state was gone (expired or cleared) before the answer arrived. */
  known: boolean;
  referenceUpdated: boolean;
  /** Turns opened since the last one the summary folded (turn count − summary through): 0 when unknown. */
  unsummarised: number;
  /** With `limits.foldAfter`, when folding is due: the hot state after this answer, newest `foldingTurns(unsummarised)` turns. */
  forFolding?: ContextSnapshot;
}

export interface ContextSnapshot {
  turnCount: number;
  reference: LastReference | null;
  turns: IndexedTurn[];
  summary: MemorySummary | null;
}

/**
 * Hot conversation state. Every method is atomic for one conversation, so replicas and concurrent
 * requests on the same conversation never lose a turn or a counter increment.
 */
export interface ContextStore {
  /**
   * Assigns the next turn index and appends the user turn, atomically. When the conversation has no
   * hot state and `seed` is null, returns null so the caller can seed it from the durable history
   * (keeps numbering continuous after expiry or clear, and the conversation after a lost hot store).
   */
  openTurn(key: ConversationKey, turn: Turn, seed: HotSeed | null, limits: HotLimits): Promise<OpenedTurn | null>;
  /**
   * Appends the answer and, when `reference` is given, stores it unless a newer turn already did
   * (a late answer never overwrites a newer reference). Throws when turnIndex was never opened.
   */
  closeTurn(key: ConversationKey, turnIndex: number, turn: Turn, reference: LastReference | null, limits: HotLimits): Promise<ClosedTurn>;
  /** The conversation's hot state; with `lastTurns`, only that many of the newest turns. */
  snapshot(key: ConversationKey, lastTurns?: number): Promise<ContextSnapshot>;
  /** Compare-and-set of the summary: writes only if the stored `through` still equals `expectedThrough`. */
  saveSummary(key: ConversationKey, expectedThrough: number, next: MemorySummary, limits: HotLimits): Promise<boolean>;
  /**
   * Drops the conversation's hot state and session values; true when there was something. The hot
   * state remembers it was cleared (until it would have expired), so the next seed keeps only the numbering.
   */
  clear(key: ConversationKey): Promise<boolean>;
  /** Session values that have not expired (all, or only `names`). */
  sessionGet(key: ConversationKey, names: string[] | undefined, nowMs: number): Promise<Record<string, unknown>>;
  /** Sets (or, with value null, deletes) one session value expiring at nowMs + ttlSeconds. */
  sessionSet(key: ConversationKey, name: string, value: unknown, ttlSeconds: number, nowMs: number): Promise<void>;
  /**
   * Erasure: drops the hot state and session values of every conversation of one client (and of no
   * other client). Returns how many stored items went (Redis keys, or in-memory conversations and
   * sessions); 0 when there was nothing, so repeating it is harmless.
   */
  eraseClient(clientId: string): Promise<number>;
}

/** Durable full history (Postgres; never summarised; trimmed only by policies/retention.yaml and by erasure). */
export interface HistoryStore {
  append(key: ConversationKey, turnIndex: number, turn: Turn): Promise<void>;
  /** The last `limit` visible turns, oldest first: a question marked unanswered whose answer never came is left out. */
  list(key: ConversationKey, limit: number): Promise<Turn[]>;
  /** The last `limit` turns as recorded (unanswered questions included), oldest first, to rebuild the hot state. */
  recent(key: ConversationKey, limit: number): Promise<IndexedTurn[]>;
  /**
   * Marks these questions unanswered (`meta.unanswered`): their answer had not arrived when a later
   * question opened (a 5xx or a timeout). They stay for audit; `list` leaves them out unless their answer lands after all.
   */
  markUnanswered(key: ConversationKey, turnIndexes: number[]): Promise<void>;
  /** Highest turn index recorded, 0 for a new conversation. */
  lastTurnIndex(key: ConversationKey): Promise<number>;
  /** Erasure: deletes every turn of one client, in every conversation; returns how many. */
  eraseClient(clientId: string): Promise<number>;
  /** Retention: deletes at most `limit` turns created before `cutoff` (any client); returns how many. */
  deleteOlderThan(cutoff: Date, limit: number): Promise<number>;
}

/** Raised by stores when a commit names a turn that was never opened. */
export class UnknownTurnError extends Error {
  constructor(
    readonly turnIndex: number,
    readonly turnCount: number,
  ) {
    super(`turn ${turnIndex} was never opened (the conversation has ${turnCount})`);
    this.name = 'UnknownTurnError';
  }
}
