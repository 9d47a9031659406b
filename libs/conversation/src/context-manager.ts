import { ContextSubjects, CotaError, RequestOf, ResponseOf, Turn } from '@cota/contracts';
import { ContextPolicy, referenceFromCommit, scopeAllowsEntity, turnLeftBehind } from '@cota/dialogue';
import { conversationState } from './conversation-state';
import { forHotState, seedFromHistory } from './hot-seed';
import { buildNarratorMemory, countWords, cyclesToSummarise, fitChars, loadRecent, unansweredQuestions } from './memory';
import { ContextSnapshot, ContextStore, ConversationKey, foldingTurns, HistoryStore, HotLimits, OpenedTurn, UnknownTurnError } from './store';
import { Summarizer } from './summarizer';

export type OpenRequest = RequestOf<typeof ContextSubjects.open>;
export type OpenResponse = ResponseOf<typeof ContextSubjects.open>;
export type CommitRequest = RequestOf<typeof ContextSubjects.commit>;
export type CommitResponse = ResponseOf<typeof ContextSubjects.commit>;
export type HistoryRequest = RequestOf<typeof ContextSubjects.history>;
export type HistoryResponse = ResponseOf<typeof ContextSubjects.history>;
export type DebugResponse = ResponseOf<typeof ContextSubjects.debug>;
export type ClearResponse = ResponseOf<typeof ContextSubjects.clear>;
export type SessionGetRequest = RequestOf<typeof ContextSubjects.sessionGet>;
export type SessionSetRequest = RequestOf<typeof ContextSubjects.sessionSet>;
export type WireConversationKey = { client_id: string; conversation_id: string };

export interface ContextManagerDeps {
  policy: ContextPolicy;
  store: ContextStore;
  history: HistoryStore;
  summarizer: Summarizer;
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: () => number;
  /** Background memory maintenance failures (never fail a request). */
  onError?: (what: string, error: unknown) => void;
}

/** How long a question may wait for its answer before summarisation skips it as abandoned. */
const PENDING_GRACE_MS = 60_000;

/** The session values that describe the conversation's tool calls (kept by the tool gate). */
const TOOL_CALL_KEYS = ['pending_call', 'last_call'];

const keyOf = (k: WireConversationKey): ConversationKey => ({ clientId: k.client_id, conversationId: k.conversation_id });

/**
 * The conversation context: opens and closes turns, decides ticker inheritance (through
 * resolveLastReference only), keeps session values and the narrator's memory. Pure logic over a
 * hot-state store and a durable history store, so every replica sharing them behaves as one.
 */
export class ContextManager {
  private readonly policy: ContextPolicy;
  private readonly store: ContextStore;
  private readonly historyStore: HistoryStore;
  private readonly summarizer: Summarizer;
  private readonly clock: () => number;
  private readonly onError: (what: string, error: unknown) => void;
  private readonly limits: HotLimits;
  private readonly background = new Set<Promise<unknown>>();
  /** Conversations with a summarisation running here (others are skipped: the next commit catches up). */
  private readonly summarising = new Set<string>();
  private readonly rerun = new Set<string>();

  constructor(deps: ContextManagerDeps) {
    this.policy = deps.policy;
    this.store = deps.store;
    this.historyStore = deps.history;
    this.summarizer = deps.summarizer;
    this.clock = deps.clock ?? Date.now;
    this.onError = deps.onError ?? (() => undefined);
    const p = deps.policy;
    // The narrator's memory reads the last recent_cycles cycles within its max_turns; two more turns
    // leave room for a question of a concurrent request interleaved among them.
    const memoryTurns = Math.max(p.narrator.max_turns, 2 * p.memory.recent_cycles) + 2;
    this.limits = {
      keepTurns: p.memory.hot_turns,
      stateTtlSeconds: p.ttl_seconds,
      // ...and the state a follow-up is read against looks back over the context window.
      previousTurns: Math.min(p.memory.hot_turns, Math.max(memoryTurns, p.max_turns)),
      // The commit that makes folding due brings back what folding reads.
      ...(p.enabled ? { foldAfter: p.memory.recent_cycles } : {}),
    };
  }

  /** Opens a turn: numbers it, records the question, hands back what the conversation holds and the narrator's memory. */
  async open(req: OpenRequest): Promise<OpenResponse> {
    const key = keyOf(req);
    const now = this.clock();
    const turn: Turn = { role: 'user', content: req.question, created_at: new Date(now).toISOString(), meta: { request_id: req.request_id } };
    const hot = this.forHotState(turn);
    const [first, session] = await Promise.all([this.store.openTurn(key, hot, null, this.limits), this.store.sessionGet(key, TOOL_CALL_KEYS, now)]);
    const opened = first ?? (await this.openFromHistory(key, hot, now));
    // Earlier questions still without an answer failed (or are still running): recorded, not counted.
    const unanswered = unansweredQuestions(opened.previous, opened.turnIndex);
    await Promise.all([
      this.historyStore.append(key, opened.turnIndex, { ...turn, meta: { ...turn.meta, turn_index: opened.turnIndex } }),
      this.historyStore.markUnanswered(key, unanswered),
    ]);
    const recent = this.policy.enabled ? loadRecent(opened.previous, this.policy, this.policy.max_turns, now) : [];
    return {
      state: conversationState(recent, session, opened.reference, opened.turnIndex, unanswered),
      memory: buildNarratorMemory(opened.previous, opened.summary, this.policy, now),
    };
  }

