import { fold } from '@cota/text';

/**
 * Checks one answer against what an answer-accuracy set expects (test/eval/answers/*.jsonl): the
 * value (in the answer's text, the Brazilian way, sign kept, at the precision asked), the period,
 * the subject, dates, facts, the adjusted-price note and the outcome. Pure: the runner asks, this judges.
 */
export interface ExpectedValue {
  v: number;
  dp?: number;
  kind?: string;
}

export interface Expectation {
  values?: ExpectedValue[];
  dates?: string[];
  texts?: string[];
  subjects?: string[];
  ordered_subjects?: string[];
  period?: { from: string; to: string } | null;
  adjusted?: boolean;
  status?: 'ok' | 'no_data' | 'clarify' | 'not_advice';
}

export interface EvalTurn {
  q: string;
  expect: Expectation;
}

export interface EvalItem {
  id: string;
  category?: string;
  client_id?: string;
  turns: EvalTurn[];
  evidence?: string;
}

export interface AnswerSeen {
  http: number;
  status: string;
  answer: string;
  /** meta.planner.reason, shown with --verbose. */
  reason?: string;
}

const MONTHS = ['janeiro', 'fevereiro', 'marco', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];
const SHORT = MONTHS.map((m) => m.slice(0, 3));

/** Every number written in the text, pt-BR style ("-5,89", "3.116,28", "1.234"), with its sign. */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  // "-R$ 21,04" is how a negative amount is written in Brazil: the sign may come before the currency.
  const re = /([-−–+]?)\s?(?:R\$\s*)?(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const body = m[2].replace(/\./g, '').replace(',', '.');
    const n = Number(body);
    if (!Number.isFinite(n)) continue;
    const negative = m[1] === '-' || m[1] === '−' || m[1] === '–';
    // "de 2024-2025" or a date's dash is not a sign: only a sign right before the digits counts.
    out.push(negative && !/\d$/.test(text.slice(Math.max(0, m.index - 1), m.index)) ? -n : n);
  }
  return out;
}

/** Whether the value appears at the asked precision (rounded either way), sign included. */
export function hasValue(text: string, e: ExpectedValue, scales = [1e9, 1e6]): boolean {
  const dp = e.dp ?? 2;
  const tol = 0.5 * 10 ** -dp + 1e-9;
  const candidates = [e.v];
  if (e.kind === 'ratio' && Math.abs(e.v) < 5) candidates.push(e.v * 100);
  const nums = numbersIn(text);
  return candidates.some((v) =>
    nums.some((n) => Math.abs(n - v) <= tol || Math.abs(n - Number(v.toFixed(dp))) < 1e-9 || scales.some((s) => Math.abs(v) >= s && Math.abs(n * s - v) <= 0.005 * s)),
  );
}

/** An expected date as the answer writes it: ISO (2024-12-30) or already Brazilian (30/12/2024). */
const brDate = (d: string) => (/^\d{2}\/\d{2}\/\d{4}$/.test(d) ? d : `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`);

/** Ways an answer may name a month: "março de 2024", "03/2024", "mar/2024", or a day in it. */
function mentionsMonth(text: string, iso: string, withYear = true): boolean {
  const y = iso.slice(0, 4);
  const m = Number(iso.slice(5, 7));
  const t = fold(text);
  const forms = withYear
    ? [`${MONTHS[m - 1]} de ${y}`, `${iso.slice(5, 7)}/${y}`, `${SHORT[m - 1]}/${y}`, `${SHORT[m - 1]}/${y.slice(2)}`, `${MONTHS[m - 1]} ${y}`]
    : [MONTHS[m - 1]];
  if (forms.some((f) => t.includes(f))) return true;
  return new RegExp(`\\b\\d{2}/${iso.slice(5, 7)}/${y}\\b`).test(t);
}

