import type { EntityClasses } from '@cota/catalog';
import { z } from 'zod';
import type { OntologySpec } from './ontology.schema';

/**
 * The words that name one field of an entity's answer ("gerido", "custodiante", "cap rate") are the
 * narrator's focus keywords (policies/templates/<entity>.yaml), which pick the sentence an answer leads
 * with. The same words name the entity when a question is routed: one list, read by both. A word some
 * entity of the ontology already weighs keeps its weight, and a word two templates focus on names
 * neither; only the other single words join, at `field_words_weight`.
 */
export const FocusKeywords = z.object({ focus: z.array(z.object({ keywords: z.array(z.string()) }).passthrough()).default([]) }).passthrough();
export type FocusKeywords = z.infer<typeof FocusKeywords>;

export function withFieldWords(spec: OntologySpec, templates: Record<string, FocusKeywords>, classes: EntityClasses): OntologySpec {
  const known = new Set(Object.values(spec.entities).flatMap((e) => [...Object.keys(e.tokens), ...Object.keys(e.phrases)]));
  // A word two entities' answers focus on ("peso", "participacao") names neither.
  const seen = new Map<string, number>();
  for (const t of Object.values(templates)) for (const k of new Set(t.focus.flatMap((f) => f.keywords))) seen.set(k, (seen.get(k) ?? 0) + 1);
  for (const [k, n] of seen) if (n > 1) known.add(k);
  const entities = { ...spec.entities };
  for (const [name, template] of Object.entries(templates)) {
    const entity = entities[name];
    // The client's views overlap (a position's weight, the portfolio's weights): their words stay the ontology's.
    if (!entity || classes[name] === 'client') continue;
    // Single words only: a phrase ("desde quando", "quanto por cento") reads differently in other questions.
    const added = template.focus.flatMap((f) => f.keywords).filter((k) => !known.has(k) && /^[a-z0-9]+$/.test(k));
    if (added.length === 0) continue;
    entities[name] = { ...entity, tokens: { ...entity.tokens, ...Object.fromEntries(added.map((w) => [w, spec.field_words_weight])) } };
    added.forEach((w) => known.add(w));
  }
  return { ...spec, entities };
}
