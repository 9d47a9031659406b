/**
 * The "detalhes" panel of an answer, as data: what the planner understood, what a follow-up took
 * from the conversation, the candidates it weighed, the data and parameters used (never SQL),
 * what the knowledge base returned and how long each step took. Everything in Portuguese: entities,
 * tools and measures by their catalog labels, codes by their meaning; the planner's English debug
 * reasons, its signals and source nicknames stay in the API's `meta`. Pure; ui/explain-view.ts draws it.
 */
import { monthName } from '@cota/text';
import { formatDate, formatMs, formatNumber } from './format';
import { AskMeta, MeasureCatalog, PeriodSpec, StructuredQuestion } from './types';

/** Portuguese names of entities, tools and measures (from the policies, put in by the build). */
export interface Vocabulary {
  entities: Record<string, string>;
  tools: Record<string, string>;
  measures?: MeasureCatalog;
}

const NO_VOCABULARY: Vocabulary = { entities: {}, tools: {} };

export type Pair = [label: string, value: string];

export interface ExplainModel {
  question: Pair[] | null;
  followUp: Pair[];
  planner: Pair[];
  candidates: Array<{ entity: string; label: string; score: string; chosen: boolean }>;
  query: Pair[];
  tool: Pair[] | null;
  rag: { summary: Pair[]; chunks: Array<{ title: string; source: string; score: string; excerpt: string }> };
  narrator: Pair[];
  timings: { total: number | null; steps: Array<{ step: string; label: string; ms: number; text: string; share: number }> };
}

const AGG: Record<string, string> = {
  value: 'valor no fim do período',
  list: 'lista de valores',
  total: 'soma',
  sum: 'soma',
  avg: 'média',
  min: 'mínimo',
  max: 'máximo',
  first: 'primeiro valor',
  last: 'último valor',
  variation: 'variação',
  accumulated: 'acumulado (composto)',
  count: 'contagem',
  latest: 'mais recente',
};

const STEP_LABELS: Record<string, string> = {
  open: 'conversa (abertura)',
  plan: 'leitura da pergunta',
  act: 'consulta aos dados e ferramentas',
  narrate: 'redação da resposta',
  commit: 'conversa (registro)',
};

const UNIT_WORDS: Record<string, [string, string]> = { day: ['dia', 'dias'], month: ['mês', 'meses'], year: ['ano', 'anos'] };

/** A period spec in words: "últimos 12 meses", "de 01/01/2024 a 31/12/2024", "o dado mais recente". */
export function describePeriod(p: PeriodSpec | null | undefined): string {
  if (!p) return 'sem período (o dado mais recente)';
  const units = (n: number, u: string | undefined) => {
    const w = UNIT_WORDS[u ?? ''] ?? [u ?? '', u ?? ''];
    return `${n} ${n === 1 ? w[0] : w[1]}`;
  };
  switch (p.kind) {
    case 'latest':
      return 'o dado mais recente';
    case 'previous_session':
      return 'a sessão anterior à mais recente';
    case 'range':
      return p.from === p.to ? `${formatDate(p.from ?? '')}` : `de ${formatDate(p.from ?? '')} a ${formatDate(p.to ?? '')}`;
    case 'trailing':
      return p.n === 1 ? `último ${UNIT_WORDS[p.unit ?? '']?.[0] ?? p.unit}` : `últimos ${units(p.n ?? 0, p.unit)}`;
    case 'ago':
      return `há ${units(p.n ?? 0, p.unit)}`;
    case 'since':
      return `desde ${formatDate(p.from ?? '')}`;
    case 'relative_year':
      return p.offset === 0 ? 'este ano' : p.offset === -1 ? 'ano passado' : `há ${Math.abs(p.offset ?? 0)} anos`;
    case 'relative_month':
      return p.offset === 0 ? 'este mês' : p.offset === -1 ? 'mês passado' : `há ${Math.abs(p.offset ?? 0)} meses`;
    case 'day_of_month':
      return `dia ${p.day}${p.month ? `/${String(p.month).padStart(2, '0')}` : ''} (mês e ano da conversa)`;
    case 'months_of_year': {
      const a = monthName(p.from_month ?? 1);
      const b = monthName(p.to_month ?? 1);
      return a === b ? `${a} (ano da conversa)` : `de ${a} a ${b} (ano da conversa)`;
    }
    default:
      return p.kind;
  }
}

