import Decimal from 'decimal.js';
import { fold } from './fold';

/** A scale word: "10 mil", "1,5 mi", "3 bilhões". `short` is how a chart abbreviates it. */
export interface Scale {
  factor: number;
  short: string;
  one: string;
  many: string;
  aliases: readonly string[];
}

/** The one table of pt-BR scale words, largest first. */
export const SCALES: readonly Scale[] = [
  { factor: 1e12, short: 'tri', one: 'trilhão', many: 'trilhões', aliases: [] },
  { factor: 1e9, short: 'bi', one: 'bilhão', many: 'bilhões', aliases: [] },
  { factor: 1e6, short: 'mi', one: 'milhão', many: 'milhões', aliases: ['mm'] },
  { factor: 1e3, short: 'mil', one: 'mil', many: 'mil', aliases: ['k'] },
];

const FACTOR_OF = new Map<string, number>(SCALES.flatMap((s) => [s.short, s.one, s.many, ...s.aliases].map((w) => [fold(w), s.factor] as [string, number])));

/** The factor of a scale word, written or folded ("milhões", "milhoes", "mi": 1e6); 1 without a word. */
export function scaleFactor(word: string | undefined): number {
  return word ? (FACTOR_OF.get(fold(word)) ?? 1) : 1;
}

/** The scale words as a regex alternation, written and folded, longest first ("milhões|milhoes|...|k"). */
export const SCALE_WORD = [...new Set(SCALES.flatMap((s) => [s.short, s.one, s.many, ...s.aliases]).flatMap((w) => [w, fold(w)]))].sort((a, b) => b.length - a.length).join('|');

/**
 * A pt-BR number's digits, as a regex source: "10.000,50" (a dot groups thousands), "1,5", also
 * "1.5" (a dot not followed by three-digit groups is a decimal point, as people type it). No sign.
 */
export const BR_NUMBER = String.raw`\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?`;

/** A sign written before a number, as a regex source: "-", the minus sign "−", "+". */
export const NUMBER_SIGN = String.raw`[-+\u2212]`;

const WRITTEN = new RegExp(String.raw`^(${NUMBER_SIGN})?\s*(${BR_NUMBER})$`);

/** The digits as a Decimal's source: thousands dots dropped, the decimal comma a point. */
function plainDigits(digits: string): string {
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(digits)) return digits.replace(/\./g, '').replace(',', '.');
  return digits.replace(',', '.');
}

/**
 * A pt-BR number as written, with its sign ("-100" is -100, "−1,5" is -1.5) and optional scale word
 * ("1,5", "mi": 1500000); null when it is not one (an exponent such as "1e300" is not pt-BR writing).
 */
export function parseBrNumber(raw: string, scale?: string): Decimal | null {
  const m = WRITTEN.exec(raw.trim());
  if (!m) return null;
  const magnitude = new Decimal(plainDigits(m[2])).times(scaleFactor(scale));
  return m[1] === '-' || m[1] === '\u2212' ? magnitude.negated() : magnitude;
}

const SCIENTIFIC = new RegExp(String.raw`(?<![\w.,])(?:${NUMBER_SIGN})?\d+(?:[.,]\d+)?e${NUMBER_SIGN}?\d+(?![\w])`, 'gi');

/** Numbers written in a notation pt-BR text is not read in ("1e300", "2E-5"), with where they are. */
export function unreadableNumbers(text: string): Array<{ raw: string; start: number; end: number }> {
  return [...text.matchAll(SCIENTIFIC)].map((m) => ({ raw: m[0], start: m.index!, end: m.index! + m[0].length }));
}

/** Why such a number was not read, for the person who wrote it. */
export function unreadableNumberMessage(raw: string): string {
  return `"${raw}" está em notação científica, que não sei ler; escreva o número com algarismos (por exemplo, 1.000.000) ou com a escala (1 milhão)`;
}
