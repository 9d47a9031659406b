import type { QueryCondition } from '@cota/contracts';
import { BR_NUMBER, fold, NUMBER_SIGN, parseBrNumber, SCALE_WORD } from '@cota/text';

/**
 * Numeric conditions as investors write them: "DY acima de 15%", "p/vp abaixo de 1", "valor de
 * mercado acima de 1 bi", "acima de R$ 1 bi de valor de mercado". One grammar for the comparison
 * words and the number (with its scale); what the number is about is decided by the caller.
 */
export interface NumericCondition {
  op: 'gt' | 'lt';
  value: number;
  /** Where the comparison starts and the number ends in the folded text (to find what it is about). */
  start: number;
  end: number;
}

const ABOVE = [
  'passou de',
  'passaram de',
  'acima de',
  'acima dos',
  'acima da',
  'mais de',
  'maior que',
  'maior do que',
  'superior a',
  'superou',
  'ultrapassou',
  'maiores que',
  'acima do',
];
const BELOW = ['abaixo de', 'abaixo dos', 'abaixo da', 'abaixo do', 'menos de', 'menor que', 'menor do que', 'menores que', 'inferior a'];
const words = (list: string[]) =>
  list
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/ /g, '\\s+'))
    .join('|');
const CONDITION = new RegExp(`(?:^|[^a-z])(${words(ABOVE)}|${words(BELOW)})\\s+(?:r\\$\\s*)?(${NUMBER_SIGN}?(?:${BR_NUMBER}))\\s*(%|${SCALE_WORD})?(?![a-z0-9])`, 'g');
const ABOVE_SET = new Set(ABOVE);

/** Every numeric comparison in the text, in order, with its number scaled ("1 bi" = 1e9; "15%" = 15). */
export function readNumericConditions(text: string): NumericCondition[] {
  const folded = fold(text);
  const out: NumericCondition[] = [];
  for (const m of folded.matchAll(CONDITION)) {
    const op = ABOVE_SET.has(m[1].replace(/\s+/g, ' ')) ? 'gt' : 'lt';
    const raw = parseBrNumber(m[2], m[3] === '%' ? undefined : m[3])?.toNumber() ?? NaN;
    if (!Number.isFinite(raw)) continue;
    // Past any value a fund has (the contract's bound): the screen keeps its meaning, nothing meets it.
    const value = Math.max(-1e15, Math.min(1e15, raw));
    out.push({ op, value, start: m.index! + m[0].indexOf(m[1]), end: m.index! + m[0].length });
  }
  return out;
}

/** A column and the words that name it ("dy_pct": dy, dividend yield), each compiled once. */
export interface ConditionColumn {
  column: string;
  words: RegExp[];
}

/** Compiles a column's words, once at start-up. */
export function conditionColumn(column: string, words: readonly string[]): ConditionColumn {
  return { column, words: words.map((w) => new RegExp(`(?:^|[^a-z0-9/])${w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![a-z0-9])`, 'g')) };
}

/**
 * The conditions of a question on the columns an entity has: each comparison is about the column
 * named closest to it, before it ("DY acima de 15%") or right after its number ("acima de 1 bi de
 * valor de mercado"). A comparison naming no column of the entity is left out.
 */
export function conditionsOn(text: string, columns: readonly ConditionColumn[]): QueryCondition[] {
  return readClauses(text, columns).map((c) => c.condition);
}

/** The question without its conditions ("fundos de logística com valor de mercado acima de 1 bi, os 3 com menor p/vp" → "... os 3 com menor p/vp"). */
export function withoutConditions(text: string, columns: readonly ConditionColumn[]): string | null {
  const clauses = readClauses(text, columns);
  if (!clauses.length) return null;
  let folded = fold(text);
  for (const c of [...clauses].sort((a, b) => b.start - a.start)) folded = `${folded.slice(0, c.start)} ${folded.slice(c.end)}`;
  return folded.replace(/\s+/g, ' ').trim();
}

function readClauses(text: string, columns: readonly ConditionColumn[]): Array<{ condition: QueryCondition; start: number; end: number }> {
  const folded = fold(text);
  const out: Array<{ condition: QueryCondition; start: number; end: number }> = [];
  for (const c of readNumericConditions(text)) {
    const before = folded.slice(Math.max(0, c.start - 40), c.start);
    const after = folded.slice(c.end, c.end + 30);
    let best: { column: string; distance: number; from: number; to: number } | null = null;
    for (const col of columns) {
      for (const re of col.words) {
        for (const m of before.matchAll(re)) {
          const distance = before.length - (m.index! + m[0].length);
          const from = c.start - before.length + m.index!;
          if (!best || distance < best.distance) best = { column: col.column, distance, from, to: c.end };
        }
        re.lastIndex = 0;
        const a = re.exec(after);
        re.lastIndex = 0;
        if (a && (!best || a.index + 5 < best.distance)) best = { column: col.column, distance: a.index + 5, from: c.start, to: c.end + a.index + a[0].length };
      }
    }
    if (best && !out.some((o) => o.condition.column === best!.column && o.condition.op === c.op)) {
      out.push({ condition: { column: best.column, op: c.op, value: c.value }, start: best.from, end: best.to });
    }
  }
  return out.slice(0, 4);
}
