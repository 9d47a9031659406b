import { ConversationState, LastReference, MAX_QUESTION_SUBJECTS, QueryParams, StructuredQuestion, ToolCallState, Turn } from '@cota/contracts';

const objectOr = <T>(v: unknown): T | null => (v && typeof v === 'object' ? (v as T) : null);
const callOf = (v: unknown): ToolCallState | null => {
  const parsed = ToolCallState.safeParse(v);
  return parsed.success ? parsed.data : null;
};

/**
 * The newest answer a follow-up points at: the question still waiting for its fund (none named, or one Cota
 * does not know: "e do ABCP11?" asks it again), else the newest answered one.
 */
function pointedAnswer(recent: Turn[], newest: Turn | undefined): Turn | undefined {
  const waits =
    (newest?.meta.status === 'needs_clarification' && (newest.meta.problem === 'ticker_required' || newest.meta.problem === 'series_required')) ||
    (newest?.meta.status === 'error' && newest.meta.problem === 'unknown_ticker');
  const waiting = newest && waits && typeof newest.meta.entity === 'string';
  if (waiting) return newest;
  // (an answer from data, or a tool's that left the period it measured: "e o IFIX no mesmo período?")
  return [...recent].reverse().find((t) => t.role === 'assistant' && t.meta.status === 'ok' && (typeof t.meta.entity === 'string' || !!objectOr(t.meta.question)));
}

const listedOf = (t: Turn | undefined): string[] => (Array.isArray(t?.meta.listed) ? (t.meta.listed as string[]).slice(0, 50) : []);

/** The newest answered list of two or more funds among the recent turns: what "desses" and "o terceiro" point at. */
function newestList(recent: Turn[]): string[] {
  const listing = [...recent].reverse().find((t) => t.role === 'assistant' && t.meta.status === 'ok' && listedOf(t).length > 1);
  return listedOf(listing);
}

/** The person's words right before an answer (the question it answered), cut to the contract's length. */
function askedBefore(recent: Turn[], answer: Turn | undefined): string | null {
  const at = answer ? recent.lastIndexOf(answer) : -1;
  const asked =
    at > 0
      ? recent
          .slice(0, at)
          .reverse()
          .find((t) => t.role === 'user')
      : undefined;
  return asked ? asked.content.slice(0, 500) : null;
}

/**
 * What a conversation holds when a turn opens, read from its recent turns (oldest first), its tool
 * calls in the session, its last reference and the earlier questions never answered (`unanswered`).
 */
export function conversationState(recent: Turn[], session: Record<string, unknown>, reference: LastReference | null, turnIndex: number, unanswered: number[]): ConversationState {
  const newest = [...recent].reverse().find((t) => t.role === 'assistant');
  const last = pointedAnswer(recent, newest);
  const question = objectOr<StructuredQuestion>(last?.meta.question);
  // The answered question before the last one ("IFIX em novembro?" → "e o IBOV?" → "qual dos dois?"); an entity's
  // answer with no measure leaves its funds ("cnpj do IRDM11" → "e do RBRF11?" → "compara o p/vp dos dois").
  const answered = recent.filter((t) => t.role === 'assistant' && t.meta.status === 'ok' && (objectOr(t.meta.question) || typeof t.meta.entity === 'string'));
  const earlier = last ? answered.filter((t) => t !== last).pop() : undefined;
  const earlierQuestion = objectOr<StructuredQuestion>(earlier?.meta.question);
  const earlierFunds = Array.isArray(earlier?.meta.tickers) ? (earlier.meta.tickers as string[]).map((id) => ({ kind: 'fund' as const, id })) : [];
  return {
    turn_index: turnIndex,
    last_entity: typeof last?.meta.entity === 'string' ? last.meta.entity : null,
    last_tickers: Array.isArray(last?.meta.tickers) ? (last.meta.tickers as string[]) : [],
    last_filters: objectOr<Record<string, string>>(last?.meta.filters) ?? {},
    last_question: question,
    last_params: objectOr<QueryParams>(last?.meta.params),
    last_listed_tickers: listedOf(last),
    last_list: newestList(recent),
    last_answered_date: typeof last?.meta.answered_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(last.meta.answered_date) ? last.meta.answered_date : null,
    last_also_questions: Array.isArray(last?.meta.also_questions) ? (last.meta.also_questions as StructuredQuestion[]).slice(0, 3) : [],
    earlier_subjects: (earlierQuestion?.subjects ?? earlierFunds).slice(0, MAX_QUESTION_SUBJECTS),
    earlier_period: earlierQuestion?.period ?? null,
    earlier_measure: earlierQuestion?.measure ?? null,
    pending_call: callOf(session.pending_call),
    last_call: callOf(session.last_call),
    last_kind: typeof newest?.meta.kind === 'string' ? newest.meta.kind : null,
    last_asked: askedBefore(recent, newest),
    last_reference: reference,
    unanswered_since_reference: reference ? unanswered.filter((i) => i > reference.turn_index).length : 0,
  };
}