export function describeQuestion(q: StructuredQuestion | null | undefined, measures: MeasureCatalog = {}): Pair[] | null {
  if (!q) return null;
  const out: Pair[] = [];
  const subjects = (q.subjects ?? []).map((s) => (s.id === 'PORTFOLIO' ? 'sua carteira' : s.id));
  out.push(['Sobre', subjects.length ? subjects.join(', ') : '—']);
  out.push(['Medida', q.measure ? (measures[q.measure]?.label ?? q.measure.replace(/_/g, ' ')) : 'nenhuma (os dados completos)']);
  if (q.agg) out.push(['Agregação', [q.agg, ...(q.also ?? [])].map((a) => AGG[a] ?? a).join(' + ')]);
  out.push(['Período', describePeriod(q.period)]);
  if (q.group_by) out.push(['Agrupado por', q.group_by === 'day' ? 'dia' : q.group_by === 'month' ? 'mês' : 'ano']);
  if (q.compare) out.push(['Comparação', q.compare === 'max' ? 'qual é maior' : 'qual é menor']);
  if (q.condition) out.push(['Condição', `${q.condition.op === 'gt' ? 'acima de' : 'abaixo de'} ${formatNumber(q.condition.value, 2, true)}`]);
  return out;
}

const CONTEXT_REASONS: Record<string, string> = {
  inherited_last_reference: 'o fundo veio da conversa (pergunta anterior)',
  explicit_ticker_in_text: 'o fundo está escrito na pergunta',
};

/** What a follow-up inherits or changes, as the structured question names it. */
const QUESTION_PARTS: Record<string, string> = {
  subjects: 'fundos e assuntos',
  measure: 'medida',
  agg: 'agregação',
  also: 'outras agregações',
  period: 'período',
  group_by: 'agrupamento',
  compare: 'comparação',
  condition: 'condição',
};

const KIND_WORDS: Record<string, string> = {
  entity: 'dados de uma tabela do catálogo',
  measure: 'medida calculada sobre um período',
  smalltalk: 'conversa',
  concept: 'explicação de um conceito',
  tool: 'ferramenta',
  plan: 'análise em várias etapas',
};

const TOOL_STATUS: Record<string, string> = {
  ok: 'executada',
  confirmation_required: 'aguardando confirmação',
  needs_clarification: 'faltam informações',
  cancelled: 'cancelada',
  error: 'falhou',
  denied: 'não permitida',
};

const RAG_REASONS: Record<string, string> = {
  ok: 'trechos encontrados',
  allowed: 'consulta permitida',
  not_needed: 'não precisou',
  not_reached: 'não precisou (a resposta veio dos dados)',
  empty_question: 'pergunta vazia',
  error: 'falhou',
  intent_denied: 'não usada para este tipo de pergunta',
  intent_not_allowed: 'não usada para este tipo de pergunta',
  no_chunks: 'nada relevante encontrado',
};

const NARRATOR_REASONS: Record<string, string> = {
  llm_ok: 'o modelo revisou o texto, conferido contra os números',
  llm_disabled: 'modelo desligado para esta resposta',
  llm_not_configured: 'nenhum modelo configurado',
  llm_timeout: 'o modelo demorou demais; ficou o texto padrão',
  llm_error: 'o modelo falhou; ficou o texto padrão',
  llm_too_long: 'o texto do modelo saiu longo demais; ficou o texto padrão',
  llm_garbage: 'o modelo não escreveu um texto aproveitável; ficou o texto padrão',
  kind_not_allowed: 'este tipo de resposta não passa pelo modelo',
};

/** The narrator's reason in words; a guard's refusal names what it refused ("guard_rejected:12,5"). */
function narratorReason(code: string): string {
  const refused = /^guard_rejected:(.*)$/.exec(code);
  if (refused) return `o texto do modelo trazia algo que os dados não têm (${refused[1]}); ficou o texto padrão`;
  return words(NARRATOR_REASONS, code);
}

/** Query parameters by their meaning. */
const PARAM_NAMES: Record<string, string> = {
  ticker: 'Fundo',
  tickers: 'Fundos',
  agg: 'Agregação',
  window: 'Janela',
  limit: 'Limite de linhas',
  limit_asked: 'Linhas pedidas',
  order: 'Ordem',
  order_by: 'Ordenado por',
  filters: 'Filtros',
  conditions: 'Condições',
};

/** A code shown as words: its known meaning, else the code with spaces (never snake_case). */
const words = (map: Record<string, string>, code: string | null | undefined): string => (code ? (map[code] ?? code.replace(/_/g, ' ')) : '—');

