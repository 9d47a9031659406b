import type { PeriodSpec } from '@cota/contracts';
import { fold, MONTH_NAMES, monthAbbreviation, withoutTickers } from '@cota/text';

/**
 * A grammar of Brazilian Portuguese periods: "em março de 2024", "mar/24", "03/2024", "entre junho
 * e setembro de 2023", "de janeiro a junho de 2025", "no 1º trimestre", "este ano", "ano passado",
 * "nos últimos 6 meses", "desde 2020", "ontem", "hoje", "13/06/2025". Works on folded text (no
 * accents, lower case, punctuation kept) and returns the symbolic period plus the words it used.
 */
export interface ParsedPeriod {
  spec: PeriodSpec;
  /** The words of the question that made the period (for meta and to hide them from other rules). */
  matched: string;
  /**
   * "no mês seguinte", "o trimestre anterior", "no dia seguinte": a period next to the one the
   * conversation is about (a follow-up moves it with shiftPeriod); `spec` is what it means alone.
   */
  shift?: PeriodShift;
  /**
   * "cotistas em dez/2020 e em dez/2023": two dates joined by "e". `spec` is the first; `span` runs
   * from the earlier to the later, for a level read at both ends.
   */
  span?: Extract<PeriodSpec, { kind: 'range' }>;
}

export type ShiftUnit = 'day' | 'month' | 'quarter' | 'semester' | 'year';
export interface PeriodShift {
  unit: ShiftUnit;
  offset: number;
  /** "um ano depois", "três meses antes": the same period moved (December → December), not the next unit-long one. */
  keep?: boolean;
  /** "no último dia do mês": the last day of the period it lands on. */
  lastDay?: boolean;
}

/** Each month's folded name and abbreviation ("marco", "mar"), from the one list of months. */
const MONTHS: Array<[number, string[]]> = MONTH_NAMES.map((name, i) => [i + 1, [fold(name), monthAbbreviation(i + 1)!]]);
const MONTH_OF = new Map<string, number>(MONTHS.flatMap(([n, names]) => names.map((w) => [w, n] as [string, number])));
const FULL_MONTH = MONTHS.map(([, names]) => names[0]).join('|');
const ANY_MONTH = MONTHS.flatMap(([, names]) => names)
  .sort((a, b) => b.length - a.length)
  .join('|');

