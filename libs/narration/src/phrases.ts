import type { Column, QueryCondition, Turn } from '@cota/contracts';
import { foldWords } from '@cota/text';
import { displayLabel, formatColumnValue, joinPt } from './format';
import type { NarratorPolicy } from './policy';
import type { WindowUnit } from './templates';

/** Small pt-BR phrasing helpers shared by the renderers. */

/** Whether a keyword (or its start, "administrador" ~ "administradora") is a word of the question. */
export function mentions(normalizedQuestion: string, keyword: string): boolean {
  const k = foldWords(keyword);
  if (!k) return false;
  return ` ${normalizedQuestion}`.includes(` ${k}`);
}

/** "nos últimos 6 meses", "em 2024", "" (entity default). */
export function windowPhrase(window: string | null | undefined, unit: WindowUnit): string {
  if (!window) return '';
  const [kind, raw] = window.split(':');
  const n = Number(raw);
  const many = (m: string, f: string, gender: 'm' | 'f') => (gender === 'f' ? f : m);
  switch (kind) {
    case 'year':
      return `em ${raw}`;
    case 'months':
      return n === 1 ? 'no último mês' : `nos últimos ${n} meses`;
    case 'days':
      return n === 1 ? 'no último dia' : `nos últimos ${n} dias`;
    case 'rows':
      return n === 1 ? `${many('no último', 'na última', unit.gender)} ${unit.one}` : `${many('nos últimos', 'nas últimas', unit.gender)} ${n} ${unit.many}`;
    default:
      return '';
  }
}

/** "a, b ou c". */
export function joinOr(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ou ${items[items.length - 1]}`;
}

/**
 * Lower-cases the first word when it is an ordinary capitalised word ("O CNPJ" -> "o CNPJ"),
 * never a ticker or an acronym, so a prefix like "Maria, " or "Sobre o HGLG11: " reads naturally.
 */
export function lowerFirstWord(text: string): string {
  const m = /^(\p{Lu})(\p{Ll}*)(?=[\s,.:;!?]|$)/u.exec(text);
  if (!m) return text;
  return m[1].toLowerCase() + text.slice(1);
}

/**
 * Nickname use: on the first answer of a conversation, then at most once every N answers.
 * Derived from the recent turns only, so no extra state is kept anywhere.
 */
export function shouldUseNickname(nickname: string, recent: Turn[], policy: NarratorPolicy['nickname']): boolean {
  const name = nickname.trim();
  if (!name) return false;
  const answers = recent.filter((t) => t.role === 'assistant');
  if (answers.length === 0) return policy.first_answer;
  if (policy.every_n_answers === 0) return false;
  const lastUse = findLastIndex(answers, (t) => t.content.includes(name));
  const since = lastUse === -1 ? answers.length : answers.length - 1 - lastUse;
  return since >= policy.every_n_answers;
}

function findLastIndex<T>(items: T[], pred: (t: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i])) return i;
  return -1;
}

/** "Maria, o CNPJ ..." */
export function addressByNickname(nickname: string, answer: string): string {
  // A list or table cannot continue a sentence: the vocative gets a line of its own.
  if (startsWithStructure(answer)) return `${nickname.trim()}, veja:\n\n${answer}`;
  return `${nickname.trim()}, ${lowerFirstWord(answer)}`;
}

/** Whether a text opens with a markdown list, table, heading or quote. */
export function startsWithStructure(text: string): boolean {
  return /^([-*|>#]|\*\*)/.test(text.trimStart());
}

/** "do HGLG11" / "dos fundos HGLG11 e KNRI11". */
export function fundsPhrase(tickers: string[]): string {
  if (tickers.length === 0) return '';
  if (tickers.length === 1) return `do ${tickers[0]}`;
  return `dos fundos ${tickers.slice(0, -1).join(', ')} e ${tickers[tickers.length - 1]}`;
}

/** "P/VP abaixo de 1,00 e valor de mercado acima de R$ 1,00 bilhão": a screen's conditions as asked; null when a column is unknown. */
export function conditionsPhrase(conditions: readonly QueryCondition[] | undefined, columns: readonly Column[]): string | null {
  const said = (conditions ?? []).map((c) => {
    const col = columns.find((x) => x.name === c.column);
    if (!col) return null;
    const label = displayLabel(col.label);
    // "valor de mercado" in a sentence; acronyms ("DY", "P/VP") as written.
    const inSentence = /^[A-Z][a-zà-ú]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label;
    return `${inSentence} ${c.op === 'gt' ? 'acima de' : 'abaixo de'} ${formatColumnValue(c.value, col)}`;
  });
  return said.length && said.every((s) => s !== null) ? joinPt(said as string[]) : null;
}
