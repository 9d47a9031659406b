import Decimal from 'decimal.js';
import type { Column, Row } from '@cota/contracts';
import { CNPJ_PATTERN, fold, MONTH_NAMES, monthNumber, SCALE_WORD, scaleFactor } from '@cota/text';
import { dateParts, isMissing, toDecimal } from './format';

/**
 * The LLM guard: every number, date and code (ticker, CNPJ, ISIN) in a model's text must exist in
 * what the answer was built from (rows, the deterministic answer; never the question alone).
 * Strict where a wrong number could pass: a number keeps its sign ("queda de 1,08" is -1,08), and it
 * must be the fact rounded at the precision the model wrote, which may not be coarser than the
 * fact's own (up to 2 decimals; 4 below 1): "10%" does not stand for 9,5%. Tolerant to pt-BR vs en
 * writing ("1.234,56" / "1,234.56"), percent vs fraction (0.0131 ~ 1,31%) and scale words
 * ("350,4 milhões", read at the precision of the scaled figure).
 */

export interface AllowedFacts {
  numbers: Decimal[];
  /** yyyy-mm-dd */
  dates: Set<string>;
  /** yyyy-mm */
  months: Set<string>;
  /** mm-dd (a date written without its year) */
  daysOfYear: Set<string>;
  years: Set<string>;
  /** Upper-cased codes made of letters and digits (tickers, ISIN, process numbers), CNPJ digits. */
  codes: Set<string>;
}

export type GuardVerdict = { ok: true; checked: number } | { ok: false; token: string; checked: number };

interface NumberReading {
  value: Decimal;
  /** Half of the last written digit: "1,3" allows 1.25..1.35. */
  tolerance: Decimal;
  /** Decimals written (before any scale word). */
  decimals: number;
  /** The scale word's factor ("milhões": 1e6), 1 without one. */
  scale: number;
}

type Token =
  | { kind: 'number'; raw: string; readings: NumberReading[] }
  | { kind: 'date'; raw: string; iso: string }
  | { kind: 'month'; raw: string; ym: string }
  | { kind: 'day'; raw: string; md: string }
  | { kind: 'code'; raw: string; code: string };

const MONTH_ALT = MONTH_NAMES.map((m) => m.replace('ç', '[cç]')).join('|');
const pad = (n: number | string) => String(n).padStart(2, '0');

