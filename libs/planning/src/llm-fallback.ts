import { z } from 'zod';
import type { LlmClient } from '@cota/llm';
import { Candidate, Ontology } from './ontology';

export interface LlmChoice {
  entity: string | null;
  /** Why the model's answer was not used, when it was not. */
  failure: string | null;
}

const Answer = z.object({ entity: z.string().nullable(), confidence: z.number().min(0).max(1).optional() }).passthrough();

/**
 * Asks the model to pick one catalog entity for a question the deterministic planner could not
 * accept. Structured JSON answer, validated; an entity outside the catalog, a timeout or any
 * error leaves the deterministic outcome in place.
 */
export async function chooseEntityWithLlm(
  llm: LlmClient,
  ontology: Ontology,
  question: string,
  candidates: ReadonlyArray<Pick<Candidate, 'entity' | 'score'>>,
  opts: { timeoutMs: number; maxCandidates: number },
): Promise<LlmChoice> {
  const catalog = ontology
    .entityNames()
    .map((name) => `- ${name}: ${ontology.entities.get(name)!.description}`)
    .join('\n');
  const likely = candidates
    .filter((c) => c.score > 0)
    .slice(0, opts.maxCandidates)
    .map((c) => c.entity);
  const system =
    'Você classifica perguntas sobre fundos imobiliários (FIIs) brasileiros. Escolha UMA entidade do catálogo ' +
    'que responde à pergunta, ou null se nenhuma responde. Responda apenas com JSON: {"entity": "<nome>" | null, "confidence": 0..1}.\n' +
    `Catálogo:\n${catalog}` +
    (likely.length ? `\nCandidatas mais prováveis segundo o roteador: ${likely.join(', ')}.` : '');
  let raw: string;
  try {
    raw = await llm.complete(
      [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ],
      { timeoutMs: opts.timeoutMs, json: true, temperature: 0, maxTokens: 60 },
    );
  } catch (e) {
    return { entity: null, failure: `model call failed: ${(e as Error).message}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return { entity: null, failure: 'model answer is not JSON' };
  }
  const answer = Answer.safeParse(parsed);
  if (!answer.success) return { entity: null, failure: 'model answer has no valid "entity" field' };
  if (answer.data.entity === null) return { entity: null, failure: 'model chose no entity' };
  if (!ontology.has(answer.data.entity)) return { entity: null, failure: `model chose '${answer.data.entity.slice(0, 64)}', not in the catalog` };
  return { entity: answer.data.entity, failure: null };
}
