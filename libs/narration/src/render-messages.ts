import { MAX_QUESTION_SUBJECTS, TOO_MANY_FUNDS, type NarrateRequest, type RagChunk } from '@cota/contracts';
import { formatBoolean, formatDate, formatMoney, formatNumber, formatPercent, joinPt, capitalize } from './format';
import { conditionsPhrase, fundsPhrase, joinOr, windowPhrase } from './phrases';
import type { NarratorPolicy } from './policy';
import { markdownTable, shorten } from './render-table';
import { renderText } from './template-text';
import { keptPhrase, type TemplateSet } from './templates';

/**
 * Answers that are not built from entity rows: small talk, asking back, problems the gateway
 * reports, concept questions answered from the knowledge base, tool results. The words live in
 * narrator.yaml (`messages`); this module only fills them.
 */

type Messages = NarratorPolicy['messages'];

/** Fills a message; `[...]` segments with a missing value disappear. */
export function fillMessage(text: string, values: Record<string, string | null | undefined>): string {
  const out = renderText(text, (name) => {
    const v = values[name];
    return v === undefined || v === null || v === '' ? null : v;
  });
  // Every message is validated at start-up; a required value missing here is a wiring bug, so the
  // text is still shown with the gap rather than losing the whole answer.
  return out ?? renderText(text.replace(/\{[^}]+\}/g, ''), () => '') ?? text;
}

export function smalltalkAnswer(kind: string | null, req: NarrateRequest, messages: Messages): string {
  if (kind === 'out_of_scope') {
    const outside = req.out_of_scope ?? { reason: 'topic' as const, term: null };
    // (a measure asked of a fund names the fund: "Não tenho EBITDA do HGLG11")
    const funds = req.params?.tickers.length ? fundsPhrase(req.params.tickers) : null;
    const said = fillMessage(messages.out_of_scope[outside.reason], { termo: outside.term ?? '', fundos: funds });
    return req.advice ? `${said}\n\n${messages.out_of_scope.advice}` : said;
  }
  const key = (kind ?? 'greeting') as keyof Messages['smalltalk'];
  const text = messages.smalltalk[key] ?? messages.smalltalk.greeting;
  return fillMessage(text, { nickname: req.nickname.trim() });
}

export function subjectOf(entity: string | null, templates: TemplateSet): string | null {
  return entity ? (templates[entity]?.subject ?? null) : null;
}

/**
 * "em 15/03/2024" when the question named a day: without it the window phrase ("no último dia")
 * would describe a period the person never asked about.
 */
function askedDate(req: NarrateRequest): string | null {
  const date = req.data?.params.filters?.date ?? req.params?.filters?.date;
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? `em ${formatDate(date)}` : null;
}

export function problemAnswer(problem: string, req: NarrateRequest, messages: Messages, templates: TemplateSet): string {
  const subject = subjectOf(req.entity, templates);
  const tickers = req.data?.params.tickers.length ? req.data.params.tickers : (req.params?.tickers ?? []);
  const ticker = req.data?.params.ticker ?? req.params?.ticker ?? null;
  const asked = tickers.length ? tickers : ticker ? [ticker] : [];
  const unit = (req.entity && templates[req.entity]?.window_unit) || { one: 'registro', many: 'registros', gender: 'm' as const };
  const values = {
    subject: subject ?? 'dados',
    nickname: req.nickname.trim(),
    tickers: unknownTickersPhrase(req.unknown_tickers),
    funds: fundsPhrase(asked),
    window: askedDate(req) ?? windowPhrase(req.data?.params.window ?? req.params?.window ?? null, unit),
    kept: keptPhrase(req.entity ? templates[req.entity] : null, req.data?.params.filters ?? req.params?.filters),
  };
  switch (problem) {
    case 'ticker_required':
      return fillMessage(messages.problems.ticker_required, values);
    case 'series_required':
      return fillMessage(messages.problems.series_required, values);
    case 'unknown_ticker':
      return fillMessage(messages.problems.unknown_ticker, values);
    case 'no_data': {
      // A screen across funds that nothing meets is an answer: say what was asked.
      const params = req.data?.params ?? req.params;
      const filters = Object.entries(params?.filters ?? {})
        .filter(([k]) => k === 'sector' || k === 'fund_type')
        .map(([, v]) => v);
      const conditions = req.data ? conditionsPhrase(req.data.params.conditions, req.data.columns) : null;
      if (asked.length === 0 && (filters.length || conditions)) {
        return fillMessage(messages.problems.no_funds_match, { ...values, filters: filters.length ? joinPt(filters) : null, conditions });
      }
      return fillMessage(messages.problems.no_data, values);
    }
    case 'service_unavailable':
      return fillMessage(messages.problems.service_unavailable, values);
    case 'not_understood':
      return fillMessage(messages.problems.not_understood, values);
    case TOO_MANY_FUNDS:
      return fillMessage(messages.problems.too_many_funds, { ...values, limit: String(MAX_QUESTION_SUBJECTS), count: String(req.funds_named ?? 0) });
    default:
      return fillMessage(messages.problems.generic, values);
  }
}

