/**
 * What a person reads about an answer instead of internal names: the kind of answer in Portuguese
 * (from the entity and tool descriptions of the policies, put in by the build), and the footer line.
 * Pure.
 */
import { formatMs } from './format';
import { AskMeta, MeasureCatalog } from './types';

export interface Labels {
  entities: Record<string, string>;
  tools: Record<string, string>;
  /** The fund segments the planner reads as a filter (policies/param_inference.yaml). */
  sectors?: string[];
}

const KIND_LABELS: Record<string, string> = {
  smalltalk: 'Conversa',
  concept: 'Explicação',
  plan: 'Análise em várias etapas',
  tool: 'Ferramenta',
  entity: 'Dados',
  measure: 'Medida',
};

/** "Dividendos por cota", "Briefing diário", "DY 12 meses": never an entity id or a tool name. */
export function answerKindLabel(meta: AskMeta | undefined, labels: Labels, catalog: MeasureCatalog): string {
  const m = meta ?? {};
  const kind = m.planner?.kind;
  if (m.tool?.name) return labels.tools[m.tool.name] ?? KIND_LABELS.tool;
  if (kind === 'measure') {
    const measure = m.planner?.question?.measure;
    if (measure && catalog[measure]) return catalog[measure].label.charAt(0).toUpperCase() + catalog[measure].label.slice(1);
  }
  if (kind === 'plan' || kind === 'concept' || kind === 'smalltalk') return KIND_LABELS[kind];
  if (m.entity && labels.entities[m.entity]) return labels.entities[m.entity];
  return KIND_LABELS[kind ?? ''] ?? 'Resposta';
}

/** The footer under an answer: its kind, what it took from the conversation, and how long it took. */
export function footerText(meta: AskMeta | undefined, labels: Labels, catalog: MeasureCatalog): string {
  const m = meta ?? {};
  const bits = [answerKindLabel(m, labels, catalog)];
  if (m.planner?.follow_up?.applied) bits.push('continuação da pergunta anterior');
  else if (m.context?.last_reference_used) bits.push('fundo herdado da conversa');
  if (m.narrator?.llm_used) bits.push('texto revisado por IA');
  if (typeof m.timings_ms?.total === 'number') bits.push(formatMs(m.timings_ms.total));
  return bits.join(' · ');
}