  /**
   * No hot state (a new, expired or cleared conversation, or one the hot store lost in a restart): the
   * conversation continues from its durable history, with its numbering, recent turns and last reference.
   */
  private async openFromHistory(key: ConversationKey, hot: Turn, now: number): Promise<OpenedTurn> {
    const recorded = await this.historyStore.recent(key, this.limits.keepTurns);
    const opened = await this.store.openTurn(key, hot, seedFromHistory(recorded, this.policy, now), this.limits);
    if (!opened) throw new CotaError('INTERNAL', 'context store did not open the turn');
    return opened;
  }

  /** Closes a turn: records the answer and what the turn leaves behind (decided by the dialogue's rules); only an accepted ok answer about one fund moves the reference. */
  async commit(req: CommitRequest): Promise<CommitResponse> {
    if (req.turn_index < 1) throw new CotaError('BAD_REQUEST', `turn_index must be at least 1, got ${req.turn_index}`);
    const key = keyOf(req);
    const now = this.clock();
    const { reading, outcome } = req;
    const left = turnLeftBehind(reading, outcome, this.policy.entity_classes);
    const turn: Turn = {
      role: 'assistant',
      content: req.answer,
      created_at: new Date(now).toISOString(),
      meta: {
        request_id: req.request_id,
        status: outcome.status,
        intent: reading.intent,
        entity: reading.entity,
        accepted: left.accepted,
        tickers: left.tickers,
        filters: left.filters,
        ...(left.question ? { question: left.question } : {}),
        ...(left.listed.length ? { listed: left.listed } : {}),
        ...(left.params ? { params: left.params } : {}),
        ...(left.answered_date ? { answered_date: left.answered_date } : {}),
        ...(left.also_questions.length ? { also_questions: left.also_questions } : {}),
        ...(outcome.problem ? { problem: outcome.problem } : {}),
        kind: reading.kind,
      },
    };
    const reference = referenceFromCommit(
      this.policy,
      { status: outcome.status, accepted: left.accepted, entity: reading.entity, intent: reading.intent, tickers: left.tickers, turnIndex: req.turn_index },
      new Date(now),
    );
    // The durable history keeps how the turn was read, for audit and "detalhes".
    const read = { context: reading.context ?? null, tickers_in_text: reading.tickers_in_text, ticker: reading.params.ticker };
    const durable = { ...turn, meta: { ...read, ...turn.meta, turn_index: req.turn_index } };
    let closed;
    try {
      closed = await this.store.closeTurn(key, req.turn_index, this.forHotState(turn), reference, this.limits);
    } catch (e) {
      if (e instanceof UnknownTurnError) throw new CotaError('BAD_REQUEST', e.message, { turn_index: req.turn_index });
      // The hot store went down between this turn's resolve and its commit: the answer was given, so the
      // durable history still records it (a turn is never lost); the caller hears the failure.
      await this.historyStore.append(key, req.turn_index, durable).catch(() => undefined);
      throw e;
    }
    await this.historyStore.append(key, req.turn_index, durable);
    // Nothing to fold while every turn since the summary is among the recent cycles kept verbatim
    // (most conversations are short): then the snapshot is not even read.
    if (closed.known && this.policy.enabled && closed.unsummarised > this.policy.memory.recent_cycles) this.scheduleMemoryMaintenance(key, closed.unsummarised, closed.forFolding);
    return { reference_updated: closed.referenceUpdated };
  }

  /** The caller's full durable history (never summarised). */
  async history(req: HistoryRequest): Promise<HistoryResponse> {
    return { conversation_id: req.conversation_id, turns: await this.historyStore.list(keyOf(req), req.limit) };
  }

  /** Recent turns for one consumer's scope (planner or narrator block), or the global window. */
  async loadRecent(k: WireConversationKey, scope?: { name: 'planner' | 'narrator'; entity: string | null }): Promise<Turn[]> {
    if (!this.policy.enabled) return [];
    let maxTurns = this.policy.max_turns;
    if (scope) {
      const block = this.policy[scope.name];
      if (!scopeAllowsEntity(block, scope.entity)) return [];
      maxTurns = Math.min(maxTurns, block.max_turns);
    }
    const snap = await this.store.snapshot(keyOf(k), maxTurns);
    const maxChars = scope?.name === 'narrator' ? this.policy.narrator.max_chars : this.policy.max_chars;
    return fitChars(loadRecent(snap.turns, this.policy, maxTurns, this.clock()), maxChars);
  }

