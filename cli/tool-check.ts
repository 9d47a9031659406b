/**
 * Checks one answer of a tool-request set: the tool Cota ran (or did not run), its status, the
 * arguments the message stated, and the reference values of calculations in the answer text.
 */
import { addDays, addMonths, todayInBrazil } from '@cota/periods';
import { ExpectedValue, hasValue } from './answer-check';

export interface ToolExpectation {
  /** The tool expected, or null when the message must not run a tool. */
  tool: string | null;
  status?: string;
  args?: Record<string, unknown>;
  values?: ExpectedValue[];
  kind?: string;
}

export interface ToolItem {
  id: string;
  category?: string;
  client_id?: string;
  turns: Array<{ q: string; expect: ToolExpectation }>;
}

export interface ToolSeen {
  http: number;
  answer: string;
  tool: { name?: string; args?: Record<string, unknown>; status?: string } | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOf = (first: string) => addDays(addMonths(first, 1), -1);

/**
 * Date tokens of the sets, resolved against today in Brazil: {hoje}, {ontem}, {dia:5} (this month's
 * 5th, or last month's when still ahead), {mes_atual_inicio|fim}, {mes_anterior_inicio|fim},
 * {ano_atual_inicio|fim}, {mes:10_inicio|fim} (the latest October that has started).
 */
export function resolveDateToken(value: string, today: string = todayInBrazil()): string {
  const monthStart = `${today.slice(0, 7)}-01`;
  return value.replace(/\{([a-z_]+)(?::(\d{1,2}))?(?:_(inicio|fim))?\}/g, (whole, name: string, n: string | undefined, edge: string | undefined) => {
    const pick = (first: string, last: string) => (edge === 'fim' || name.endsWith('_fim') ? last : first);
    switch (name) {
      case 'hoje':
        return today;
      case 'ontem':
        return addDays(today, -1);
      case 'dia': {
        const d = Number(n);
        const base = d > Number(today.slice(8)) ? addMonths(monthStart, -1) : monthStart;
        return `${base.slice(0, 8)}${pad(d)}`;
      }
      case 'mes_atual_inicio':
      case 'mes_atual_fim':
        return pick(monthStart, lastDayOf(monthStart));
      case 'mes_anterior_inicio':
      case 'mes_anterior_fim': {
        const first = addMonths(monthStart, -1);
        return pick(first, lastDayOf(first));
      }
      case 'ano_atual_inicio':
      case 'ano_atual_fim':
        return pick(`${today.slice(0, 4)}-01-01`, `${today.slice(0, 4)}-12-31`);
      case 'mes': {
        const m = Number(n);
        const y = Number(today.slice(0, 4)) - (m > Number(today.slice(5, 7)) ? 1 : 0);
        const first = `${y}-${pad(m)}-01`;
        return pick(first, lastDayOf(first));
      }
      default:
        return whole;
    }
  });
}

const isNumeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()));

/** Same value: numbers by value ("149.90" = "149.9" = 149.9), lists item by item, text case-insensitively. */
export function sameArg(expected: unknown, seen: unknown, today?: string): boolean {
  if (Array.isArray(expected)) return Array.isArray(seen) && seen.length === expected.length && expected.every((e, i) => sameArg(e, seen[i], today));
  if (isNumeric(expected) && isNumeric(seen)) return Math.abs(Number(expected) - Number(seen)) <= 1e-9 * Math.max(1, Math.abs(Number(expected)));
  if (typeof expected === 'string') return typeof seen === 'string' && resolveDateToken(expected, today).toLowerCase() === seen.toLowerCase();
  return expected === seen;
}

/** What is wrong with one answer (empty when it passes). */
export function checkToolTurn(seen: ToolSeen, e: ToolExpectation, today?: string): string[] {
  const fails: string[] = [];
  if (seen.http !== 200) return [`HTTP ${seen.http}`];
  if (e.tool === null) {
    if (seen.tool?.name) fails.push(`ran tool ${seen.tool.name}, expected none`);
    return fails;
  }
  if (seen.tool?.name !== e.tool) return [`tool ${seen.tool?.name ?? 'none'}, expected ${e.tool}`];
  if (e.status && seen.tool.status !== e.status) fails.push(`status ${seen.tool.status}, expected ${e.status}`);
  for (const [arg, want] of Object.entries(e.args ?? {})) {
    const got = seen.tool.args?.[arg];
    if (!sameArg(want, got, today)) fails.push(`${arg}=${JSON.stringify(got)}, expected ${JSON.stringify(typeof want === 'string' ? resolveDateToken(want, today) : want)}`);
  }
  for (const v of e.values ?? []) if (!hasValue(seen.answer, v)) fails.push(`value ${v.v} (dp ${v.dp}) not in the answer`);
  return fails;
}