/** Whether the answer says which period it is about. */
export function mentionsPeriod(text: string, p: { from: string; to: string }): boolean {
  const t = fold(text);
  const [fy, fm, fd] = [p.from.slice(0, 4), p.from.slice(5, 7), p.from.slice(8, 10)];
  const [ty, tm] = [p.to.slice(0, 4), p.to.slice(5, 7)];
  if (p.from === p.to) return t.includes(brDate(p.from));
  const wholeYear = fm === '01' && fd === '01' && p.to.slice(5) === '12-31';
  if (wholeYear && fy === ty) return new RegExp(`\\b${fy}\\b`).test(t);
  if (wholeYear) return new RegExp(`\\b${fy}\\b`).test(t) && new RegExp(`\\b${ty}\\b`).test(t);
  if (fy === ty && fm === tm) return mentionsMonth(text, p.from);
  // A year asked whose data starts or ends inside it ("em 2025 (dados até 17/11/2025)", "o IFIL em 2024"
  // when it starts in July): naming the year, and the data's end when it is not December 31, states it.
  if (fy === ty && new RegExp(`\\b(?:em|de|no ano de|ano) ${fy}\\b`).test(t) && (p.to.slice(5) === '12-31' || t.includes(brDate(p.to)) || fd !== '01' || fm !== '01')) return true;
  // A range: both ends named (the first month may omit the year when both are in one year).
  const start = mentionsMonth(text, p.from) || (fy === ty && mentionsMonth(text, p.from, false)) || t.includes(brDate(p.from));
  const end = mentionsMonth(text, p.to) || t.includes(brDate(p.to));
  const quarter = fy === ty && /tri(mestre)?/.test(t) && t.includes(fy);
  const semester = fy === ty && /semestre/.test(t) && t.includes(fy);
  return (start && end) || quarter || semester;
}

const SUBJECT_FORMS: Record<string, string[]> = {
  USD: ['usd', 'dolar'],
  EUR: ['eur', 'euro'],
  SELIC: ['selic'],
  'IGP-M': ['igp-m', 'igpm', 'igp m'],
  IBOV: ['ibov', 'ibovespa'],
};

export function mentionsSubject(text: string, s: string): boolean {
  const t = fold(text);
  return (SUBJECT_FORMS[s.toUpperCase()] ?? [fold(s)]).some((f) => t.includes(f));
}

const NO_DATA = /nao (?:encontrei|tenho|ha dados|ha registro|temos)|sem dados|nao possuo|nao consta|fora do periodo/;
const NOT_ADVICE = /nao (?:recomend|faco recomenda|e (?:uma )?recomenda|posso recomendar|indico)|nao e recomendacao|recomendacao de (?:compra|investimento)/;

/** Every failed check of one turn (empty: the turn passed). */
export function checkTurn(seen: AnswerSeen, e: Expectation): string[] {
  const fails: string[] = [];
  const text = seen.answer ?? '';
  const t = fold(text);
  if (seen.http !== 200) return [`HTTP ${seen.http}`];
  const status = e.status ?? 'ok';
  if (status === 'clarify') {
    if (seen.status !== 'needs_clarification') fails.push(`expected a question back, got status ${seen.status}`);
    return fails;
  }
  if (status === 'no_data') {
    if (!NO_DATA.test(t)) fails.push('expected "no data" for the period');
  } else if (status === 'not_advice') {
    if (!NOT_ADVICE.test(t)) fails.push('expected a plain note that Cota does not recommend');
  } else if (seen.status !== 'ok') fails.push(`status ${seen.status}`);
  for (const v of e.values ?? []) if (!hasValue(text, v)) fails.push(`value ${v.v} (${v.dp ?? 2} dp) not in the answer`);
  for (const d of e.dates ?? []) if (!t.includes(brDate(d))) fails.push(`date ${brDate(d)} not in the answer`);
  for (const x of e.texts ?? []) if (!t.replace(/\s+/g, ' ').includes(fold(x).replace(/\s+/g, ' '))) fails.push(`"${x}" not in the answer`);
  for (const s of e.subjects ?? []) if (!mentionsSubject(text, s)) fails.push(`subject ${s} not named`);
  if (e.ordered_subjects?.length) {
    const pos = e.ordered_subjects.map((s) => t.indexOf(fold(s)));
    if (pos.some((p) => p < 0) || pos.some((p, i) => i > 0 && p < pos[i - 1])) fails.push(`ranking order ${e.ordered_subjects.join(' > ')} not found`);
  }
  if (e.period && status === 'ok' && !mentionsPeriod(text, e.period)) fails.push(`period ${e.period.from}..${e.period.to} not stated`);
  if (e.adjusted && !/ajustad/.test(t)) fails.push('does not say the values are adjusted');
  return fails;
}
