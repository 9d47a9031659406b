import type { FeedbackEvalCase, FeedbackRecord } from '@cota/contracts';

interface RecordedReading {
  subjects: string[];
  period: { from: string; to: string } | null;
  entity: string | null;
  tickersInText: string[];
}

function readingOf(meta: Record<string, unknown>): RecordedReading {
  const q = (meta.question ?? null) as { subjects?: Array<{ id?: unknown }>; period?: { kind?: unknown; from?: unknown; to?: unknown } | null } | null;
  const subjects = (q?.subjects ?? []).map((s) => s.id).filter((id): id is string => typeof id === 'string');
  const p = q?.period;
  const period = p && p.kind === 'range' && typeof p.from === 'string' && typeof p.to === 'string' ? { from: p.from, to: p.to } : null;
  const tickersInText = Array.isArray(meta.tickers_in_text) ? meta.tickers_in_text.filter((t): t is string => typeof t === 'string') : [];
  return { subjects, period, entity: typeof meta.entity === 'string' ? meta.entity : null, tickersInText };
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The case a verdict becomes: the conversation's questions replayed in order, the last one the rated answer. A 👍 keeps what the answer was read as (subjects, period, an answer):
 * a regression case as it stands. A 👎 says the answer was wrong, so only what the person wrote is
 * expected (the funds named in the question); the evidence carries the comment, the answer given and
 * its reading, and the value to expect is added from the raw data by whoever files the case.
 */
export function feedbackToEvalCase(f: FeedbackRecord): FeedbackEvalCase {
  const reading = readingOf(f.meta);
  const questions = f.questions.length ? f.questions : [''];
  const last = questions.length - 1;
  const expectLast =
    f.rating === 'up'
      ? { ...(reading.subjects.length ? { subjects: reading.subjects } : {}), ...(reading.period ? { period: reading.period } : {}), status: 'ok' as const }
      : reading.tickersInText.length
        ? { subjects: reading.tickersInText }
        : {};
  const verdict = f.rating === 'up' ? '👍' : '👎';
  const evidence = [
    `feedback ${verdict} de ${f.created_at.slice(0, 10)} (request ${f.request_id})`,
    f.comment ? `comentário: "${clip(f.comment, 500)}"` : 'sem comentário',
    `resposta dada: "${clip(f.answer.replace(/\s+/g, ' '), 400)}"`,
    `leitura: entity ${reading.entity ?? 'nenhuma'}, subjects [${reading.subjects.join(', ')}]${reading.period ? `, período ${reading.period.from}..${reading.period.to}` : ''}`,
    f.rating === 'down' ? 'falta o valor esperado: conferir nos dados brutos antes de incluir o caso num conjunto' : null,
  ]
    .filter(Boolean)
    .join('; ');
  return {
    id: `FB-${f.created_at.slice(0, 10).replace(/-/g, '')}-${f.request_id.replace(/[^A-Za-z0-9]/g, '').slice(-12)}`,
    category: `feedback_${f.rating}`,
    client_id: f.client_id,
    turns: questions.map((q, i) => ({ q, expect: i === last ? expectLast : {} })),
    evidence,
  };
}