/** "months:12" -> "últimos 12 meses". */
function describeWindow(w: string): string {
  const m = /^(rows|months|days|year):(\d+)$/.exec(w);
  if (!m) return w;
  const n = Number(m[2]);
  if (m[1] === 'year') return `ano de ${n}`;
  const unit = { rows: ['registro', 'registros'], months: ['mês', 'meses'], days: ['dia', 'dias'] }[m[1] as 'rows' | 'months' | 'days'];
  return n === 1 ? `último ${unit[0]}` : `últimos ${n} ${unit[1]}`;
}

/** Keys of params never shown (nothing that could carry SQL text). */
const HIDDEN_PARAM = /sql|query|statement|where|clause/i;
const SQL_TEXT = /\b(select|insert|update|delete|with)\b[\s\S]*\b(from|into|set|as)\b/i;

/** The params as shown: scalars and lists in plain words, nothing that looks like SQL. */
export function safeParams(params: Record<string, unknown> | undefined): Pair[] {
  if (!params) return [];
  const out: Pair[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (HIDDEN_PARAM.test(k)) continue;
    const text = showValue(v);
    if (text === null) continue;
    out.push([k, SQL_TEXT.test(text) ? '[omitido]' : text]);
  }
  return out;
}

function showValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.length ? v.map((x) => showValue(x) ?? '—').join(', ') : null;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([k]) => !HIDDEN_PARAM.test(k));
    if (!entries.length) return null;
    return entries.map(([k, x]) => `${k}: ${showValue(x) ?? '—'}`).join('; ');
  }
  if (typeof v === 'number') return formatNumber(v, 4, true);
  if (typeof v === 'boolean') return v ? 'sim' : 'não';
  return String(v);
}

type Planner = NonNullable<AskMeta['planner']>;

/** The answer's explanation, one section per step of the pipeline. */
export function buildExplain(meta: AskMeta | undefined, vocabulary: Vocabulary = NO_VOCABULARY): ExplainModel {
  const m = meta ?? {};
  const planner = m.planner ?? {};
  return {
    question: describeQuestion(planner.question, vocabulary.measures),
    followUp: followUpPairs(m, planner),
    planner: plannerPairs(planner),
    candidates: candidateRows(planner, m.entity ?? null, vocabulary),
    query: queryPairs(m, vocabulary),
    tool: toolPairs(m, vocabulary),
    rag: ragSection(m),
    narrator: narratorPairs(m),
    timings: timingBars(m.timings_ms),
  };
}

/** What a follow-up took from the previous question, and what the conversation context supplied. */
function followUpPairs(m: AskMeta, planner: Planner): Pair[] {
  const followUp: Pair[] = [];
  const fu = planner.follow_up;
  if (fu) {
    followUp.push(['Continuação', fu.applied ? 'sim: editou a pergunta anterior' : 'não']);
    const part = (p: string) => QUESTION_PARTS[p.split(' ')[0]] ?? p.split(' ')[0].replace(/_/g, ' ');
    if (fu.inherited?.length) followUp.push(['Herdou', fu.inherited.map(part).join(', ')]);
    if (fu.changed?.length) followUp.push(['Mudou', fu.changed.map(part).join(', ')]);
  }
  if (m.context) {
    followUp.push(['Fundo herdado da conversa', m.context.last_reference_used ? 'sim' : 'não']);
    if (m.context.reason) followUp.push(['Contexto', CONTEXT_REASONS[m.context.reason] ?? m.context.reason]);
    if (typeof m.context.turn_index === 'number') followUp.push(['Turno', String(m.context.turn_index)]);
  }
  return followUp;
}

/** How the planner decided: its score and margin against the thresholds, and whether it accepted. */
function plannerPairs(planner: Planner): Pair[] {
  const pairs: Pair[] = [];
  if (planner.kind) pairs.push(['Tipo de resposta', words(KIND_WORDS, planner.kind)]);
  if (planner.normalized) pairs.push(['Pergunta normalizada', planner.normalized]);
  if (typeof planner.score === 'number') pairs.push(['Pontuação', formatNumber(planner.score, 2, true)]);
  if (typeof planner.gap === 'number') pairs.push(['Vantagem sobre o 2º', formatNumber(planner.gap, 2, true)]);
  if (planner.thresholds)
    pairs.push(['Mínimos', `pontuação ${formatNumber(planner.thresholds.min_score ?? 0, 2, true)}, vantagem ${formatNumber(planner.thresholds.min_gap ?? 0, 2, true)}`]);
  if (typeof planner.accepted === 'boolean') pairs.push(['Aceito', planner.accepted ? 'sim' : 'não (pediu esclarecimento)']);
  if (typeof planner.llm_used === 'boolean') pairs.push(['Modelo de linguagem', planner.llm_used ? 'usado' : 'não usado']);
  return pairs;
}

