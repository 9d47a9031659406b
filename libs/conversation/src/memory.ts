import type { NarratorMemory, Turn } from '@cota/contracts';
import { ContextPolicy } from '@cota/dialogue';
import { IndexedTurn, MemorySummary } from './store';

/** A cycle (seed 004): one question and its answer, identified by the question's turn index. */
export interface Cycle {
  turnIndex: number;
  user: Turn | null;
  assistant: Turn | null;
}

export const isComplete = (c: Cycle): c is Cycle & { user: Turn; assistant: Turn } => c.user !== null && c.assistant !== null;

/** Groups hot turns into cycles by turn index (concurrent requests interleave in the list). */
export function groupCycles(turns: IndexedTurn[]): Cycle[] {
  const byIndex = new Map<number, Cycle>();
  for (const { turnIndex, turn } of turns) {
    const c = byIndex.get(turnIndex) ?? { turnIndex, user: null, assistant: null };
    if (turn.role === 'user') c.user = turn;
    else if (turn.role === 'assistant') c.assistant = turn;
    byIndex.set(turnIndex, c);
  }
  return [...byIndex.values()].sort((a, b) => a.turnIndex - b.turnIndex);
}

/** The questions before `turnIndex` among these turns whose answer has not arrived (failed, timed out, or still running). */
export function unansweredQuestions(turns: IndexedTurn[], turnIndex: number): number[] {
  return groupCycles(turns)
    .filter((c) => c.user !== null && c.assistant === null && c.turnIndex < turnIndex)
    .map((c) => c.turnIndex);
}

export function countWords(text: string): number {
  const m = text.trim().match(/\S+/g);
  return m ? m.length : 0;
}

/** The turn as consumers see it: meta carries the question number it belongs to. */
export function withTurnIndex({ turnIndex, turn }: IndexedTurn): Turn {
  return { ...turn, meta: { ...turn.meta, turn_index: turnIndex } };
}

/** Turns still recent by the context TTL. */
export function freshTurns(turns: IndexedTurn[], ttlSeconds: number, nowMs: number): IndexedTurn[] {
  const oldest = nowMs - ttlSeconds * 1000;
  return turns.filter((t) => Date.parse(t.turn.created_at) >= oldest);
}

/** load_recent (seed M13): TTL first, then the last `maxTurns`. */
export function loadRecent(turns: IndexedTurn[], policy: Pick<ContextPolicy, 'ttl_seconds'>, maxTurns: number, nowMs: number): Turn[] {
  if (maxTurns <= 0) return [];
  return freshTurns(turns, policy.ttl_seconds, nowMs).slice(-maxTurns).map(withTurnIndex);
}

/** Drops the oldest turns until the total fits `maxChars` (a single oversized turn is cut at the end). */
export function fitChars(turns: Turn[], maxChars: number): Turn[] {
  const out = [...turns];
  let total = out.reduce((n, t) => n + t.content.length, 0);
  while (out.length > 1 && total > maxChars) total -= out.shift()!.content.length;
  if (out.length === 1 && out[0].content.length > maxChars) out[0] = { ...out[0], content: out[0].content.slice(0, Math.max(0, maxChars - 1)) + '…' };
  return out;
}

/**
 * Memory handed to the narrator with one question: the last complete cycles verbatim (bounded by the
 * narrator block's max_turns and max_chars, and the context TTL) plus the summary of older cycles.
 * Empty when the policy gives the narrator no history; which answers may use it is the narrator's
 * scope, applied by the narrator once the turn's entity is known.
 */
export function buildNarratorMemory(previous: IndexedTurn[], summary: MemorySummary | null, policy: ContextPolicy, nowMs: number): NarratorMemory {
  const n = policy.narrator;
  if (!policy.enabled || !n.inject_history || !n.enabled) return { recent: [], summary: null };
  const cycles = groupCycles(freshTurns(previous, policy.ttl_seconds, nowMs)).filter(isComplete);
  const recentCycles = policy.memory.recent_cycles > 0 ? cycles.slice(-policy.memory.recent_cycles) : [];
  const turns = recentCycles.flatMap((c) => [withTurnIndex({ turnIndex: c.turnIndex, turn: c.user }), withTurnIndex({ turnIndex: c.turnIndex, turn: c.assistant })]);
  const bounded = n.max_turns > 0 ? turns.slice(-n.max_turns) : [];
  return { recent: fitChars(bounded, n.max_chars), summary: summary?.text ? summary.text : null };
}

/** Cycles ready to be folded into the summary: complete, older than the verbatim window, in order. */
export function cyclesToSummarise(turns: IndexedTurn[], summarisedThrough: number, recentCycles: number, nowMs: number, pendingGraceMs: number): Cycle[] {
  const cycles = groupCycles(turns).filter((c) => c.turnIndex > summarisedThrough);
  const complete = cycles.filter(isComplete);
  const keepVerbatim = new Set(complete.slice(complete.length - Math.min(recentCycles, complete.length)).map((c) => c.turnIndex));
  const out: Cycle[] = [];
  for (const c of cycles) {
    if (keepVerbatim.has(c.turnIndex)) break;
    if (!isComplete(c)) {
      // A question still waiting for its answer blocks folding past it (its answer may come);
      // one abandoned longer than the grace period (a failed request) is skipped.
      const asked = c.user ? Date.parse(c.user.created_at) : 0;
      if (nowMs - asked < pendingGraceMs) break;
      continue;
    }
    out.push(c);
  }
  return out;
}
