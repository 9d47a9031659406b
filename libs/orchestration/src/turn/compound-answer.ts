import type { NarrateResponse } from '@cota/contracts';
import type { Acted } from './act';

/**
 * One answer for a compound question, from its parts' answers in the order asked: their bodies one
 * after the other, then each distinct source line once, at the end where a single answer has it.
 */
export function joinAnswers(narrated: NarrateResponse[]): NarrateResponse {
  if (narrated.length === 1) return narrated[0];
  const sources: string[] = [];
  const bodies = narrated.map((n) =>
    n.answer
      .split('\n')
      .filter((line) => {
        if (!/^Fonte:/.test(line.trim())) return true;
        if (!sources.includes(line.trim())) sources.push(line.trim());
        return false;
      })
      .join('\n')
      .trim(),
  );
  const first = narrated[0].narrator;
  return {
    answer: [...bodies, sources.join('\n')].filter(Boolean).join('\n\n'),
    narrator: {
      ...first,
      llm_used: narrated.some((n) => n.narrator.llm_used),
      latency_ms: Math.max(...narrated.map((n) => n.narrator.latency_ms)),
      reason: narrated.map((n) => n.narrator.reason).join(' | '),
    },
  };
}

/** The parts' results side by side (keyed by entity); two parts of one entity keep both rows. */
export function joinResults(acted: Acted[]): Acted {
  if (acted.length === 1) return acted[0];
  const results: Record<string, unknown> = {};
  for (const a of acted) {
    for (const [key, value] of Object.entries(a.results)) {
      const had = results[key];
      results[key] = had === undefined ? value : Array.isArray(had) && Array.isArray(value) ? [...had, ...value] : had;
    }
  }
  const answered = acted.find((a) => a.status === 'ok');
  const status = answered ? 'ok' : acted[0].status;
  // (the other parts' questions, answered, so that "e do HGLG11?" can edit each of them)
  const alsoQuestions = acted.slice(1).flatMap((a) => (a.status === 'ok' && a.question ? [a.question] : []));
  return { ...acted[0], status, problem: answered ? null : acted[0].problem, results, alsoQuestions };
}