  async debug(k: WireConversationKey): Promise<DebugResponse> {
    const key = keyOf(k);
    const now = this.clock();
    const [snap, session] = await Promise.all([this.store.snapshot(key), this.store.sessionGet(key, undefined, now)]);
    return {
      key: { client_id: k.client_id, conversation_id: k.conversation_id },
      turn_count: snap.turnCount,
      last_reference: snap.reference,
      session,
      recent: loadRecent(snap.turns, this.policy, this.policy.max_turns, now),
      summary: snap.summary?.text ?? null,
    };
  }

  /** Forgets the hot context (reference, recent turns, summary, session); the durable history stays. */
  async clear(k: WireConversationKey): Promise<ClearResponse> {
    return { cleared: await this.store.clear(keyOf(k)) };
  }

  async sessionGet(req: SessionGetRequest): Promise<{ values: Record<string, unknown> }> {
    return { values: await this.store.sessionGet(keyOf(req), req.keys, this.clock()) };
  }

  async sessionSet(req: SessionSetRequest): Promise<{ ok: boolean }> {
    const s = this.policy.session;
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(req.key)) throw new CotaError('BAD_REQUEST', `session key '${req.key}' must be 1-64 of [A-Za-z0-9_.:-]`);
    const ttl = req.ttl_seconds ?? s.keys[req.key]?.ttl_seconds ?? s.default_ttl_seconds;
    if (ttl > s.max_ttl_seconds) throw new CotaError('BAD_REQUEST', `ttl_seconds ${ttl} exceeds the policy maximum ${s.max_ttl_seconds}`);
    if (req.value !== null && req.value !== undefined) {
      const size = Buffer.byteLength(JSON.stringify(req.value), 'utf8');
      if (size > s.max_value_bytes) throw new CotaError('BAD_REQUEST', `session value of ${size} bytes exceeds ${s.max_value_bytes}`);
    }
    await this.store.sessionSet(keyOf(req), req.key, req.value ?? null, ttl, this.clock());
    return { ok: true };
  }

  /**
   * Folds cycles older than the verbatim window into the summary and compresses it past the word
   * budget (seed 004). Compare-and-set on the store: if another replica got there first, nothing is
   * written and its summary stands. Returns true when a new summary was saved.
   */
  async maintainMemory(key: ConversationKey, unsummarised?: number, read?: ContextSnapshot): Promise<boolean> {
    const m = this.policy.memory;
    const snap = await this.unsummarisedTurns(key, unsummarised, read);
    const through = snap.summary?.through ?? 0;
    const cycles = cyclesToSummarise(snap.turns, through, m.recent_cycles, this.clock(), PENDING_GRACE_MS);
    if (cycles.length === 0) return false;
    const added = await this.summarizer.summarizeCycles(cycles);
    let text = [snap.summary?.text, added].filter((t) => t && t.trim()).join('\n');
    if (countWords(text) >= m.word_budget * m.compress_at_ratio) text = await this.summarizer.compress(text, m.compress_target_words);
    const next = { text, through: Math.max(...cycles.map((c) => c.turnIndex)) };
    return this.store.saveSummary(key, through, next, this.limits);
  }

  /**
   * The hot state with every question the summary has not folded: a commit knows how many questions
   * that is, each has at most two turns, so only the newest turns are read. When a question's turn is
   * missing from them (more arrived meanwhile, or a late answer took its place), the whole list is read:
   * a cycle is never folded without its question. `read`: those newest turns as the commit brought them back.
   */
  private async unsummarisedTurns(key: ConversationKey, unsummarised: number | undefined, read?: ContextSnapshot): Promise<ContextSnapshot> {
    if (unsummarised === undefined) return this.store.snapshot(key);
    const want = foldingTurns(unsummarised);
    const snap = read ?? (await this.store.snapshot(key, want));
    if (snap.turns.length < want) return snap; // the whole list
    const asked = new Set(snap.turns.filter((t) => t.turn.role === 'user').map((t) => t.turnIndex));
    for (let i = (snap.summary?.through ?? 0) + 1; i <= snap.turnCount; i++) if (!asked.has(i)) return this.store.snapshot(key);
    return snap;
  }

  /** Waits for background memory work (service shutdown, tests). */
  async drain(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  private forHotState(turn: Turn): Turn {
    return forHotState(turn, this.policy.max_chars);
  }

  private scheduleMemoryMaintenance(key: ConversationKey, unsummarised: number, read?: ContextSnapshot): void {
    const id = JSON.stringify([key.clientId, key.conversationId]);
    if (this.summarising.has(id)) {
      // One run per conversation at a time; the running one goes again for what arrived meanwhile.
      this.rerun.add(id);
      return;
    }
    this.summarising.add(id);
    const work = (async () => {
      // The commit's read serves the first run; a rerun reads what arrived meanwhile.
      let given = read;
      do {
        this.rerun.delete(id);
        await this.maintainMemory(key, unsummarised, given).catch((e) => this.onError('memory maintenance', e));
        given = undefined;
      } while (this.rerun.has(id));
    })().finally(() => {
      this.summarising.delete(id);
      this.background.delete(work);
    });
    this.background.add(work);
  }
}
