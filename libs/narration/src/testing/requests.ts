import type { NarrateRequest, QueryResult, Turn } from '@cota/contracts';

/** Test support: a NarrateRequest with sensible defaults, as the gateway would send it. */
export function narrateRequest(over: Partial<NarrateRequest> & { question: string }): NarrateRequest {
  const data: QueryResult | null = over.data ?? null;
  return {
    request_id: 'req-test',
    nickname: '',
    plan: null,
    status: 'ok',
    kind: 'entity',
    intent: data?.entity ?? over.entity ?? 'unknown',
    entity: data?.entity ?? null,
    params: data?.params ?? null,
    smalltalk: null,
    out_of_scope: null,
    unknown_tickers: [],
    candidates: [],
    problem: null,
    data,
    measure: null,
    question_spec: null,
    advice: false,
    tool: null,
    rag: [],
    memory: { recent: [], summary: null },
    context_used: false,
    stream: false,
    ...over,
  };
}

/** A conversation's recent turns: `answers` assistant turns (each after a user turn). */
export function recentTurns(answers: string[]): Turn[] {
  return answers.flatMap((a, i) => [
    { role: 'user' as const, content: `pergunta ${i + 1}`, created_at: '2025-11-20T10:00:00Z', meta: {} },
    { role: 'assistant' as const, content: a, created_at: '2025-11-20T10:00:01Z', meta: {} },
  ]);
}