/** "o código ABCD11" / "os códigos ABCD11 e EFGH11". */
export function unknownTickersPhrase(tickers: string[]): string | null {
  if (tickers.length === 0) return null;
  return tickers.length === 1 ? `o código ${tickers[0]}` : `os códigos ${joinPt(tickers)}`;
}

export function clarificationAnswer(req: NarrateRequest, messages: Messages, templates: TemplateSet): string {
  const options = req.candidates.map((c) => templates[c]?.describe).filter((d): d is string => Boolean(d));
  const unique = [...new Set(options)];
  if (unique.length === 0) return fillMessage(messages.clarification_no_candidates, { nickname: req.nickname.trim() });
  return fillMessage(messages.clarification, { options: joinOr(unique), nickname: req.nickname.trim() });
}

// ---- concepts (RAG) ----------------------------------------------------------------------------

/** The chunks worth quoting: above the score floor, best first, capped. */
export function relevantChunks(chunks: RagChunk[], policy: NarratorPolicy['concept']): RagChunk[] {
  return [...chunks]
    .filter((c) => c.score >= policy.min_score && c.text.trim().length > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, policy.max_chunks);
}

/** Knowledge text as prose: headings and list markers stripped, blank runs collapsed. */
function cleanChunk(text: string): string {
  return text
    .split('\n')
    .map((l) =>
      l
        .replace(/^\s*#{1,6}\s*/, '')
        .replace(/^\s*[-*]\s+/, '• ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
}

/** Cuts at the last sentence end before the limit, so a quote never stops mid-word. */
function cutAtSentence(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max);
  const end = Math.max(slice.lastIndexOf('. '), slice.lastIndexOf('.\n'), slice.lastIndexOf('! '), slice.lastIndexOf('? '));
  return end > max * 0.4 ? slice.slice(0, end + 1) : shorten(text, max);
}

export function conceptAnswer(req: NarrateRequest, policy: NarratorPolicy): string {
  const chunks = relevantChunks(req.rag, policy.concept);
  if (chunks.length === 0) return fillMessage(policy.messages.concept_not_found, { nickname: req.nickname.trim() });
  let budget = policy.concept.max_chars;
  const quotes: string[] = [];
  for (const c of chunks) {
    if (budget < 80) break;
    const text = cutAtSentence(cleanChunk(c.text), budget);
    if (quotes.some((q) => q.includes(text))) continue;
    quotes.push(text);
    budget -= text.length;
  }
  const docs = [...new Set(chunks.slice(0, quotes.length).map((c) => c.doc_id))];
  const quoted = quotes
    .map((q) =>
      q
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n'),
    )
    .join('\n>\n');
  return [fillMessage(policy.messages.concept_intro, { nickname: req.nickname.trim() }), quoted, fillMessage(policy.messages.concept_source, { docs: joinPt(docs) })].join('\n\n');
}

// ---- tools -------------------------------------------------------------------------------------

const toolLabel = (name: string) => name.replace(/[_-]+/g, ' ').trim();

export function toolAnswer(req: NarrateRequest, policy: NarratorPolicy): string {
  const m = policy.messages;
  const tool = req.tool;
  const name = tool?.meta?.name ? toolLabel(tool.meta.name) : null;
  const status = tool?.meta?.status ?? null;
  if (req.status === 'confirmation_required' || status === 'confirmation_required') {
    return tool?.message ?? fillMessage(m.tool_confirm, { tool: name });
  }
  if (status === 'cancelled') return tool?.message ?? fillMessage(m.tool_cancelled, { tool: name });
  if (status === 'failed' || status === 'rejected' || req.status === 'error') {
    return tool?.message ?? fillMessage(m.tool_failed, { tool: name });
  }
  if (!tool) return fillMessage(m.confirmation_nothing_pending, {});
  if (tool.message) return tool.message;
  return renderToolResult(tool.result, policy) ?? fillMessage(m.tool_done, { tool: name });
}

const MONEY_KEY = /(^|_)(amt|amount|valor|value_brl|price|preco|total_brl|saldo|balance)($|_)/i;
const PERCENT_KEY = /(^|_)(pct|percent|percentual)($|_)/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$/;

function labelOf(key: string): string {
  return capitalize(key.replace(/[_-]+/g, ' ').trim());
}

/** A tool value for a person: numbers by their key's meaning, dates dd/mm/aaaa. */
function toolValue(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return formatBoolean(value);
  if (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) && !/^0\d/.test(value))) {
    if (MONEY_KEY.test(key)) return formatMoney(value);
    if (PERCENT_KEY.test(key)) return formatPercent(value);
    return formatNumber(value);
  }
  if (typeof value === 'string') return ISO_DATE.test(value) ? formatDate(value) : value;
  if (Array.isArray(value)) return value.map((v) => toolValue(key, v)).join(', ');
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${labelOf(k)}: ${toolValue(k, v)}`)
    .join('; ');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function toolTable(items: Array<Record<string, unknown>>, policy: NarratorPolicy): string {
  const keys = [...new Set(items.flatMap((i) => Object.keys(i)))].slice(0, policy.tables.max_columns);
  const shown = items.slice(0, policy.tables.max_rows);
  const table = markdownTable(
    keys.map((k) => ({ label: labelOf(k), align: shown.every((i) => typeof i[k] === 'number') ? 'right' : 'left' })),
    shown.map((i) => keys.map((k) => shorten(toolValue(k, i[k]), 90))),
  );
  const more = items.length - shown.length;
  return more > 0 ? `${table}\n\n${policy.messages.more_rows.replace('{count}', String(more))}` : table;
}

/** A readable rendering of a tool's result (object, list of records, list, text). */
export function renderToolResult(result: unknown, policy: NarratorPolicy): string | null {
  if (result === null || result === undefined) return null;
  if (typeof result === 'string') return result.trim() || null;
  if (typeof result !== 'object') return toolValue('value', result);
  // Tools ship their own pt-BR rendering (built from the same data) in `text`: prefer it.
  if (isRecord(result) && typeof result.text === 'string' && result.text.trim()) return result.text.trim();
  if (Array.isArray(result)) {
    if (result.length === 0) return null;
    if (result.every(isRecord)) return toolTable(result, policy);
    return result.map((v) => `- ${toolValue('value', v)}`).join('\n');
  }
  const lines: string[] = [];
  const blocks: string[] = [];
  for (const [k, v] of Object.entries(result)) {
    if (Array.isArray(v) && v.length > 0 && v.every(isRecord)) blocks.push(`**${labelOf(k)}**\n\n${toolTable(v, policy)}`);
    else lines.push(`- ${labelOf(k)}: ${toolValue(k, v)}`);
  }
  return [lines.join('\n'), ...blocks].filter(Boolean).join('\n\n') || null;
}
