/**
 * What the page reads from POST /ask (/ask/stream's `answer` event): the contract's
 * {status, results, meta, answer}. Typed loosely on purpose: every field the page uses is
 * optional, so an older or newer gateway never breaks the page (it just shows less).
 */
import type { Unit } from './format';

export type AskStatus = 'ok' | 'needs_clarification' | 'confirmation_required' | 'error';

export interface Subject {
  kind: string;
  id: string;
}

export interface PeriodSpec {
  kind: string;
  from?: string;
  to?: string;
  grain?: string;
  unit?: string;
  n?: number;
  offset?: number;
  from_month?: number;
  to_month?: number;
  day?: number;
  month?: number | null;
}

export interface StructuredQuestion {
  subjects?: Subject[];
  measure?: string | null;
  agg?: string | null;
  also?: string[];
  period?: PeriodSpec | null;
  group_by?: 'day' | 'month' | 'year' | null;
  compare?: 'max' | 'min' | null;
  condition?: { op: 'gt' | 'lt'; value: number } | null;
}

export interface PlannerCandidate {
  entity: string;
  score: number;
  signals?: string[];
  label?: string;
}

export interface AskMeta {
  request_id?: string;
  intent?: string;
  entity?: string | null;
  params?: Record<string, unknown>;
  context?: { last_reference_used?: boolean; reason?: string; turn_index?: number; committed?: boolean };
  planner?: {
    kind?: string;
    normalized?: string;
    score?: number;
    gap?: number;
    accepted?: boolean;
    thresholds?: { min_score?: number; min_gap?: number };
    candidates?: PlannerCandidate[];
    llm_used?: boolean;
    reason?: string;
    question?: StructuredQuestion | null;
    follow_up?: { applied?: boolean; inherited?: string[]; changed?: string[]; reason?: string } | null;
  };
  tool?: { name: string; args?: Record<string, unknown>; injected?: Array<{ arg: string; value: unknown; source: string }>; status: string };
  rag?: {
    enabled?: boolean;
    reason?: string;
    used_collections?: string[];
    chunks?: Array<{ text: string; score: number; doc_id?: string; chunk_id?: string; collection?: string; source_id?: string | null }>;
    total_chunks?: number;
    error?: string | null;
  };
  narrator?: { llm_used?: boolean; reason?: string; model?: string | null; latency_ms?: number };
  timings_ms?: Record<string, number>;
}

export interface AskReply {
  status: AskStatus;
  results: Record<string, unknown>;
  meta: AskMeta;
  answer: string;
}

/** One subject's answer to a structured question (results.<entity>[i] of a measure answer). */
export interface MeasureValueLike {
  subject: Subject;
  value: number | null;
  date?: string | null;
  start?: { date: string; value: number } | null;
  end?: { date: string; value: number } | null;
  unit?: Unit | null;
  measure?: string | null;
  grain?: 'day' | 'month' | null;
  rows?: Array<{ date: string; value: number }>;
  period?: { from: string; to: string } | null;
}

/** The measure catalog as the page knows it (built from policies/measures.yaml). */
export interface MeasureInfo {
  unit: Unit;
  label: string;
  kind?: string;
  /** Which value wins a comparison: the higher, the lower, or none. */
  better?: 'higher' | 'lower' | 'none';
}
export type MeasureCatalog = Record<string, MeasureInfo>;

/** Each entity's class as the page knows it (built from policies/entities/*.yaml). */
export type EntityClasses = Record<string, 'fund' | 'market' | 'client'>;

export function isMeasureValue(x: unknown): x is MeasureValueLike {
  if (!x || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return !!o.subject && typeof o.subject === 'object' && 'value' in o && (o.rows === undefined || Array.isArray(o.rows));
}

/** The measure answer's values (results.<entity> is a list of them), or null for entity rows. */
export function measureValues(reply: Pick<AskReply, 'results' | 'meta'>): MeasureValueLike[] | null {
  const key = reply.meta?.entity && reply.results?.[reply.meta.entity] ? reply.meta.entity : Object.keys(reply.results ?? {})[0];
  const list = key ? reply.results[key] : null;
  if (!Array.isArray(list) || !list.length || !list.every(isMeasureValue)) return null;
  return list as MeasureValueLike[];
}

/** Entity rows (results.<entity> is a list of plain records), or null. */
export function entityRows(reply: Pick<AskReply, 'results' | 'meta'>): { entity: string; rows: Array<Record<string, unknown>> } | null {
  const key = reply.meta?.entity && reply.results?.[reply.meta.entity] ? reply.meta.entity : Object.keys(reply.results ?? {})[0];
  const list = key ? reply.results[key] : null;
  if (!key || !Array.isArray(list) || !list.length) return null;
  if (list.some((r) => !r || typeof r !== 'object' || Array.isArray(r) || isMeasureValue(r))) return null;
  return { entity: key, rows: list as Array<Record<string, unknown>> };
}

/** A turn of GET /conversations/:id/history: the question or the answer, with what the server recorded of it. */
export interface HistoryTurn {
  role: 'user' | 'assistant' | 'system';
  content: string;
  created_at: string;
  meta?: {
    request_id?: string;
    turn_index?: number;
    status?: AskStatus;
    entity?: string | null;
    kind?: string;
    tickers?: string[];
    question?: StructuredQuestion | null;
  };
}

/** One entry of GET /conversations. */
export interface ConversationSummary {
  id: string;
  title: string;
  last_activity: string;
  questions: number;
}

export interface ConversationPage {
  conversations: ConversationSummary[];
  next_cursor: string | null;
}