const PATTERNS: Array<{ re: RegExp; make: (m: RegExpExecArray) => Token | null }> = [
  {
    // CNPJ, masked or not
    re: new RegExp(`\\b${CNPJ_PATTERN}\\b`, 'g'),
    make: (m) => ({ kind: 'code', raw: m[0], code: m[0].replace(/\D/g, '') }),
  },
  {
    re: /\b(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?/g,
    make: (m) => ({ kind: 'date', raw: m[0], iso: `${m[1]}-${m[2]}-${m[3]}` }),
  },
  {
    re: /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g,
    make: (m) => ({ kind: 'date', raw: m[0], iso: `${m[3].length === 2 ? `20${m[3]}` : m[3]}-${pad(m[2])}-${pad(m[1])}` }),
  },
  {
    re: new RegExp(`\\b(\\d{1,2})º?\\s+de\\s+(${MONTH_ALT})(?:\\s+de\\s+(\\d{4}))?`, 'gi'),
    make: (m) => {
      const month = monthNumber(m[2]);
      return m[3] ? { kind: 'date', raw: m[0], iso: `${m[3]}-${pad(month)}-${pad(m[1])}` } : { kind: 'day', raw: m[0], md: `${pad(month)}-${pad(m[1])}` };
    },
  },
  {
    re: new RegExp(`\\b(${MONTH_ALT})(?:\\s+de\\s+|\\s*/\\s*)(\\d{4})\\b`, 'gi'),
    make: (m) => ({ kind: 'month', raw: m[0], ym: `${m[2]}-${pad(monthNumber(m[1]))}` }),
  },
  {
    re: /\b(\d{1,2})\/(\d{4})\b/g,
    make: (m) => (Number(m[1]) >= 1 && Number(m[1]) <= 12 ? { kind: 'month', raw: m[0], ym: `${m[2]}-${pad(m[1])}` } : null),
  },
  {
    // codes: at least two letters and a digit (HGLG11, BRHGLGCTF004, 16327-720...): must exist verbatim
    re: /\b(?=[A-Za-z0-9]*\d)(?=(?:[0-9]*[A-Za-z]){2})[A-Za-z0-9]{3,}\b/g,
    make: (m) => ({ kind: 'code', raw: m[0], code: m[0].toUpperCase() }),
  },
  {
    re: new RegExp(String.raw`(?<![\w.,])[-+−]?(?:\d{1,3}(?:[.,]\d{3})+(?!\d)(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?:\s*(${SCALE_WORD})\b)?`, 'gi'),
    make: (m) => {
      const raw = m[0].slice(0, m[1] ? m[0].toLowerCase().lastIndexOf(m[1].toLowerCase()) : undefined).trim();
      // "caiu 5,89%", "queda de 1,08": an unsigned figure after a word of decline is negative.
      const before = fold(m.input.slice(Math.max(0, m.index - 28), m.index));
      const declines = !/^[-+−]/.test(raw) && /(queda|caiu|cairam|recuo|recuou|perda|perdeu|desvaloriz\w*|negativ\w*|menos|baixa de)\s+(?:de\s+)?$/.test(before);
      const readings = readNumber(declines ? `-${raw}` : raw, scaleFactor(m[1]));
      return readings.length ? { kind: 'number', raw: m[0].trim(), readings } : null;
    },
  },
];

/** Every reading of a written number: "1.234" is 1234 (pt-BR) or 1.234 (en). */
export function readNumber(raw: string, scale = 1): NumberReading[] {
  const negative = /^[-−]/.test(raw);
  const s = raw.replace(/^[+\-−]/, '');
  const out: NumberReading[] = [];
  const push = (intPart: string, frac: string) => {
    const magnitude = new Decimal(`${intPart || '0'}${frac ? `.${frac}` : ''}`).times(scale);
    const tolerance = new Decimal(10).pow(-frac.length).times(0.5).times(scale);
    out.push({ value: negative ? magnitude.negated() : magnitude, tolerance, decimals: frac.length, scale });
  };
  const dots = (s.match(/\./g) ?? []).length;
  const commas = (s.match(/,/g) ?? []).length;
  if (dots && commas) {
    const decimalSep = s.lastIndexOf(',') > s.lastIndexOf('.') ? ',' : '.';
    const [i, f] = s.split(decimalSep);
    push(i.replace(/[.,]/g, ''), f ?? '');
  } else if (dots + commas === 0) {
    push(s, '');
  } else {
    const sep = dots ? '.' : ',';
    const parts = s.split(sep);
    if (parts.length > 2) push(parts.join(''), '');
    else {
      push(parts[0], parts[1]);
      if (parts[1].length === 3) push(parts.join(''), '');
    }
  }
  return out;
}

/** Finds the numbers, dates and codes of a text, each once, in order of appearance. */
export function extractTokens(text: string): Token[] {
  let work = text;
  const tokens: Array<{ at: number; token: Token }> = [];
  for (const { re, make } of PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    const found: Array<[number, number, Token]> = [];
    while ((m = re.exec(work)) !== null) {
      const t = make(m);
      if (t) found.push([m.index, m[0].length, t]);
      if (m[0].length === 0) re.lastIndex++;
    }
    // Blank what was recognised so "31/10/2025" is not read again as three numbers.
    for (const [at, len, t] of found) {
      tokens.push({ at, token: t });
      work = work.slice(0, at) + ' '.repeat(len) + work.slice(at + len);
    }
  }
  return tokens.sort((a, b) => a.at - b.at).map((t) => t.token);
}

export function emptyFacts(): AllowedFacts {
  return { numbers: [], dates: new Set(), months: new Set(), daysOfYear: new Set(), years: new Set(), codes: new Set() };
}

function addDate(facts: AllowedFacts, iso: string): void {
  facts.dates.add(iso);
  facts.months.add(iso.slice(0, 7));
  facts.daysOfYear.add(iso.slice(5, 10));
  facts.years.add(iso.slice(0, 4));
}

/** Adds what a text states (every reading of its numbers: it is trusted text). */
export function addText(facts: AllowedFacts, text: string): void {
  for (const t of extractTokens(text)) {
    switch (t.kind) {
      case 'number':
        for (const r of t.readings) facts.numbers.push(r.value);
        break;
      case 'date':
        addDate(facts, t.iso);
        break;
      case 'month':
        facts.months.add(t.ym);
        facts.years.add(t.ym.slice(0, 4));
        break;
      case 'day':
        facts.daysOfYear.add(t.md);
        break;
      case 'code':
        facts.codes.add(t.code);
        break;
    }
  }
}

/** Adds one stored value, read by its column type. */
export function addValue(facts: AllowedFacts, value: unknown, type?: Column['type']): void {
  if (isMissing(value)) return;
  if (type === 'date' || type === 'datetime' || value instanceof Date) {
    const p = dateParts(value);
    if (p) return addDate(facts, `${p.y}-${p.m}-${p.d}`);
  }
  if (type === 'cnpj') facts.codes.add(String(value).replace(/\D/g, ''));
  const d = toDecimal(value);
  if (d) {
    facts.numbers.push(d);
    // A fraction is said as a percent (0.0131 -> 1,31%).
    if (type === 'ratio' || (type === undefined && d.abs().lt(1))) facts.numbers.push(d.times(100));
    return;
  }
  if (typeof value === 'string') addText(facts, value);
  else if (typeof value === 'object') addText(facts, JSON.stringify(value));
}

export interface FactSources {
  rows?: Row[];
  columns?: Column[];
  /** Trusted texts: the deterministic answer, knowledge chunks (never the question: it states no facts). */
  texts?: string[];
  /** Numbers implied by the request (row count, window size). */
  numbers?: Array<number | string>;
}

export function collectAllowedFacts(src: FactSources): AllowedFacts {
  const facts = emptyFacts();
  const types = new Map((src.columns ?? []).map((c) => [c.name, c.type]));
  for (const row of src.rows ?? []) {
    for (const [name, value] of Object.entries(row)) addValue(facts, value, types.get(name));
  }
  for (const t of src.texts ?? []) addText(facts, t);
  for (const n of src.numbers ?? []) {
    const d = toDecimal(n);
    if (d) facts.numbers.push(d);
  }
  return facts;
}

/** The precision a fact is shown with: its own decimals, at most 2 (4 for amounts below 1). */
export function factPrecision(fact: Decimal): number {
  return Math.min(fact.decimalPlaces(), fact.abs().lt(1) ? 4 : 2);
}

/** Whether a written reading stands for this fact: same sign, the fact rounded at the written precision. */
export function readingMatches(r: NumberReading, fact: Decimal): boolean {
  // Figures with a scale word ("3,61 bilhões") are rounded at the scaled precision.
  const scaled = fact.div(r.scale);
  const need = r.scale === 1 ? factPrecision(fact) : Math.min(2, factPrecision(scaled));
  if (r.decimals < need) return false;
  const rounded = scaled.toDecimalPlaces(r.decimals, Decimal.ROUND_HALF_UP).times(r.scale);
  return rounded
    .minus(r.value)
    .abs()
    .lte(new Decimal(10).pow(-r.decimals - 6).times(r.scale));
}

function numberAllowed(readings: NumberReading[], facts: AllowedFacts): boolean {
  for (const r of readings) {
    const v = r.value.abs();
    // A bare year ("em 2025") is allowed when a date of that year is.
    if (r.decimals === 0 && r.scale === 1 && v.gte(1900) && v.lte(2100) && facts.years.has(v.toString())) return true;
    if (facts.numbers.some((a) => readingMatches(r, a))) return true;
  }
  return false;
}

/**
 * Checks a model's text against the allowed facts. The first token that is not backed by the
 * data is returned, so meta.narrator can say exactly why the model's text was dropped.
 */
export function guardLlmText(text: string, allowed: AllowedFacts): GuardVerdict {
  const tokens = extractTokens(text);
  for (const t of tokens) {
    let ok: boolean;
    switch (t.kind) {
      case 'number':
        ok = numberAllowed(t.readings, allowed);
        break;
      case 'date':
        ok = allowed.dates.has(t.iso);
        break;
      case 'month':
        ok = allowed.months.has(t.ym);
        break;
      case 'day':
        ok = allowed.daysOfYear.has(t.md);
        break;
      case 'code':
        ok = allowed.codes.has(t.code);
        break;
    }
    if (!ok) return { ok: false, token: t.raw, checked: tokens.length };
  }
  return { ok: true, checked: tokens.length };
}