/** The first candidates the planner weighed, the one answered marked. */
function candidateRows(planner: Planner, chosen: string | null, vocabulary: Vocabulary): ExplainModel['candidates'] {
  return (planner.candidates ?? []).slice(0, 6).map((c) => ({
    entity: vocabulary.entities[c.entity] ?? c.entity.replace(/_/g, ' '),
    label: c.label ?? '',
    score: formatNumber(c.score, 2, true),
    chosen: c.entity === chosen,
  }));
}

/** The entity and parameters used (never SQL). */
function queryPairs(m: AskMeta, vocabulary: Vocabulary): Pair[] {
  const query: Pair[] = [];
  query.push(['Dados consultados', m.entity ? (vocabulary.entities[m.entity] ?? m.entity.replace(/_/g, ' ')) : '—']);
  for (const [k, v] of safeParams(m.params)) {
    const shown = k === 'agg' ? (AGG[v] ?? v) : k === 'window' ? describeWindow(v) : k === 'order' ? (v === 'desc' ? 'decrescente' : v === 'asc' ? 'crescente' : v) : v;
    query.push([PARAM_NAMES[k] ?? k.replace(/_/g, ' '), shown]);
  }
  return query;
}

/** The tool called, its arguments, and the ones filled in from the conversation. */
function toolPairs(m: AskMeta, vocabulary: Vocabulary): Pair[] | null {
  if (!m.tool) return null;
  const arg = (k: string) => k.replace(/_/g, ' ');
  return [
    ['Ferramenta', vocabulary.tools[m.tool.name] ?? m.tool.name.replace(/_/g, ' ')],
    ['Situação', words(TOOL_STATUS, m.tool.status)],
    ...safeParams(m.tool.args).map(([k, v]) => [arg(k), v] as Pair),
    ...(m.tool.injected ?? []).map((i) => [`${arg(i.arg)} (da conversa)`, showValue(i.value) ?? '—'] as Pair),
  ] as Pair[];
}

/** Whether the knowledge base was used and the first passages it returned, each with a short excerpt. */
function ragSection(m: AskMeta): ExplainModel['rag'] {
  const rag = m.rag ?? {};
  const summary: Pair[] = [
    ['Usada', rag.enabled ? 'sim' : 'não'],
    ['Motivo', words(RAG_REASONS, rag.reason)],
  ];
  if (rag.error) summary.push(['Erro', 'a busca falhou']);
  const chunks = (rag.chunks ?? []).slice(0, 8).map((c) => {
    const lines = c.text.split('\n');
    return {
      title: lines[0] ?? '',
      source: 'base de conhecimento do Cota',
      score: formatNumber(c.score, 3),
      excerpt: lines.slice(1).join(' ').replace(/\*\*/g, '').slice(0, 280),
    };
  });
  return { summary, chunks };
}

/** Whether a language model revised the answer's text, and why. */
function narratorPairs(m: AskMeta): Pair[] {
  const narrator: Pair[] = [];
  if (m.narrator) {
    narrator.push(['Texto revisado por modelo', m.narrator.llm_used ? 'sim' : 'não']);
    if (m.narrator.reason) narrator.push(['Motivo', narratorReason(m.narrator.reason)]);
    if (m.narrator.model) narrator.push(['Modelo', m.narrator.model]);
  }
  return narrator;
}

/** Step timings as bars: each step's share of the longest one (the total listed apart). */
export function timingBars(t: Record<string, number> | undefined): ExplainModel['timings'] {
  if (!t) return { total: null, steps: [] };
  const entries = Object.entries(t).filter(([k, v]) => k !== 'total' && typeof v === 'number' && Number.isFinite(v) && v >= 0);
  const max = Math.max(1e-9, ...entries.map(([, v]) => v));
  return {
    total: typeof t.total === 'number' ? t.total : null,
    steps: entries.map(([step, ms]) => ({ step, label: STEP_LABELS[step] ?? step.replace(/_/g, ' '), ms, text: formatMs(ms), share: Math.round((ms / max) * 1000) / 10 })),
  };
}
