import { Dec } from '@cota/finance';
import { BR_NUMBER, NUMBER_SIGN, parseBrNumber, SCALE_WORD, unreadableNumbers } from '@cota/text';

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
/** A number written in a notation that is not read ("1e300"): kept whole, as written, for the gate to refuse. */
export interface UnreadableMention extends Span {
  kind: 'unreadable';
  raw: string;
}
export type Mention = MoneyMention | RateMention | DurationMention | UnreadableMention;

/** A pt-BR number with its sign and scale, in the precision of the finance math; null when not one. */
export function readAmount(raw: string, scale?: string): Dec | null {
  const n = parseBrNumber(raw, scale);
  return n && new Dec(n);
}

const NUMBER = BR_NUMBER;
/** A sign counts when it is written against the number ("-1%", "−R$ 5"), not after a word or a number ("d-1", "2020-2021"). */
const SIGN = String.raw`(?:(?<![\w.,])(${NUMBER_SIGN}))?`;
const RATE_PERIOD = String.raw`(?:\s*(a\.?\s?m\.?|a\.?\s?a\.?|ao mes|ao ano|por mes|por ano|mensal|mensais|anual|anuais|a cada mes|a cada ano|de juros ao mes|de juros ao ano|de juros mensais|de juros anuais|de juros))?`;

/** The quantities of the last text read (see findMentions). */
let last: { text: string | null; mentions: readonly Mention[] } = { text: null, mentions: [] };

/**
 * Finds money amounts, rates and durations in normalised text (see `normalizeText`), each with
 * its sign; a number in scientific notation is one unreadable mention, never two numbers.
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
const RATE_RE = new RegExp(String.raw`${SIGN}(${NUMBER})\s*%${RATE_PERIOD}`, 'g');
const DURATION_RE = new RegExp(String.raw`(${NUMBER})\s*(anos?|mes(?:es)?)(?:\s+e\s+(?:(${NUMBER})\s*(mes(?:es)?)|(meio)))?\b`, 'g');
const MONEY_RE = new RegExp(String.raw`${SIGN}(r\$\s*)?(${NUMBER})(?:\s*(${SCALE_WORD})\b)?`, 'g');

function readMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const taken: Span[] = [];
  const free = (s: number, e: number) => taken.every((t) => e <= t.start || s >= t.end);

  for (const u of unreadableNumbers(text)) {
    out.push({ kind: 'unreadable', ...u });
    taken.push(u);
  }

  for (const m of text.matchAll(RATE_RE)) {
    const start = m.index!;
    const end = start + m[0].length;
    const n = free(start, end) ? readAmount(`${m[1] ?? ''}${m[2]}`) : null;
    if (!n) continue;
    const p = (m[3] ?? '').replace(/\s+/g, ' ').trim();
    let period: RateMention['period'] = null;
    if (/^(a\.? ?m\.?|ao mes|por mes|mensa|a cada mes|de juros ao mes|de juros mensa)/.test(p)) period = 'mes';
    else if (/^(a\.? ?a\.?|ao ano|por ano|anua|a cada ano|de juros ao ano|de juros anua)/.test(p)) period = 'ano';
    out.push({ kind: 'rate', value: n.div(100), period, start, end });
    taken.push({ start, end });
  }

  // "1 ano e 6 meses" counts as one duration of 18 months.
  for (const m of text.matchAll(DURATION_RE)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    // "R$ 500 por mes" / "500 mensais" are not durations: "mes" there is preceded by "por", handled by the money pass.
    const n = readAmount(m[1]);
    if (!n || !n.isInteger()) continue;
    const years = m[2].startsWith('ano');
    let months = years ? n.toNumber() * 12 : n.toNumber();
    if (m[3]) {
      const extra = readAmount(m[3]);
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
    if (/[a-z0-9_@.]/.test(before) && !m[2]) continue;
    const after = text[end] ?? ' ';
    if (/[a-z_@]/.test(after)) continue;
    const n = readAmount(`${m[1] ?? ''}${m[3]}`, m[4]);
    if (!n) continue;
    out.push({ kind: 'money', value: n, start, end });
    taken.push({ start, end });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Amounts said in words that people use for round figures: "meio milhão", "um milhão", "dez mil", and "mil" alone
 * before reais or a month ("ganhar mil reais por mês").
 */
export function spelledAmounts(text: string): string {
  return text
    .replace(/\bmeio milhao\b/g, '500 mil')
    .replace(/\bum milhao\b/g, '1 milhao')
    .replace(/\b(dois|tres|cinco|dez) milhoes\b/g, (_w, k: string) => `${{ dois: 2, tres: 3, cinco: 5, dez: 10 }[k]} milhoes`)
    .replace(/\b(dois|tres|cinco|dez|cem|vinte|cinquenta) mil\b/g, (_w, k: string) => `${{ dois: 2, tres: 3, cinco: 5, dez: 10, cem: 100, vinte: 20, cinquenta: 50 }[k]} mil`)
    .replace(/(^|[^\d\s])(\s*)\bmil (reais|por mes)\b/g, '$1$2 1000 $3');
}
