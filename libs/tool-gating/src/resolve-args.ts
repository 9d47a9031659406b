import { TICKER_RE, unreadableNumberMessage, unreadableNumbers } from '@cota/text';
import { ArgSpec, CONTEXT_SOURCES, ToolContract } from './policy';

const CONTEXT_SOURCE_SET: Record<string, true> = Object.fromEntries(CONTEXT_SOURCES.map((k) => [k, true]));

const EMAIL_RE = /^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i;
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;

/** A real calendar date written YYYY-MM-DD. */
function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export type Coerced = { ok: true; value: unknown } | { ok: false; detail: string };

/** Why a value is not a number: its notation when it is one that is not read ("1e300"), else `otherwise`. */
function notANumber(values: unknown[], otherwise: string): Coerced {
  const unreadable = values.flatMap((v) => (typeof v === 'string' ? unreadableNumbers(v.trim()) : []))[0];
  return { ok: false, detail: unreadable ? unreadableNumberMessage(unreadable.raw) : otherwise };
}

/** Null, undefined, blank strings and empty lists count as "not given". */
export function isAbsent(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

/** Checks a value against its declared type, normalising harmless differences ("24" → 24). */
export function coerceArg(spec: ArgSpec, v: unknown): Coerced {
  switch (spec.type) {
    case 'string':
      if (typeof v === 'string') return { ok: true, value: v.trim() };
      if (typeof v === 'number') return { ok: true, value: String(v) };
      return { ok: false, detail: 'deveria ser um texto' };
    case 'integer': {
      const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
      return typeof n === 'number' && Number.isInteger(n) ? { ok: true, value: n } : { ok: false, detail: 'deveria ser um número inteiro' };
    }
    case 'decimal': {
      // Kept as a decimal string so that no float rounding happens between services.
      const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : null;
      return s !== null && DECIMAL_RE.test(s) ? { ok: true, value: s } : notANumber([v], 'deveria ser um número');
    }
    case 'boolean':
      if (typeof v === 'boolean') return { ok: true, value: v };
      if (v === 'true' || v === 'false') return { ok: true, value: v === 'true' };
      return { ok: false, detail: 'deveria ser verdadeiro ou falso' };
    case 'email':
      return typeof v === 'string' && EMAIL_RE.test(v.trim()) ? { ok: true, value: v.trim().toLowerCase() } : { ok: false, detail: 'não é um endereço de e-mail válido' };
    case 'enum':
      return typeof v === 'string' && spec.values!.includes(v) ? { ok: true, value: v } : { ok: false, detail: `deveria ser um destes: ${spec.values!.join(', ')}` };
    case 'decimal_list': {
      const list = Array.isArray(v) ? v.map((x) => (typeof x === 'number' && Number.isFinite(x) ? String(x) : typeof x === 'string' ? x.trim() : null)) : null;
      return list && list.length > 0 && list.every((x) => x !== null && DECIMAL_RE.test(x))
        ? { ok: true, value: list }
        : notANumber(list ?? [], 'deveria ser uma lista de números');
    }
    case 'date':
      return typeof v === 'string' && isIsoDate(v.trim()) ? { ok: true, value: v.trim() } : { ok: false, detail: 'deveria ser uma data válida' };
    case 'ticker': {
      const t = typeof v === 'string' ? v.trim().toUpperCase() : '';
      return TICKER_RE.test(t) ? { ok: true, value: t } : { ok: false, detail: 'deveria ser o código de um fundo (ex.: HGLG11)' };
    }
    case 'string_list': {
      const list = typeof v === 'string' ? [v] : v;
      return Array.isArray(list) && list.every((x) => typeof x === 'string' && x.trim() !== '')
        ? { ok: true, value: list.map((x: string) => x.trim()) }
        : { ok: false, detail: 'deveria ser uma lista de textos' };
    }
  }
}

export interface Injection {
  arg: string;
  value: unknown;
  /** `session:<key>`, `context:<source>` or `default`. */
  source: string;
}

export interface Resolution {
  args: Record<string, unknown>;
  injected: Injection[];
  /** Required arguments nothing could fill, with their pt-BR message. */
  missing: Array<{ arg: string; message: string }>;
  /** Explicit values of the wrong type. */
  invalid: Array<{ arg: string; detail: string }>;
  /** Arguments given that the contract does not declare (dropped, reported for audit). */
  ignored: string[];
}

/**
 * Fills a tool's arguments with the priority the seed asks for: an explicit value (tool call or
 * question) always wins; then the session keys listed in `inject_from`, in order; then the
 * declared default. Every value that did not come from the person is recorded in `injected`.
 * An expired or malformed session value is skipped, never used.
 */
export function resolveArgs(contract: ToolContract, explicit: Record<string, unknown>, session: Record<string, unknown>): Resolution {
  const res: Resolution = { args: {}, injected: [], missing: [], invalid: [], ignored: [] };
  res.ignored = Object.keys(explicit).filter((k) => !contract.args[k] && !isAbsent(explicit[k]));

  for (const [arg, spec] of Object.entries(contract.args)) {
    if (!isAbsent(explicit[arg])) {
      const c = coerceArg(spec, explicit[arg]);
      if (c.ok) res.args[arg] = c.value;
      else res.invalid.push({ arg, detail: c.detail });
      continue;
    }
    let filled = false;
    for (const key of spec.inject_from) {
      if (isAbsent(session[key])) continue;
      const c = coerceArg(spec, session[key]);
      if (!c.ok) continue;
      res.args[arg] = c.value;
      res.injected.push({ arg, value: c.value, source: key in CONTEXT_SOURCE_SET ? `context:${key}` : `session:${key}` });
      filled = true;
      break;
    }
    if (filled) continue;
    if (spec.default !== undefined) {
      res.args[arg] = spec.default;
      res.injected.push({ arg, value: spec.default, source: 'default' });
      continue;
    }
    const waived = spec.required_unless.some((set) => set.every((a) => !isAbsent(explicit[a])));
    if (spec.required && !waived) res.missing.push({ arg, message: spec.missing_message ?? `Falta o argumento ${arg}.` });
  }
  // Arguments needed only in some cases ("vpl" needs fluxos and taxa), once the case is known.
  for (const rule of contract.required_when) {
    if (!matches(rule.when, res.args)) continue;
    for (const arg of rule.args) {
      if (isAbsent(res.args[arg]) && !res.missing.some((m) => m.arg === arg) && !res.invalid.some((i) => i.arg === arg)) {
        res.missing.push({ arg, message: contract.args[arg].missing_message ?? `Falta o argumento ${arg}.` });
      }
    }
  }
  for (const rule of contract.require_any_when) {
    if (matches(rule.when, res.args) && rule.args.every((a) => isAbsent(res.args[a]))) res.missing.push({ arg: rule.args.join('|'), message: rule.message });
  }
  return res;
}

function matches(when: Record<string, string[]>, args: Record<string, unknown>): boolean {
  return Object.entries(when).every(([arg, values]) => typeof args[arg] === 'string' && values.includes(args[arg] as string));
}