const NUMBER_WORDS: Record<string, number> = {
  um: 1,
  uma: 1,
  dois: 2,
  duas: 2,
  tres: 3,
  quatro: 4,
  cinco: 5,
  seis: 6,
  sete: 7,
  oito: 8,
  nove: 9,
  dez: 10,
  onze: 11,
  doze: 12,
  treze: 13,
  quatorze: 14,
  catorze: 14,
  quinze: 15,
  dezoito: 18,
  vinte: 20,
  trinta: 30,
  sessenta: 60,
  noventa: 90,
};
const ORDINALS: Record<string, number> = { primeiro: 1, '1o': 1, '1': 1, segundo: 2, '2o': 2, '2': 2, terceiro: 3, '3o': 3, '3': 3, quarto: 4, '4o': 4, '4': 4 };
const NUM_WORD = `\\d{1,3}|${Object.keys(NUMBER_WORDS).join('|')}`;
const YEAR4 = '(?:19|20)\\d{2}';

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
/** What joins a span's two ends: "de dez/22 a (até, e, pra) dez/23". */
const TO = '(?:a|ao|ate|e|pra|para|pro)(?:\\s+(?:o\\s+)?(?:fechamento\\s+|dia\\s+)?de)?';
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const year2 = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
const monthNum = (w: string) => MONTH_OF.get(w) ?? Number(w);
const count = (w: string) => NUMBER_WORDS[w] ?? Number(w);
const validDay = (y: number, m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= lastDay(y, m);

function monthsRange(y1: number, m1: number, y2: number, m2: number, grain: 'month' | 'quarter' | 'semester' | 'year' | 'custom'): PeriodSpec {
  return { kind: 'range', from: iso(y1, m1, 1), to: iso(y2, m2, lastDay(y2, m2)), grain };
}

interface Rule {
  re: RegExp;
  build: (m: RegExpExecArray) => PeriodSpec | null;
}

// Ordered from the most specific to the most general; the first rule that matches wins.
const RULES: Rule[] = [
  // 12 meses até outubro de 2022 · últimos 12 meses até out/22 · 2 anos encerrados em 06/2024: a window ending at a month
  {
    re: new RegExp(
      `\\b(?:(?:n?[oa]s?\\s+)?ultim[oa]s\\s+)?(${NUM_WORD})\\s*(meses|m|anos?)\\s+(?:ate|encerrad[oa]s em|terminad[oa]s em|findos em|fechad[oa]s em)\\s+(?:(?:o\\s+mes\\s+de\\s+)?(${ANY_MONTH})\\s*(?:de|/)\\s*(${YEAR4}|\\d{2})|(\\d{1,2})/(${YEAR4}))\\b`,
    ),
    build: (m) => {
      const months = count(m[1]) * (m[2].startsWith('ano') ? 12 : 1); // "12m até ago/2025": m is months
      const [y2, m2] = m[3] ? [year2(m[4]), monthNum(m[3])] : [Number(m[6]), Number(m[5])];
      if (!(months >= 1 && months <= 600) || m2 < 1 || m2 > 12) return null;
      const start = new Date(Date.UTC(y2, m2 - months, 1));
      return monthsRange(start.getUTCFullYear(), start.getUTCMonth() + 1, y2, m2, 'custom');
    },
  },
  // the year to a day: "no acumulado do ano até 31/10/2025", "de janeiro até 31/10/2025", "no ano até 31/10/25"
  {
    re: new RegExp(`\\b(?:(?:d?o|n?o) ano|de janeiro|desde janeiro|desde o inicio do ano)\\s+(?:ate|a)\\s+(?:o dia\\s+)?(\\d{1,2})/(\\d{1,2})/(${YEAR4}|\\d{2})\\b`),
    build: (m) => {
      const [y, mo, d] = [year2(m[3]), Number(m[2]), Number(m[1])];
      return validDay(y, mo, d) ? { kind: 'range', from: iso(y, 1, 1), to: iso(y, mo, d), grain: 'custom' } : null;
    },
  },
  // de 01/03/2024 a 15/04/2024
  {
    re: new RegExp(`\\b(?:de|entre|desde)\\s+(\\d{1,2})/(\\d{1,2})/(${YEAR4}|\\d{2})\\s+${TO}\\s+(\\d{1,2})/(\\d{1,2})/(${YEAR4}|\\d{2})\\b`),
    build: (m) => {
      const [y1, y2] = [year2(m[3]), year2(m[6])];
      const [m1, d1, m2, d2] = [Number(m[2]), Number(m[1]), Number(m[5]), Number(m[4])];
      if (!validDay(y1, m1, d1) || !validDay(y2, m2, d2)) return null;
      return { kind: 'range', from: iso(y1, m1, d1), to: iso(y2, m2, d2), grain: 'days' };
    },
  },
  // days of one month: entre 9 e 13 de junho de 2025 · de 9 a 25/06/2025 · do dia 2 ao dia 6 de jun/25
  {
    re: new RegExp(
      `\\b(?:de|entre|desde|do dia)\\s+(\\d{1,2})\\s+(?:a|ate|e|pra|para|ao(?:\\s+dia)?)\\s+(\\d{1,2})\\s*(?:de\\s+(${ANY_MONTH})\\s*(?:de|/)\\s*(${YEAR4}|\\d{2})|/(\\d{1,2})/(${YEAR4}|\\d{2}))\\b`,
    ),
    build: (m) => {
      const [y, mo] = m[3] ? [year2(m[4]), monthNum(m[3])] : [year2(m[6]), Number(m[5])];
      const [d1, d2] = [Number(m[1]), Number(m[2])];
      if (!validDay(y, mo, d1) || !validDay(y, mo, d2) || d1 >= d2) return null;
      return { kind: 'range', from: iso(y, mo, d1), to: iso(y, mo, d2), grain: 'days' };
    },
  },
  // de 02/06 a 13/06/2025: the year said once, at the end
  {
    re: new RegExp(`\\b(?:de|entre|desde)\\s+(\\d{1,2})/(\\d{1,2})\\s+${TO}\\s+(\\d{1,2})/(\\d{1,2})/(${YEAR4}|\\d{2})\\b`),
    build: (m) => {
      const y2 = year2(m[5]);
      const [d1, m1, d2, m2] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
      const y1 = m1 <= m2 ? y2 : y2 - 1;
      if (!validDay(y1, m1, d1) || !validDay(y2, m2, d2)) return null;
      return { kind: 'range', from: iso(y1, m1, d1), to: iso(y2, m2, d2), grain: 'days' };
    },
  },
  // de março de 2024 a junho de 2025 · entre junho e setembro de 2023 · de jan a jun de 2025 · mar/24 a jun/24
  {
    re: new RegExp(
      `\\b(?:de|entre|desde)\\s+(${ANY_MONTH})(?:\\s*(?:de|/)\\s*(${YEAR4}|\\d{2}))?\\s+${TO}\\s+(?:o\\s+(?:mes\\s+de\\s+)?)?(${ANY_MONTH})(?:(?:\\s*(?:de|/)\\s*|\\s+(?=\\d{4}|\\d{2}\\s*(?:[?!.,]|$)))(${YEAR4}|\\d{2}))?\\b`,
    ),
    build: (m) => {
      const [m1, m2] = [monthNum(m[1]), monthNum(m[3])];
      const y2 = m[4] ? year2(m[4]) : m[2] ? year2(m[2]) : null;
      const y1 = m[2] ? year2(m[2]) : y2 !== null ? (m1 <= m2 ? y2 : y2 - 1) : null;
      if (y1 === null || y2 === null) return { kind: 'months_of_year', from_month: m1, to_month: m2 };
      return monthsRange(y1, m1, y2, m2, 'custom');
    },
  },
  // jan, fev e mar de 2025 · abril e maio: months listed one after the other are one stretch (the year said once, at the end)
  {
    re: new RegExp(`\\b(${ANY_MONTH})((?:\\s*,\\s*(?:${ANY_MONTH}))*)\\s+e\\s+(?:em\\s+)?(${ANY_MONTH})(?:\\s*(?:de|/)\\s*(${YEAR4}|\\d{2}))?\\b`),
    build: (m) => {
      const listed = [
        m[1],
        ...m[2]
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
        m[3],
      ].map(monthNum);
      // ("jan e mar" skips a month: no one stretch)
      if (listed.some((x, i) => i > 0 && x !== listed[i - 1] + 1)) return null;
      const [m1, m2] = [listed[0], listed[listed.length - 1]];
      if (!m[4]) return { kind: 'months_of_year', from_month: m1, to_month: m2 };
      return monthsRange(year2(m[4]), m1, year2(m[4]), m2, 'custom');
    },
  },
  // jan a jun 2023 · janeiro-junho de 2024: two months joined by "a" or a dash, with no opener
  {
    re: new RegExp(`\\b(${ANY_MONTH})(?:\\s*(?:de|/)\\s*(${YEAR4}|\\d{2}))?\\s*(?:\\s(?:a|ate)\\s|-)\\s*(${ANY_MONTH})(?:\\s*(?:de|/)?\\s*(${YEAR4}|\\d{2}))\\b`),
    build: (m) => {
      const [m1, m2] = [monthNum(m[1]), monthNum(m[3])];
      const y2 = year2(m[4]);
      const y1 = m[2] ? year2(m[2]) : m1 <= m2 ? y2 : y2 - 1;
      return monthsRange(y1, m1, y2, m2, 'custom');
    },
  },
  // de 03/2024 a 06/2024
  {
    re: new RegExp(`\\b(?:de|entre|desde)\\s+(\\d{1,2})/(${YEAR4})\\s+${TO}\\s+(\\d{1,2})/(${YEAR4})\\b`),
    build: (m) => {
      const [m1, y1, m2, y2] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
      if (m1 < 1 || m1 > 12 || m2 < 1 || m2 > 12) return null;
      return monthsRange(y1, m1, y2, m2, 'custom');
    },
  },
  // de 2020 a 2023 · entre 2021 e 2022
  {
    re: new RegExp(`\\b(?:de|entre|desde)\\s+(${YEAR4})\\s+${TO}\\s+(${YEAR4})\\b`),
    build: (m) => monthsRange(Number(m[1]), 1, Number(m[2]), 12, 'custom'),
  },
  // último trimestre de 2024 · último semestre de 2023 · último mês de 2022: the year's last part (not a trailing window)
  {
    re: new RegExp(`\\b(?:ultimo|derradeiro)\\s+(tri|trimestre|semestre|mes)\\s+(?:de|do ano de|/)\\s*(${YEAR4})\\b`),
    build: (m) => {
      const y = Number(m[2]);
      if (m[1] === 'mes') return monthsRange(y, 12, y, 12, 'month');
      return m[1] === 'semestre' ? monthsRange(y, 7, y, 12, 'semester') : monthsRange(y, 10, y, 12, 'quarter');
    },
  },
  // 1º trimestre de 2023 · primeiro trimestre · 1t23 · t1 2023 · q1/2023
  {
    re: new RegExp(`\\b(primeiro|segundo|terceiro|quarto|[1-4]o?)\\s*(?:tri|trimestre)\\b(?:\\s*(?:de|do ano de|/)?\\s*(${YEAR4}))?`),
    build: (m) => {
      const q = ORDINALS[m[1]];
      const from = (q - 1) * 3 + 1;
      return m[2] ? monthsRange(Number(m[2]), from, Number(m[2]), from + 2, 'quarter') : { kind: 'months_of_year', from_month: from, to_month: from + 2 };
    },
  },
  {
    re: new RegExp(`\\b(?:([1-4])t(\\d{2})|[tq]([1-4])\\s*(?:de\\s*|/\\s*)?(${YEAR4}))\\b`),
    build: (m) => {
      const q = Number(m[1] ?? m[3]);
      const y = m[2] ? year2(m[2]) : Number(m[4]);
      return monthsRange(y, (q - 1) * 3 + 1, y, q * 3, 'quarter');
    },
  },
  // 2s24 · 1s2025: a semester written like a quarter ("1t24")
  {
    re: new RegExp(`\\b([12])s(\\d{2}|${YEAR4})\\b`),
    build: (m) => {
      const from = m[1] === '1' ? 1 : 7;
      const y = year2(m[2]);
      return monthsRange(y, from, y, from + 5, 'semester');
    },
  },
  // 1º semestre de 2024 · segundo semestre
  {
    re: new RegExp(`\\b(primeiro|segundo|[12]o?)\\s*semestre\\b(?:\\s*(?:de|do ano de|/)?\\s*(${YEAR4}))?`),
    build: (m) => {
      const s = ORDINALS[m[1]];
      const from = s === 1 ? 1 : 7;
      return m[2] ? monthsRange(Number(m[2]), from, Number(m[2]), from + 5, 'semester') : { kind: 'months_of_year', from_month: from, to_month: from + 5 };
    },
  },
  // 13/06/2025 · 13/06/25 · 2025-06-13
  {
    re: new RegExp(`\\b(\\d{1,2})/(\\d{1,2})/(${YEAR4}|\\d{2})\\b`),
    build: (m) => {
      const [y, mo, d] = [year2(m[3]), Number(m[2]), Number(m[1])];
      return validDay(y, mo, d) ? { kind: 'range', from: iso(y, mo, d), to: iso(y, mo, d), grain: 'day' } : null;
    },
  },
  {
    re: new RegExp(`\\b(${YEAR4})-(\\d{2})-(\\d{2})\\b`),
    build: (m) => {
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
      return validDay(y, mo, d) ? { kind: 'range', from: iso(y, mo, d), to: iso(y, mo, d), grain: 'day' } : null;
    },
  },
  // 13 de junho de 2025
  {
    re: new RegExp(`\\b(\\d{1,2})\\s+de\\s+(${FULL_MONTH})\\s+(?:de\\s+)?(${YEAR4})\\b`),
    build: (m) => {
      const [y, mo, d] = [Number(m[3]), monthNum(m[2]), Number(m[1])];
      return validDay(y, mo, d) ? { kind: 'range', from: iso(y, mo, d), to: iso(y, mo, d), grain: 'day' } : null;
    },
  },
  // desde março de 2021 · desde 2020 · desde 01/03/2021
  {
    re: new RegExp(`\\b(?:desde|a partir de)\\s+(?:(\\d{1,2})/(\\d{1,2})/(${YEAR4})|(${ANY_MONTH})\\s*/\\s*(\\d{2})\\b|(?:(${ANY_MONTH})\\s*(?:de|/)\\s*)?(${YEAR4}))\\b`),
    build: (m) => {
      if (m[3]) {
        const [y, mo, d] = [Number(m[3]), Number(m[2]), Number(m[1])];
        return validDay(y, mo, d) ? { kind: 'since', from: iso(y, mo, d) } : null;
      }
      // "desde maio/25": a month with a two-digit year.
      if (m[4]) return { kind: 'since', from: iso(year2(m[5]), monthNum(m[4]), 1) };
      return { kind: 'since', from: iso(Number(m[7]), m[6] ? monthNum(m[6]) : 1, 1) };
    },
  },
  // março de 2024 · mar/24 · mar 2024 · 03/2024
  {
    re: new RegExp(`\\b(${ANY_MONTH})\\s*(?:de\\s+|/\\s*|-\\s*)(${YEAR4}|\\d{2})\\b|\\b(${ANY_MONTH})\\s+(${YEAR4})\\b`),
    build: (m) => {
      const mo = monthNum(m[1] ?? m[3]);
      const y = year2(m[2] ?? m[4]);
      return monthsRange(y, mo, y, mo, 'month');
    },
  },
  {
    re: new RegExp(`(?<![\\d/])(\\d{1,2})/(${YEAR4})\\b`),
    build: (m) => {
      const mo = Number(m[1]);
      return mo >= 1 && mo <= 12 ? monthsRange(Number(m[2]), mo, Number(m[2]), mo, 'month') : null;
    },
  },
  // há um ano · há 3 meses · 2 anos atrás (a point in time, not a span)
  {
    re: new RegExp(`\\b(?:ha|faz)\\s+(${NUM_WORD})\\s+(dias?|semanas?|mes|meses|anos?)\\b(?:\\s+atras)?|\\b(${NUM_WORD})\\s+(dias?|semanas?|mes|meses|anos?)\\s+atras\\b`),
    build: (m) => {
      const t = trailing(count(m[1] ?? m[3]), m[2] ?? m[4]);
      return t && t.kind === 'trailing' ? { kind: 'ago', unit: t.unit, n: t.n } : null;
    },
  },
  // nos últimos 6 meses · últimos 30 dias · últimos dois anos · 12 meses · último ano · último semestre
  {
    re: new RegExp(
      `\\b(?:n?[oa]s?\\s+)?(?:ultim[oa]s|passad[oa]s)\\s+(${NUM_WORD})\\s+(dias?|semanas?|mes|meses|anos?)\\b|\\b(${NUM_WORD})\\s+(dias?|semanas?|mes|meses|anos?)\\s+passad[oa]s\\b`,
    ),
    build: (m) => trailing(count(m[1] ?? m[3]), m[2] ?? m[4]),
  },
  {
    re: /\b(?:ultim[oa]|n?o? ?ultimo)\s+(ano|semestre|trimestre|mes)\b(?!\s+(?:de|passado))/,
    build: (m) => (m[1] === 'ano' ? trailing(12, 'meses') : m[1] === 'semestre' ? trailing(6, 'meses') : m[1] === 'trimestre' ? trailing(3, 'meses') : null),
  },
  {
    // ("entre esses dois meses" points at months already said: no window)
    re: new RegExp(`(?<!\\b(?:esses|estes|essas|estas|nesses|nestes|desses|destes|os|as)\\s+)\\b(${NUM_WORD})\\s*(?:meses|m)\\b(?!\\s*(?:de|/)\\s*\\d)`),
    build: (m) => (count(m[1]) >= 1 && count(m[1]) <= 120 ? trailing(count(m[1]), 'meses') : null),
  },
  // A year written out wins over "no ano", "este ano": em 2024 · no ano de 2024 · fim de 2022
  { re: new RegExp(`(?<![\\d/.,])(${YEAR4})(?![\\d/.,]\\d)`), build: (m) => monthsRange(Number(m[1]), 1, Number(m[1]), 12, 'year') },
  // no fim do ano · o ano todo: the conversation's year (else the series' latest)
  { re: /\b(?:fim|final|fechamento|encerramento)\s+do\s+ano\b/, build: () => ({ kind: 'months_of_year', from_month: 12, to_month: 12 }) },
  { re: /\b(?:ano\s+(?:todo|inteiro|completo|fechado|cheio))\b/, build: () => ({ kind: 'months_of_year', from_month: 1, to_month: 12 }) },
  // "o acumulado do ano até setembro": January to that month of the conversation's year (else the series' latest)
  {
    re: new RegExp(`\\b(?:d[oa]|n[oa])\\s+ano\\s+ate\\s+(?:o\\s+(?:mes\\s+de\\s+)?)?(${ANY_MONTH})\\b(?!\\s*(?:de|/)\\s*\\d)`),
    build: (m) => ({ kind: 'months_of_year', from_month: 1, to_month: monthNum(m[1]) }),
  },
  // setembro do ano passado · mar do ano retrasado · junho deste ano: a month of a year counted from today
  {
    re: new RegExp(`\\b(${ANY_MONTH})\\s+(?:do|de)\\s+(?:(ano\\s+(?:passado|anterior))|(ano\\s+retrasado)|(?:est[ea]|ess[ea])\\s+ano|ano\\s+atual)\\b`),
    build: (m) => ({ kind: 'relative_year', offset: m[2] ? -1 : m[3] ? -2 : 0, to_date: false, month: monthNum(m[1]) }),
  },
  // ano passado · ano retrasado · este ano · acumulado do ano · ytd
  { re: /\b(?:(?:n?o\s+)?ano\s+(?:passado|anterior)|(?:em|no)\s+ano\s+passado)\b/, build: () => ({ kind: 'relative_year', offset: -1, to_date: false }) },
  { re: /\bano\s+retrasado\b/, build: () => ({ kind: 'relative_year', offset: -2, to_date: false }) },
  // nesse ano · naquele ano · daquele ano · no mesmo ano: the year the conversation is about (else the series' latest)
  { re: /\b(?:[nd]ess[ea]\s+ano|[nd]aquele\s+ano|no\s+mesmo\s+ano)\b/, build: () => ({ kind: 'months_of_year', from_month: 1, to_month: 12 }) },
  // (said alone, "esse ano" is the calendar's, as "este ano": "quanto o IFIX subiu esse ano?")
  {
    re: /\b(?:n?est[ea]\s+ano|ess[ea]\s+ano|ano\s+atual|ano\s+corrente|(?:acumulado|rendimento|variacao)\s+(?:d?n?o\s+)?ano|no\s+ano\b(?!\s+(?:de|passado|anterior|retrasado))|ytd|year to date)\b/,
    build: () => ({ kind: 'relative_year', offset: 0, to_date: true }),
  },
  { re: /\bmes\s+passado\b/, build: () => ({ kind: 'relative_month', offset: -1, calendar: true }) },
  { re: /\bmes\s+anterior\b/, build: () => ({ kind: 'relative_month', offset: -1 }) },
  { re: /\b(?:n?est[ea]\s+mes|mes\s+atual|mes\s+corrente)\b/, build: () => ({ kind: 'relative_month', offset: 0 }) },
  { re: /\b(?:ontem|pregao\s+anterior|dia\s+anterior|penultimo\s+pregao)\b/, build: () => ({ kind: 'previous_session' }) },
  // em abril · "e novembro?" (full month names only: "mar" alone is not a month)
  {
    re: new RegExp(`^e\\s+(?:em\\s+|no\\s+mes\\s+de\\s+)?(${FULL_MONTH})\\b`),
    build: (m) => ({ kind: 'months_of_year', from_month: monthNum(m[1]), to_month: monthNum(m[1]) }),
  },
  {
    re: new RegExp(`\\b(?:em|de|no mes de|durante|o mes de|mes de)\\s+(${FULL_MONTH})\\b`),
    build: (m) => ({ kind: 'months_of_year', from_month: monthNum(m[1]), to_month: monthNum(m[1]) }),
  },
  // (the present said as a state: "tá em quanto", "está valendo", "tá cotado"; "último fechamento" leaves
  // "fechamento" to name the measure)
  {
    re: /\b(?:hoje|hj|agora|atualmente|atual|no momento|neste momento|ultimo(?=\s+fechamento)|ultima(?=\s+cotacao)|mais recente|(?:ta|esta)\s+(?:em\s+quanto|valendo|cotad[oa]|custando))\b/,
    build: () => ({ kind: 'latest' }),
  },
  // Days without their year ("de 10/06 até 25/06"): the conversation's year, else the latest the series has.
  {
    re: new RegExp(`\\b(?:de|entre|desde)\\s+(\\d{1,2})/(\\d{1,2})\\s+${TO}\\s+(\\d{1,2})/(\\d{1,2})(?![/\\d])`),
    build: (m) => {
      const [day, month, toDay, toMonth] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
      if (!validDay(2024, month, day) || !validDay(2024, toMonth, toDay)) return null;
      return { kind: 'day_of_month', day, month, to: { day: toDay, month: toMonth } };
    },
  },
  // A day without its year ("e em 10/06?") or month ("e no dia 20?"): the conversation's (never a "mês/ano" like 12/2024).
  {
    re: /\b(?:(?:n?o\s+)?dia\s+(\d{1,2})(?![\d\/])(?!\s*de\s)|(\d{1,2})\/(\d{1,2})(?![\/\d]))/,
    build: (m) => {
      const day = Number(m[1] ?? m[2]);
      const month = m[3] ? Number(m[3]) : null;
      // (the year is not known yet: checked against a leap year, so 29/02 is a day)
      if (day < 1 || day > 31 || (month !== null && (month < 1 || month > 12 || day > lastDay(2024, month)))) return null;
      return { kind: 'day_of_month', day, month };
    },
  },
];

function trailing(n: number, unit: string): PeriodSpec | null {
  if (!Number.isFinite(n) || n < 1) return null;
  if (unit.startsWith('dia')) return { kind: 'trailing', unit: 'day', n: Math.min(n, 600) };
  if (unit.startsWith('semana')) return { kind: 'trailing', unit: 'day', n: Math.min(n * 7, 600) };
  if (unit.startsWith('ano')) return { kind: 'trailing', unit: 'year', n: Math.min(n, 50) };
  return { kind: 'trailing', unit: 'month', n: Math.min(n, 600) };
}

const SHIFT_UNITS: Record<string, ShiftUnit> = { dia: 'day', pregao: 'day', mes: 'month', trimestre: 'quarter', semestre: 'semester', ano: 'year' };
const FORWARD = /^(?:seguinte|posterior|depois|proxim[oa])$/;
// "no mês seguinte", "o trimestre anterior", "no próximo semestre", "um ano depois" (not "ano passado": that counts from today).
const SHIFT =
  /\b(?:(?:(um|uma|dois|duas|tres|\d{1,2})\s+)?(dia|dias|pregao|mes|meses|trimestre|semestre|ano|anos)\s+(seguinte|posterior|anterior|depois|antes)|(proxim[oa])\s+(dia|pregao|mes|trimestre|semestre|ano))\b/;
const SHIFT_COUNT: Record<string, number> = { um: 1, uma: 1, dois: 2, duas: 2, tres: 3 };
const singular = (u: string) => ({ meses: 'mes', dias: 'dia', anos: 'ano' })[u] ?? u;
// "e a selic rendeu quanto nesse mês?": the month the conversation is about (offset 0).
const LAST_DAY = /\b(?:n?o\s+)?ultimo\s+dia\s+(?:d[oe]|dess[ea]|dest[ea]|daquel[ea])\s+mes(?:\s+(seguinte|posterior|anterior|passado))?\b/;
// "desse mês", "daquele dia" point at it too ("deste mês" is today's month: another rule); so does a bare unit that
// ends the question ("e quanto subiu no semestre?" after a day: the semester that day is in).
const SAME = /\b(?:[nd]?ess[ea]|[nd]aquel[ea]|n?o\s+mesmo|na\s+mesma)\s+(dia|pregao|mes|trimestre|semestre|data)\b|\bn[oa]\s+(mes|trimestre|semestre|ano)(?=\s*[?!.]*\s*$)/;

/** What a shift means with no period to move from: backwards from the latest data, forwards nothing. */
function unanchored(shift: PeriodShift): PeriodSpec {
  if (shift.offset === 0 && shift.unit === 'year') return { kind: 'relative_year', offset: 0, to_date: true };
  if (shift.offset === 0) return shift.unit === 'month' ? { kind: 'relative_month', offset: 0 } : { kind: 'latest' };
  if (shift.offset > 0) return { kind: 'latest' };
  if (shift.unit === 'day') return { kind: 'previous_session' };
  if (shift.unit === 'month') return { kind: 'relative_month', offset: -1 };
  if (shift.unit === 'year') return { kind: 'relative_year', offset: -1, to_date: false };
  return { kind: 'trailing', unit: 'month', n: shift.unit === 'quarter' ? 3 : 6 };
}

/** The first period the question states, or null when it states none. */
export function parsePeriod(question: string): ParsedPeriod | null {
  // Fund tickers end in digits ("HGLG11"): they are not years or months.
  const text = withoutTickers(fold(question));
  // "e no último dia do mês?": the last day of the conversation's month (alone: the latest data).
  const last = LAST_DAY.exec(text);
  if (last && !firstRule(text.replace(last[0], ' '))) {
    // ("do mês seguinte": the last day of the month after the conversation's)
    const offset = !last[1] ? 0 : last[1] === 'seguinte' || last[1] === 'posterior' ? 1 : -1;
    const shift: PeriodShift = { unit: 'month', offset, lastDay: true };
    return { spec: { kind: 'latest' }, matched: last[0].trim(), shift };
  }
  const same = SAME.exec(text);
  if (same && !firstRule(text.replace(same[0], ' '))) {
    const unit = same[1] ?? same[2];
    const shift: PeriodShift = { unit: SHIFT_UNITS[unit === 'data' ? 'dia' : unit], offset: 0 };
    return { spec: unanchored(shift), matched: same[0].trim(), shift };
  }
  const s = SHIFT.exec(text);
  if (s) {
    // A date said with it wins ("e um ano depois, em jun/2023?" asks for June 2023).
    const said = firstRule(text.replace(s[0], ' '));
    if (said) return said;
    const word = s[3] ?? s[4];
    const n = s[1] ? (SHIFT_COUNT[s[1]] ?? Number(s[1])) : 1;
    const shift: PeriodShift = { unit: SHIFT_UNITS[singular(s[2] ?? s[5])], offset: (FORWARD.test(word) ? 1 : -1) * n, ...(/^(?:depois|antes)$/.test(word) ? { keep: true } : {}) };
    return { spec: unanchored(shift), matched: s[0].trim(), shift };
  }
  return fromAClose(text, withSecondDate(text, firstRule(text)));
}

/**
 * "do fechamento de dez/2021 ao de dez/2022", "do fechamento de 2022 até o de 2023": a span that starts at a close
 * starts right after the month or year whose close it is (its variation runs from that close), not with it.
 */
function fromAClose(text: string, parsed: ParsedPeriod | null): ParsedPeriod | null {
  if (!parsed || parsed.spec.kind !== 'range' || parsed.spec.grain === 'days' || parsed.spec.grain === 'day') return parsed;
  const before = text.slice(0, text.indexOf(parsed.matched));
  // ("do fechamento mensal de dez/21": the close's kind said between)
  if (!/\bfechamento(?:\s+(?:mensal|anual|diario))?\s*$/.test(before)) return parsed;
  // (the first end as said: "dez/2021" is a month, "2022" a year)
  const first = firstRule(parsed.matched.split(/\s(?:a|ao|ate|e|pra|para|pro)\s/)[0]);
  if (!first || first.spec.kind !== 'range' || first.spec.to >= parsed.spec.to) return parsed;
  const next = new Date(`${first.spec.to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { ...parsed, spec: { ...parsed.spec, from: next.toISOString().slice(0, 10) } };
}

/** A second date joined to the first by "e" ("em dez/2020 e quantos em dez/2023") makes a span of both. */
function withSecondDate(text: string, first: ParsedPeriod | null): ParsedPeriod | null {
  if (!first || first.spec.kind !== 'range' || first.spec.grain === 'custom') return first;
  const at = text.indexOf(first.matched);
  const rest = text.slice(at + first.matched.length);
  const second = firstRule(rest);
  if (!second || second.spec.kind !== 'range' || second.spec.grain === 'custom') return first;
  // Only a plain "e" between them ("em dez/2020 e quantos em dez/2023"), not "entre ... e" (a range rule's) or a list.
  const between = rest.slice(0, rest.indexOf(second.matched));
  if (!/(?:^|\s)e\s/.test(between) || between.split(/\s+/).filter(Boolean).length > 5) return first;
  const [a, b] = [first.spec, second.spec].sort((x, y) => x.from.localeCompare(y.from));
  if (a.to >= b.from) return first;
  return { ...first, span: { kind: 'range', from: a.from, to: b.to, grain: 'custom' } };
}

function firstRule(text: string): ParsedPeriod | null {
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    const m = rule.re.exec(text);
    if (!m) continue;
    const spec = rule.build(m);
    if (spec) return { spec, matched: m[0].trim() };
  }
  return null;
}
