import { Dec } from '@cota/finance';

/** Where a quantity sits in the normalised question (for deciding its role from nearby words). */
export interface Span {
  start: number;
  end: number;
}

export interface MoneyMention extends Span {
  kind: 'money';
  value: Dec;
}
export interface RateMention extends Span {
  kind: 'rate';
  /** Fraction per period: "1,5%" → 0.015. */
  value: Dec;
  /** The period the text states, or null when it states none. */
  period: 'mes' | 'ano' | null;
}
export interface DurationMention extends Span {
  kind: 'duration';
  months: number;
  /** The unit as written (for explaining the result in the person's own terms). */
  unit: 'meses' | 'anos';
  amount: number;
}
export type Mention = MoneyMention | RateMention | DurationMention;

const MULTIPLIERS: Record<string, string> = {
  mil: '1e3',
  k: '1e3',
  milhao: '1e6',
  milhoes: '1e6',
  mi: '1e6',
  bilhao: '1e9',
  bilhoes: '1e9',
  bi: '1e9',
};

/**
 * Parses a pt-BR number: "10.000" (dot groups thousands), "10.000,50", "1,5", also "1.5" (a dot
 * not followed by exactly three-digit groups is read as a decimal point, as people type it).
 */
export function parseBrNumber(raw: string): Dec | null {
  const s = raw.trim();
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) return new Dec(s.replace(/\./g, '').replace(',', '.'));
  if (/^\d+,\d+$/.test(s)) return new Dec(s.replace(',', '.'));
  if (/^\d+(\.\d+)?$/.test(s)) return new Dec(s);
  return null;
}

const NUMBER = String.raw`\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?`;
const RATE_PERIOD = String.raw`(?:\s*(a\.?\s?m\.?|a\.?\s?a\.?|ao mes|ao ano|por mes|por ano|mensal|mensais|anual|anuais|a cada mes|a cada ano|de juros ao mes|de juros ao ano|de juros mensais|de juros anuais|de juros))?`;

/** The quantities of the last text read (see findMentions). */
let last: { text: string | null; mentions: readonly Mention[] } = { text: null, mentions: [] };

/**
 * Finds money amounts, rates and durations in normalised text (see `normalizeText`).
 * A number followed by `%` is a rate; followed by meses/anos a duration; otherwise money
 * (with "R$" or a multiplier such as "mil", or a bare number).
 */
export function findMentions(text: string): readonly Mention[] {
  // The planner and the extractors read the same question's quantities in turn: the last text's are kept.
  if (text === last.text) return last.mentions;
  last = { text, mentions: Object.freeze(readMentions(text)) };
  return last.mentions;
}

// matchAll works on a copy of each, so module-level /g expressions keep no state between calls.
const RATE_RE = new RegExp(String.raw`(${NUMBER})\s*%${RATE_PERIOD}`, 'g');
const DURATION_RE = new RegExp(String.raw`(${NUMBER})\s*(anos?|mes(?:es)?)(?:\s+e\s+(?:(${NUMBER})\s*(mes(?:es)?)|(meio)))?\b`, 'g');
const MONEY_RE = new RegExp(String.raw`(r\$\s*)?(${NUMBER})(?:\s*(mil|milhao|milhoes|mi|bilhao|bilhoes|bi|k)\b)?`, 'g');

function readMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const taken: Span[] = [];
  const free = (s: number, e: number) => taken.every((t) => e <= t.start || s >= t.end);

  for (const m of text.matchAll(RATE_RE)) {
    const n = parseBrNumber(m[1]);
    if (!n) continue;
    const p = (m[2] ?? '').replace(/\s+/g, ' ').trim();
    let period: RateMention['period'] = null;
    if (/^(a\.? ?m\.?|ao mes|por mes|mensa|a cada mes|de juros ao mes|de juros mensa)/.test(p)) period = 'mes';
    else if (/^(a\.? ?a\.?|ao ano|por ano|anua|a cada ano|de juros ao ano|de juros anua)/.test(p)) period = 'ano';
    const start = m.index!;
    const end = start + m[0].length;
    out.push({ kind: 'rate', value: n.div(100), period, start, end });
    taken.push({ start, end });
  }

  // "1 ano e 6 meses" counts as one duration of 18 months.
  for (const m of text.matchAll(DURATION_RE)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    // "R$ 500 por mes" / "500 mensais" are not durations: "mes" there is preceded by "por", handled by the money pass.
    const n = parseBrNumber(m[1]);
    if (!n || !n.isInteger()) continue;
    const years = m[2].startsWith('ano');
    let months = years ? n.toNumber() * 12 : n.toNumber();
    if (m[3]) {
      const extra = parseBrNumber(m[3]);
      if (extra?.isInteger()) months += extra.toNumber();
    }
    // "1 ano e meio": half of the unit said.
    if (m[5]) months += years ? 6 : 0;
    const whole = !m[3] && !m[5];
    out.push({ kind: 'duration', months, unit: years && whole ? 'anos' : 'meses', amount: years && whole ? n.toNumber() : months, start, end });
    taken.push({ start, end });
  }

  for (const m of text.matchAll(MONEY_RE)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    // Skip digits glued to letters (tickers such as hglg11, report ids, e-mails).
    const before = text[start - 1] ?? ' ';
    if (/[a-z0-9_@.]/.test(before) && !m[1]) continue;
    const after = text[end] ?? ' ';
    if (/[a-z_@]/.test(after)) continue;
    let n = parseBrNumber(m[2]);
    if (!n) continue;
    if (m[3]) n = n.times(MULTIPLIERS[m[3]]);
    out.push({ kind: 'money', value: n, start, end });
    taken.push({ start, end });
  }
  return out.sort((a, b) => a.start - b.start);
}
