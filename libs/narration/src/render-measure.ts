import type { MeasureDef } from '@cota/catalog';
import type { MeasureResult, MeasureValue, PeriodSpec, QuestionSubject, StructuredQuestion } from '@cota/contracts';
import { addMonths, describePeriod, isOneDay, isSpan } from '@cota/periods';
import { formatDate, formatDecimal, formatMonthShort, formatMonthYear, monthName } from '@cota/text';
import { formatInteger, formatMoney, formatMoneyCompact, formatNumber, formatPercent, joinPt, toDecimal } from './format';
import { markdownTable, type TableColumn } from './render-table';

type Unit = MeasureResult['unit'];

/**
 * How answers name each measure ("o dividend yield") and what one of its rows is ("pagamento"):
 * the measure catalog's vocabulary (policies/measures.yaml), never restated here.
 */
export type MeasureWords = Readonly<
  Record<
    string,
    Pick<MeasureDef, 'answer_name' | 'row_noun' | 'extreme_names'> &
      Partial<
        Pick<
          MeasureDef,
          'secondary_date_column' | 'as_of_close' | 'plausible' | 'published' | 'per_share' | 'subject' | 'kind' | 'sum_of_funds' | 'outcome_words' | 'price_measure'
        >
      >
  >
>;

const nameOf = (words: MeasureWords, measure: string) => words[measure]?.answer_name ?? measure;
/** A yield of distributions over a close (`price_measure`): one figure per fund, said with its parts. */
const dividesPrice = (words: MeasureWords, measure: string) => !!words[measure]?.price_measure;
/** "os dividendos por cota", "as cotas vendidas": a name the verb agrees with in the plural. */
const plural = (name: string) => /^(os|as) /.test(name);
const nounOf = (words: MeasureWords, measure: string) => words[measure]?.row_noun ?? { one: 'registro', many: 'registros' };

const CURRENCY: Record<string, string> = { USD: 'do dólar (USD)', EUR: 'do euro (EUR)' };

/** A fund's payments per share, by data-com or by payment date. */
const isPayments = (measure: string) => measure === 'dividend' || measure === 'dividend_paid';

/** "do HGLG11", "do IFIX", "do dólar (USD)", "da Selic" */
export function subjectOf(s: QuestionSubject): string {
  if (s.kind === 'portfolio') return 'da sua carteira';
  if (s.kind === 'currency') return CURRENCY[s.id] ?? `de ${s.id}`;
  if (s.kind === 'indicator') return s.id === 'SELIC' || s.id === 'META-SELIC' || s.id === 'POUPANCA' ? `da ${display(s.id)}` : `do ${display(s.id)}`;
  return `do ${s.id}`;
}
/**
 * ", 2,46 p.p. acima do CDI": by how much the one picked of two differs from the other (percentages in points, the
 * rest in the measure's unit); nothing for more than two subjects or a value missing.
 */
function marginOf(values: readonly MeasureValue[], winner: QuestionSubject, unit: Unit): string {
  const [picked, other] = [values.find((v) => sameSubject(v.subject, winner)), values.find((v) => !sameSubject(v.subject, winner))];
  if (values.length !== 2 || !picked || !other || picked.value === null || other.value === null) return '';
  const diff = toDecimal(picked.value)!.minus(toDecimal(other.value)!);
  if (diff.isZero()) return '';
  const side = diff.isPositive() ? 'acima' : 'abaixo';
  const size = unit.startsWith('pct') ? `${formatDecimal(diff.abs(), 2)} p.p.` : formatIn(unit, diff.abs().toNumber());
  return `, ${size} ${side} ${subjectOf(other.subject)}`;
}

const sameSubject = (a: QuestionSubject, b: QuestionSubject) => a.kind === b.kind && a.id === b.id;

/** "o HGLG11", "o IFIX", "o dólar (USD)", "a Selic" */
const bare = (s: QuestionSubject) => subjectOf(s).replace(/^do /, 'o ').replace(/^da /, 'a ').replace(/^de /, '');
const display = (id: string) => (id === 'SELIC' ? 'Selic' : id === 'META-SELIC' ? 'meta da Selic' : id === 'POUPANCA' ? 'poupança' : id);

/** A value in the measure's unit, the Brazilian way (sign always kept). */
export function formatIn(unit: Unit, value: number): string {
  switch (unit) {
    case 'brl': {
      const d = toDecimal(value);
      if (d && d.abs().gte(1e6)) return `${formatMoneyCompact(value)} (${formatMoney(value)})`;
      // Per-share amounts keep the precision they were published with (R$ 0,948), up to 4 decimals.
      if (d && d.abs().lt(10) && !d.times(100).isInteger()) {
        const body = formatDecimal(d.abs(), Math.min(4, Math.max(2, d.decimalPlaces())));
        return `${d.isNegative() ? '-' : ''}R$ ${body}`;
      }
      return formatMoney(value);
    }
    case 'pct':
      return formatPercent(value);
    case 'pct_month':
      return `${formatPercent(value)} no mês`;
    case 'pct_year':
      return `${formatPercent(value)} ao ano`;
    case 'pct_day':
      return `${formatPercent(value, 6)} ao dia`;
    case 'points': {
      const d = toDecimal(value);
      return `${d ? formatDecimal(d, 2) : formatNumber(value)} pontos`;
    }
    case 'count':
      return formatInteger(value);
    case 'ratio':
      return formatNumber(value);
    case 'fraction': {
      const d = toDecimal(value);
      return d ? formatPercent(d.times(100).toString()) : formatNumber(value);
    }
  }
}

/** The difference of two prices as the reader can check it: of the values shown (2 decimals from R$ 10 up), in decimal arithmetic. */
function shownDifference(start: number, end: number): number {
  const shown = (x: number) => (Math.abs(x) >= 10 ? toDecimal(x)!.toDecimalPlaces(2) : toDecimal(x)!);
  return shown(end).minus(shown(start)).toNumber();
}

/** The period in words: the one asked when it was named, else the dates the values came from. */
export function periodPhrase(spec: PeriodSpec | null, v: MeasureValue, grain: 'day' | 'month' = 'day'): string {
  const p = v.period;
  if (!p) return '';
  // Monthly series count whole months: "de novembro de 2024 a outubro de 2025".
  const monthFrom = (d: string) => (d.endsWith('-01') ? d : `${addMonthIso(d)}`);
  const dataEnd = v.coverage && v.coverage.to < p.to ? v.coverage.to : p.to;
  const until =
    dataEnd !== p.to ? ` (dados até ${grain === 'month' ? describePeriod(dataEnd.slice(0, 8) + '01', endOfMonth(dataEnd)).replace(/^em /, '') : formatDate(dataEnd)})` : '';
  switch (spec?.kind) {
    case 'trailing': {
      const unit = spec.unit === 'day' ? (spec.n === 1 ? 'dia' : 'dias') : spec.unit === 'month' ? (spec.n === 1 ? 'mês' : 'meses') : spec.n === 1 ? 'ano' : 'anos';
      if (grain === 'month') return `nos últimos ${spec.n} ${unit} (${describePeriod(monthFrom(p.from), endOfMonth(p.to)).replace(/^em /, '')})`;
      return `nos últimos ${spec.n} ${unit} (de ${formatDate(p.from)} a ${formatDate(p.to)})`;
    }
    case 'since':
      return `desde ${formatDate(p.from)} (até ${formatDate(dataEnd)})`;
    case 'relative_year':
      return `${describePeriod(p.from, p.to)}${until}`;
    case 'ago': {
      const unit = spec.unit === 'day' ? (spec.n === 1 ? 'dia' : 'dias') : spec.unit === 'month' ? (spec.n === 1 ? 'mês' : 'meses') : spec.n === 1 ? 'ano' : 'anos';
      return `há ${spec.n} ${unit}`;
    }
    case undefined:
    case 'latest':
    case 'previous_session':
      return '';
    default:
      return `${describePeriod(p.from, p.to)}${until}`;
  }
}

/** Whole months a monthly series has between two dates (a month counts when its first day is inside). */
const monthsBetween = (from: string, to: string) => {
  const [y1, m1] = (from.endsWith('-01') ? from : addMonthIso(from)).split('-').map(Number);
  const [y2, m2] = to.split('-').map(Number);
  return (y2 - y1) * 12 + (m2 - m1) + 1;
};

/** The first day of the month after `d`. */
const addMonthIso = (d: string) => {
  const [y, m] = d.split('-').map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};
const endOfMonth = (d: string) => {
  const [y, m] = d.split('-').map(Number);
  return `${y}-${String(m).padStart(2, '0')}-${new Date(Date.UTC(y, m, 0)).getUTCDate()}`;
};
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** A value's date as its series dates it: a day, or a month for monthly series ("outubro de 2021"). */
const dateOf = (r: MeasureResult, d: string) => (r.grain === 'month' ? formatMonthYear(d) : formatDate(d));

/**
 * The answer to a structured question, number first: one sentence with the value, its period,
 * unit and date, then the figures it rests on, then a small table when listing helps.
 */
/** Weekdays from `from` to `to`, both included (holidays are not known here). */
function weekdaysBetween(from: string, to: string): number {
  let n = 0;
  for (let d = new Date(`${from}T12:00:00Z`); d <= new Date(`${to}T12:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) if (d.getUTCDay() % 6 !== 0) n++;
  return n;
}

/**
 * A daily rate compounded over fewer business days than the period has (a gap in the base): the
 * accumulation is partial, and the answer says so. Holidays take about 4% of weekdays, so a
 * shortfall beyond 8% is a gap, not the calendar.
 */
export function dailyGapNote(v: MeasureValue): string {
  if (!v.start || !v.end || v.count <= 1) return '';
  const weekdays = weekdaysBetween(v.start.date, v.end.date);
  if (v.count >= weekdays * 0.92) return '';
  return ` Atenção: a base tem ${v.count} dias com taxa entre ${formatDate(v.start.date)} e ${formatDate(v.end.date)}, de cerca de ${Math.round(weekdays * 0.96)} dias úteis, então o acumulado é parcial (menor que o real).`;
}

/** A comparison lists the winner first, in the order asked; values missing last. */
function inCompareOrder(values: MeasureValue[], question: StructuredQuestion | null): MeasureValue[] {
  const compare = question?.compare;
  if (!compare || values.length < 2) return values;
  return [...values].sort((a, b) => (a.value === null ? 1 : b.value === null ? -1 : compare === 'max' ? b.value - a.value : a.value - b.value));
}

/** " Pela cotação negociada, sem os proventos: +7,46% (de R$ 69,81 em 28/12/2023 para R$ 75,02 em 30/12/2024)." — one subject's. */
function tradedReturn(r: MeasureResult): string {
  const t = r.values.length === 1 ? r.values[0].traded : null;
  if (!t) return '';
  return ` Pela cotação negociada, sem os proventos: ${signed(t.value)} (de ${formatIn(r.unit, t.start.value)} em ${formatDate(t.start.date)} para ${formatIn(r.unit, t.end.value)} em ${formatDate(t.end.date)}).`;
}

/** "Dos 4 fundos, 2 têm o P/VP abaixo de 0,95:" (or none). */
function screenLead(r: MeasureResult, s: NonNullable<MeasureResult['screened']>, name: string): string {
  const n = r.values.length;
  const level = `${s.op === 'gt' ? 'acima' : 'abaixo'} de ${formatIn(r.value_unit, s.value)}`;
  if (n === 0) return `Nenhum dos ${s.of} fundos tem ${name} ${level}.`;
  return `Dos ${s.of} fundos, ${n === 1 ? '1 tem' : `${n} têm`} ${name} ${level}:`;
}

/** "quanto recebi deles em outubro?": the client's own money fund by fund also comes to a total, said once. */
function ownTotalOfFunds(r: MeasureResult, words: MeasureWords): string | null {
  const def = words[r.measure];
  if (def?.sum_of_funds) return portfolioAtClose(r);
  if (def?.subject !== 'portfolio' || def.kind !== 'flow' || r.agg !== 'total' || r.value_unit !== 'brl' || r.values.length < 2) return null;
  if (!r.values.every((v) => v.subject.kind === 'fund' && v.value !== null)) return null;
  const cents = r.values.reduce((a, v) => a + Math.round(v.value! * 100), 0);
  return `Somando os ${r.values.length} fundos: ${formatIn('brl', cents / 100)}.`;
}

/** "quanto valia minha carteira no fim de 2022?": the funds held, each at its close, summed (at one close, or said from which to which). */
function portfolioAtClose(r: MeasureResult): string | null {
  if (r.agg !== 'value' || r.values.length < 2 || !r.values.every((v) => v.subject.kind === 'fund' && v.value !== null && v.date)) return null;
  const cents = r.values.reduce((a, v) => a + Math.round(v.value! * 100), 0);
  const dates = [...new Set(r.values.map((v) => v.date!.slice(0, 10)))].sort();
  const when = dates.length === 1 ? `em ${formatDate(dates[0])}` : `pelos fechamentos de ${formatDate(dates[0])} a ${formatDate(dates[dates.length - 1])}`;
  return `Somando os ${r.values.length} fundos, a carteira valia ${formatIn('brl', cents / 100)} ${when}.`;
}

export function renderMeasure(result: MeasureResult, question: StructuredQuestion | null, words: MeasureWords): string {
  if (result.measure === 'panel') return renderPanel(result, question, words);
  const name = nameOf(words, result.measure);
  const spec = question?.period ?? null;
  const ordered = inCompareOrder(result.values, question);
  const screened = result.screened;
  // (a screen's condition is said once, in its lead, not in each value's sentence)
  const condition = screened ? null : (question?.condition ?? null);
  const lines = ordered.map((v) => `${sentence(result, v, name, spec, condition, words)}${holdingNote(result, v, question, words)}`);
  const parts = [lines.join('\n')];
  if (screened) parts.unshift(screenLead(result, screened, name));
  // "O DY médio da minha carteira": the funds' values weighted by what each is worth in it.
  if (result.portfolio && question?.agg === 'avg' && result.portfolio.value !== null) {
    const lead = `${cap(name)} médio da sua carteira, ponderado pelo valor de mercado de cada fundo, é ${formatIn(result.value_unit, result.portfolio.value)}.`;
    const weights = result.portfolio.weights.map((w) => `${w.ticker} ${formatPercent(w.weight)}`).join(', ');
    parts.unshift(`${lead} Pesos: ${weights}.`);
  }
  if (result.values.length > 1 && question?.compare) {
    const w = result.winner;
    const verb = question.compare === 'max' ? 'maior' : 'menor';
    parts.push(
      w
        ? `Entre eles, o ${verb} valor é ${subjectOf(w)}${marginOf(result.values, w, result.value_unit)}.`.replace('é do', 'é o do')
        : `Não há um ${verb} valor: os valores empatam ou faltam dados.`,
    );
  }
  const sum = ownTotalOfFunds(result, words);
  if (sum) parts.push(sum);
  if (result.values.some((v) => v.adjusted && v.value !== null)) {
    parts.push(
      result.agg === 'variation'
        ? `A variação usa preços ajustados por proventos (retorno total), não só a cotação negociada.${tradedReturn(result)}`
        : 'Atenção: onde não há fechamento negociado na base, o valor mostrado é o fechamento ajustado por proventos.',
    );
  }
  for (const v of result.values) {
    const skipped = skippedNote(v);
    if (skipped) parts.push(skipped);
  }
  const implausible = implausibleNote(result, words);
  if (implausible) parts.push(implausible);
  const stale = calendarNote(result, spec);
  if (stale) parts.push(stale);
  const table = result.values.length === 1 ? rowsTable(result, result.values[0], words) : null;
  if (table) parts.push(table);
  return parts.filter(Boolean).join('\n\n');
}

/**
 * A value outside the range the measure can plausibly take (its catalog `plausible`), said as what the
 * sources give but not to be read as a fact without checking: a 12-month DY of 187% is an amortisation,
 * a grouping of shares or an error of the source, not a yield.
 */
function implausibleNote(result: MeasureResult, words: MeasureWords): string | null {
  const range = words[result.measure]?.plausible;
  if (!range || result.agg !== 'value') return null;
  const out = result.values.filter((v) => v.value !== null && ((range.above !== undefined && v.value <= range.above) || (range.below !== undefined && v.value >= range.below)));
  if (!out.length) return null;
  const who = out.map((v) => v.subject.id).join(', ');
  const bounds = [
    range.above !== undefined ? `acima de ${formatIn(result.value_unit, range.above)}` : '',
    range.below !== undefined ? `abaixo de ${formatIn(result.value_unit, range.below)}` : '',
  ]
    .filter(Boolean)
    .join(' e ');
  return `Atenção: o valor de ${who} está fora da faixa plausível (${bounds}). É o que as fontes dão, mas costuma indicar amortização, grupamento de cotas ou erro da fonte: confira antes de usá-lo.`;
}

/** Days the ingest dropped from the series for a corrupted value, said where an answer covers them. */
export function skippedNote(v: MeasureResult['values'][number]): string | null {
  const days = v.skipped ?? [];
  if (!days.length) return null;
  const dates = days.map((d) => formatDate(d.date));
  const list = dates.length === 1 ? dates[0] : `${dates.slice(0, -1).join(', ')} e ${dates[dates.length - 1]}`;
  const values = [...new Set(days.map((d) => d.value).filter((x): x is number => x !== null))].map((x) => String(x).replace('.', ','));
  const what = values.length ? ` (a fonte publicou ${values.join(' e ')}, um valor corrompido)` : ' (um valor corrompido na fonte)';
  return `${dates.length === 1 ? 'O dia' : 'Os dias'} ${list} ${dates.length === 1 ? 'ficou' : 'ficaram'} de fora da série ${subjectOf(v.subject)}${what}.`;
}

/**
 * "Ontem" and "este mês" are the calendar's: when the data stops before them, the answer says how
 * far it goes and what today is, plainly, instead of passing the latest data off as yesterday's.
 */
export function calendarNote(r: MeasureResult, spec: PeriodSpec | null): string | null {
  if (!r.today || !spec) return null;
  // "Este ano" with no value at all is already answered as a year without data.
  if (spec.kind === 'relative_year' && !r.values.some((v) => v.value !== null)) return null;
  const ends = r.values.map((v) => v.coverage?.to).filter((d): d is string => !!d);
  if (!ends.length) return null;
  const dataEnd = ends.sort().pop()!;
  // ("mês passado": the calendar's month before this one, answered with the latest month the data has)
  const pastMonth = spec.kind === 'relative_month' && spec.offset < 0 && spec.calendar ? addMonths(`${r.today.slice(0, 7)}-01`, spec.offset) : null;
  const wanted = spec.kind === 'previous_session' ? 'de ontem' : spec.kind === 'relative_year' ? 'deste ano' : pastMonth ? `de ${formatMonthYear(pastMonth)}` : 'deste mês';
  const reaches =
    spec.kind === 'previous_session'
      ? dataEnd >= previousDay(r.today)
      : spec.kind === 'relative_year'
        ? dataEnd.slice(0, 4) === r.today.slice(0, 4)
        : dataEnd.slice(0, 7) >= (pastMonth ?? r.today).slice(0, 7);
  if (reaches) return null;
  // (this year without data is answered with the latest year the data has; a past month, with the latest month)
  const latest =
    spec.kind === 'relative_year'
      ? `a resposta acima é de ${dataEnd.slice(0, 4)}, o ano mais recente da base`
      : pastMonth
        ? `a resposta acima é de ${formatMonthYear(dataEnd)}, o mês mais recente da base`
        : 'o valor acima é o mais recente da base';
  return `Os dados vão até ${dateOf(r, dataEnd)} e hoje é ${formatDate(r.today)}: não há dados ${wanted}; ${latest}.`;
}

function previousDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

type Condition = StructuredQuestion['condition'];

function sentence(r: MeasureResult, v: MeasureValue, name: string, spec: PeriodSpec | null, condition: Condition, words: MeasureWords): string {
  // "cotistas em dez/2020 e em dez/2023": the value at each end, in one sentence.
  const last = r.agg === 'first' ? v.extra.find((e) => e.agg === 'last' && e.value !== null) : undefined;
  if (last && v.value !== null && v.date && last.date && v.extra.length === 1) {
    return `${cap(words[r.measure]?.answer_name ?? name)} ${subjectOf(v.subject)} era ${formatIn(r.unit, v.value)} em ${dateOf(r, v.date)} e ${formatIn(r.unit, last.value as number)} em ${dateOf(r, last.date)}.`;
  }
  const main = mainSentence(r, v, v.fallback ? (words[v.fallback]?.answer_name ?? name) : name, spec, condition, words);
  // A total already says how many rows it summed.
  const extras = v.extra.filter((e) => e.value !== null && !(e.agg === 'count' && r.agg === 'total')).map((e) => extraPhrase(r, e));
  const body = v.fallback && v.value !== null && r.fallback_note ? `${main.replace(/\.$/, '')} (${r.fallback_note}).` : main;
  const said = `${body}${extras.length ? ` ${extras.join(' ')}` : ''}`;
  const source = sourceFigure(r, v, words);
  return source ? `${said.replace(/\.$/, '')}${source}.` : said;
}

/** " Com 500 cotas, seriam R$ 6.600,00 (R$ 13,20 por cota × 500)." for a holding the question supposes. */
function holdingNote(r: MeasureResult, v: MeasureValue, question: StructuredQuestion | null, words: MeasureWords): string {
  const n = question?.shares;
  if (!n || v.value === null || !words[r.measure]?.per_share || r.value_unit !== 'brl' || ['count', 'changes', 'rises', 'falls'].includes(r.agg)) return '';
  const total = toDecimal(v.value)!.times(n);
  return ` Com ${formatInteger(n)} ${n === 1 ? 'cota' : 'cotas'}, ${n === 1 ? 'seria' : 'seriam'} ${formatMoney(total.toNumber())} (${formatMoney(v.value)} por cota × ${formatInteger(n)}).`;
}

/** "... foi 11,13% (a base araquem publica 1,44 nessa métrica, sem unidade)." */
function sourceFigure(r: MeasureResult, v: MeasureValue, words: MeasureWords): string {
  const def = words[r.measure]?.published;
  if (!def || !v.published) return '';
  return ` (${def.source} publica ${formatIn(def.unit, v.published.value)} nessa métrica, ${def.note})`;
}

const EXTRA_NAMES: Record<string, string> = { max: 'Máximo', min: 'Mínimo', first: 'Primeiro', last: 'Último', total: 'Total', count: 'Quantidade', avg: 'Média' };

function extraPhrase(r: MeasureResult, e: MeasureValue['extra'][number]): string {
  const val = e.agg === 'count' ? formatInteger(e.value) : formatIn(r.unit, e.value as number);
  return `${EXTRA_NAMES[e.agg] ?? e.agg}: ${val}${e.date && e.agg !== 'total' && e.agg !== 'count' && e.agg !== 'avg' ? `, em ${dateOf(r, e.date)}` : ''}.`;
}

/** What every phrasing of a found value shares: the value already formatted, its subject, period and date. */
interface Said {
  r: MeasureResult;
  v: MeasureValue & { value: number };
  name: string;
  who: string;
  when: string;
  val: string;
  at: string;
  spec: PeriodSpec | null;
  condition: Condition;
  words: MeasureWords;
}

function mainSentence(result: MeasureResult, v: MeasureValue, name: string, spec: PeriodSpec | null, condition: Condition, words: MeasureWords): string {
  // A fallback measure dates its values its own way (a monthly DY by month).
  const r: MeasureResult = v.grain ? { ...result, grain: v.grain } : result;
  const who = subjectOf(v.subject);
  const period = periodPhrase(spec, v, r.grain);
  const when = period ? ` ${period}` : '';
  // (a level never crossed in the period is said so, not "not found")
  if (v.value === null && condition && v.matched && (r.agg === 'first' || r.agg === 'last')) {
    return `${cap(bare(v.subject))} não ${beyondPhrase(r, condition)}${when}; ${searchedPhrase(v.count, when)}.`;
  }
  if (v.value === null) return notFoundSentence(r, v, name, who, when);
  const found = v as MeasureValue & { value: number };
  const c: Said = { r, v: found, name, who, when, val: valueText(r, found, words), at: v.date ? dateOf(r, v.date) : '', spec, condition, words };
  // A yield is one figure per fund whatever the aggregation asked across funds.
  switch (dividesPrice(words, r.measure) ? 'value' : r.agg) {
    case 'variation':
      return variationSentence(c);
    case 'accumulated':
      return accumulatedSentence(c);
    case 'max':
    case 'min':
      return r.extreme_group ? extremeGroupSentence(c) : extremeSentence(c);
    case 'total':
      return totalSentence(c);
    case 'avg':
      return `A média d${name.startsWith('a ') ? 'a ' + name.slice(2) : name.startsWith('os ') ? 'os ' + name.slice(3) : 'o ' + name.slice(2)} ${who}${when} foi ${c.val} (${v.count} ${v.count === 1 ? 'valor' : 'valores'}).`;
    case 'count':
      return countSentence(c);
    case 'changes':
    case 'rises':
    case 'falls':
      return movesSentence(c);
    case 'first':
      return condition ? crossingSentence(c) : (tradesOfDay(c, 'first') ?? `O primeiro valor ${who}${when} foi ${c.val}, em ${c.at}${fundsOfPortfolio(found)}.`);
    case 'last':
      return condition ? crossingSentence(c) : lastSentence(c);
    case 'list':
      // (a list grouped by month says its latest value, as before: "paga quanto por mês?")
      return r.group_by === null ? listSentence(c) : valueSentence(c);
    default:
      return valueSentence(c);
  }
}

/** The funds a figure of the whole portfolio came from, when a few: " (BTLG11, HGRU11 e XPIN11)". */
const fundsOfPortfolio = (v: MeasureValue) => (v.subject.kind === 'portfolio' && v.funds.length > 0 && v.funds.length <= 3 ? ` (${joinPt(v.funds)})` : '');

/** "A Selic mudou 5 vezes em 2022": how many times the series moved, counted from one date to the next. */
function movesSentence(c: Said): string {
  const n = c.v.value;
  const verb = c.r.agg === 'rises' ? 'subiu' : c.r.agg === 'falls' ? 'caiu' : 'mudou';
  // ("em quantos meses de 2024 o IFIX caiu?": counted month by month, each month's last value against the one before)
  const unit = c.r.group_by === 'month' ? ['mês', 'meses'] : c.r.group_by === 'year' ? ['ano', 'anos'] : null;
  const times = unit ? `em ${formatInteger(n)} ${n === 1 ? unit[0] : unit[1]}` : n === 1 ? '1 vez' : `${formatInteger(n)} vezes`;
  const last = c.at ? ` (dados até ${c.at})` : '';
  const subject = bare(c.v.subject);
  return `${subject.charAt(0).toUpperCase()}${subject.slice(1)} ${verb} ${times}${c.when}${last}.`;
}

/** No value: say what the base does have, the dates around the empty period, else the series' range. */
function notFoundSentence(r: MeasureResult, v: MeasureValue, name: string, who: string, when: string): string {
  const near =
    v.nearest && (v.nearest.before || v.nearest.after) && v.coverage
      ? ` Os dados ${who} mais próximos são ${[v.nearest.before ? `de ${dateOf(r, v.nearest.before)} (antes)` : '', v.nearest.after ? `de ${dateOf(r, v.nearest.after)} (depois)` : ''].filter(Boolean).join(' e ')}; a série vai de ${dateOf(r, v.coverage.from)} a ${dateOf(r, v.coverage.to)}.`
      : v.coverage
        ? ` Tenho dados ${who} de ${dateOf(r, v.coverage.from)} a ${dateOf(r, v.coverage.to)}.`
        : '';
  return `Não encontrei ${name} ${who}${when || ''}.${near}`;
}

/** The value in its unit; an annual rate is also quoted per business day (how the Selic and the CDI accrue). */
function valueText(r: MeasureResult, v: MeasureValue & { value: number }, words: MeasureWords): string {
  // A result is said as the gain or the loss it is ("um prejuízo de R$ 126,40"), not as a bare negative amount.
  const outcome = words[r.measure]?.outcome_words;
  // (a loss keeps its signed figure beside it, as a statement would show it)
  if (outcome && v.value > 0 && r.agg !== 'count') return `um ${outcome.gain} de ${formatIn(r.value_unit, v.value)}`;
  if (outcome && v.value < 0 && r.agg !== 'count') return `um ${outcome.loss} de ${formatIn(r.value_unit, -v.value)} (${formatIn(r.value_unit, v.value)})`;
  const val = formatIn(r.value_unit, v.value);
  if (r.value_unit === 'pct_year' && r.agg !== 'accumulated') {
    return `${val} (equivalente a ${formatDecimal(toDecimal(((1 + v.value / 100) ** (1 / 252) - 1) * 100)!, 6)}% ao dia útil)`;
  }
  return val;
}

function variationSentence({ r, v, name, who, when }: Said): string {
  const unitOf = (x: number) => formatIn(r.unit, x);
  const move = v.value > 0 ? 'subindo' : v.value < 0 ? 'caindo' : 'indo';
  const ends = v.start && v.end ? `, ${move} de ${unitOf(v.start.value)} em ${dateOf(r, v.start.date)} para ${unitOf(v.end.value)} em ${dateOf(r, v.end.date)}` : '';
  const itself = ['index_points', 'price', 'fx_rate'].includes(r.measure);
  const head = itself ? cap(bare(v.subject)) : `${cap(name)} ${who}`;
  // Counts and amounts also change by a number people quote ("ganhou 164.682 cotistas").
  const diff =
    v.start && v.end && (r.unit === 'count' || r.unit === 'brl')
      ? `; diferença de ${r.unit === 'count' ? `${v.end.value - v.start.value >= 0 ? '+' : ''}${formatInteger(v.end.value - v.start.value)}` : formatIn('brl', shownDifference(v.start.value, v.end.value))}`
      : '';
  return `${head} variou ${signed(v.value)}${when}${ends}${diff}.`;
}

function accumulatedSentence({ r, v, when }: Said): string {
  const daily = r.grain !== 'month';
  const span = v.start && v.end ? (daily ? `, de ${formatDate(v.start.date)} a ${formatDate(v.end.date)}` : `, de ${monthOf(v.start.date)} a ${monthOf(v.end.date)}`) : '';
  const n = daily ? `${v.count} ${v.count === 1 ? 'dia útil' : 'dias úteis'}` : `${v.count} ${v.count === 1 ? 'mês' : 'meses'}`;
  // A month missing from the base makes the accumulation partial: say so rather than pass it as the period's.
  const expected = !daily && v.period ? monthsBetween(v.period.from, v.coverage && v.coverage.to < v.period.to ? v.coverage.to : v.period.to) : v.count;
  const gap =
    !daily && expected > v.count ? ` Atenção: a base não tem ${expected - v.count} dos ${expected} meses do período, então o acumulado é parcial.` : daily ? dailyGapNote(v) : '';
  return `${cap(bare(v.subject))} acumulou ${formatPercent(v.value)}${when} (juros compostos, ${n}${span}).${gap}`;
}

function extremeSentence({ r, v, name, who, when, val, at, words }: Said): string {
  // A monthly payment's extreme is known by its month ("o de dezembro"), its day given too.
  const monthly = nounOf(words, r.measure).one === 'pagamento' && r.grain !== 'month' && v.date ? ` (o de ${monthName(Number(v.date.slice(5, 7)))})` : '';
  // A payment dated by the day it was paid also says its data-com ("qual o maior que pagou em 2024? e a data-com?").
  const recordDate = v.paid_on && words[r.measure]?.secondary_date_column === 'traded_until_date' ? `, com data-com em ${formatDate(v.paid_on)}` : '';
  // And one dated by its data-com says when it was paid ("o maior que o ABCP11 já pagou").
  const paidOn = v.paid_on && words[r.measure]?.secondary_date_column === 'payment_date' ? `, pago em ${formatDate(v.paid_on)}` : '';
  // (found among monthly closes, the value is its month's: "em agosto de 2022 (31/08/2022)")
  const where = (v.grain === 'month' || r.group_by === 'month') && r.grain !== 'month' && v.date ? `${formatMonthYear(v.date)} (${formatDate(v.date)})` : at;
  const extreme =
    (r.agg === 'max' ? words[r.measure]?.extreme_names?.max : words[r.measure]?.extreme_names?.min) ?? `o ${r.agg === 'max' ? 'maior' : 'menor'} valor ${ofName(name)}`;
  return `${cap(extreme)} ${who}${when} foi ${val}, em ${where}${monthly}${recordDate}${paidOn}.`;
}

const GROUP_UNIT = { day: 'dia', month: 'mês', year: 'ano' } as const;

/** "O melhor mês do IFIX em 2023 foi maio de 2023: +5,43% (de ... para ...)"; a flow's: "... somaram mais em dezembro de 2024". */
function extremeGroupSentence({ r, v, name, who, when }: Said): string {
  const unit = GROUP_UNIT[r.group_by ?? 'month'];
  const groupOf = (d: string) => (r.group_by === 'year' ? d.slice(0, 4) : r.group_by === 'day' ? formatDate(d) : formatMonthYear(d));
  const group = groupOf(v.date!);
  const tied = v.matched && v.matched.length > 1 ? v.matched : null;
  if (tied) {
    const which = tied.length === v.rows.length && r.group_by !== 'day' ? `todos os ${tied.length} ${unit === 'ano' ? 'anos' : 'meses'}` : joinPt(tied.map(groupOf));
    if (v.start && v.end)
      return `${cap(bare(v.subject))}${when} teve a mesma variação, ${signed(v.value)}, em ${which}: não há um ${r.agg === 'max' ? 'melhor' : 'pior'} ${unit} único.`;
    return `${cap(name)} ${who}${when} ${plural(name) ? 'foram' : 'foi'} de ${formatIn(r.unit, v.value)} em ${which}, sem um ${unit} de ${r.agg === 'max' ? 'maior' : 'menor'} valor.`;
  }
  if (v.start && v.end) {
    const move = `de ${formatIn(r.unit, v.start.value)} em ${formatDate(v.start.date)} para ${formatIn(r.unit, v.end.value)} em ${formatDate(v.end.date)}`;
    return `O ${r.agg === 'max' ? 'melhor' : 'pior'} ${unit} ${who}${when} foi ${group}: ${signed(v.value)} (${move}).`;
  }
  return `${cap(name)} ${who}${when} ${plural(name) ? 'somaram' : 'somou'} ${r.agg === 'max' ? 'mais' : 'menos'} em ${group}: ${formatIn(r.unit, v.value)}.`;
}

/** The only trade of a total or a list, said with its shares and price: "70 cotas a R$ 86,70" (of shares counted, "a R$ 86,70 por cota"). */
function oneTrade(r: MeasureResult, v: MeasureValue): string | null {
  const t = v.count === 1 && v.rows.length === 1 ? v.rows[0] : null;
  if (t?.quantity === undefined || t.price === undefined) return null;
  const price = formatIn('brl', t.price);
  return r.unit === 'count' ? `a ${price} por cota` : `${formatIn('count', t.quantity)} ${t.quantity === 1 ? 'cota' : 'cotas'} a ${price}`;
}

function totalSentence({ r, v, name, who, when, val, words }: Said): string {
  const { one, many } = nounOf(words, v.fallback ?? r.measure);
  const verb = plural(name) ? 'somam' : 'soma';
  // Positions valued at a close say which: "O valor de mercado da sua carteira, pelo fechamento de 25/06/2025, soma ...".
  const close = words[r.measure]?.as_of_close && v.date ? `, pelo fechamento de ${formatDate(v.date)},` : '';
  // A total over the portfolio that a few funds made names them ("(1 venda: XPIN11)"); one trade says its shares and price.
  const which = v.funds.length > 0 && v.funds.length <= 3 ? `: ${joinPt(v.funds)}` : '';
  const trade = oneTrade(r, v);
  const traded = trade ? `${r.unit === 'count' || v.funds.length ? ',' : ':'} ${trade}` : '';
  // (one payment says its day, and its other date where the base has it: "1 pagamento, em 25/03/2025, com data-com em 18/03/2025")
  const payment =
    !trade && v.count === 1 && v.rows.length === 1 && isPayments(r.measure) ? `, em ${formatDate(v.rows[0].date)}${otherDatePhrase(words[r.measure], v.rows[0])}` : '';
  return `${cap(name)} ${who}${when}${close} ${verb} ${val} (${v.count} ${v.count === 1 ? one : many}${which}${traded}${payment}).`;
}

/** "ficou acima de 3.500,00 pontos": the condition's side and level in the measure's unit (a rate's level as a percentage; zero as a word). */
function beyondPhrase(r: MeasureResult, condition: NonNullable<Condition>): string {
  const level = condition.value === 0 ? 'zero' : formatIn(r.unit === 'pct_month' || r.unit === 'pct_year' ? 'pct' : r.unit, condition.value);
  return `${condition.op === 'gt' ? 'ficou acima de' : 'ficou abaixo de'} ${level}`;
}

/** "procurei em 3.718 valores da série": how many values a crossing was looked for in. */
const searchedPhrase = (count: number, when: string) => `procurei em ${formatInteger(count)} ${count === 1 ? 'valor' : 'valores'} ${when ? 'do período' : 'da série'}`;

/** "A primeira vez que o IFIX ficou acima de 3.500,00 pontos foi em 05/09/2025, com 3.500,33 pontos; procurei em 3.718 valores da série." */
function crossingSentence({ r, v, when, val, at, condition }: Said): string {
  const which = r.agg === 'first' ? 'A primeira' : 'A última';
  return `${which} vez que ${bare(v.subject)} ${beyondPhrase(r, condition!)}${when} foi em ${at}, com ${val}; ${searchedPhrase(v.count, when)}.`;
}

/** How many days (months) met the question's condition, else how many rows there were. */
function countSentence({ r, v, name, who, when, condition }: Said): string {
  if (v.matched && condition) {
    const which = v.matched.length ? ` (${v.matched.map((d) => dateOf(r, d)).join(', ')})` : '';
    const unitWord = r.grain === 'month' ? (v.value === 1 ? 'mês' : 'meses') : v.value === 1 ? 'dia' : 'dias';
    return `${cap(name)} ${who} ${beyondPhrase(r, condition)} em ${v.value} ${unitWord}${when}${which}, de ${v.count} no período.`;
  }
  return `${cap(who.replace(/^d[oa] /, ''))} teve ${v.value} ${isPayments(r.measure) ? (v.value === 1 ? 'pagamento de dividendo' : 'pagamentos de dividendos') : 'registros'}${when}.`;
}

/**
 * The publisher's own figure beside Cota's, with why they differ: its window holds payments the base does not
 * have yet, or another twelve months (to its last payment, where Cota counts by data-com).
 */
function publishedNote(v: MeasureResult['values'][number], unit: MeasureResult['unit'], name: string): string {
  const p = v.published;
  if (!p) return '';
  const newer = p.paid_to && v.period && p.paid_to.slice(0, 7) > v.period.to.slice(0, 7);
  const why = newer
    ? `com pagamentos até ${formatDate(p.paid_to!)}, mais recentes que os dividendos que tenho (até ${formatDate(v.period!.to)})`
    : p.paid_to
      ? `contando os 12 meses até o pagamento de ${formatDate(p.paid_to)} (aqui, pela data-com)`
      : 'com outra janela de 12 meses';
  return ` ${cap(name)} publicado pela fonte dos indicadores em ${formatDate(p.date)} é ${formatIn(unit, p.value)}, ${why}.`;
}

/** The latest value; a dividend says its data-com and payment dates. */
function lastSentence(c: Said): string {
  const { r, v, name, who, when, val, at } = c;
  const trade = tradesOfDay(c, 'last');
  if (trade) return trade;
  return r.measure === 'dividend'
    ? `O último dividendo ${who}${when} foi ${val} por cota, ${at ? `com data-com em ${at}${v.paid_on ? ` e pagamento em ${formatDate(v.paid_on)}` : ''}` : `pago em ${formatDate(v.paid_on as string)}`}.`
    : plural(name)
      ? `${cap(name)} ${who}${when}: o valor mais recente é ${val}, em ${at}.`
      : `${cap(name)} ${who} mais recente${when} é ${val}, em ${at}.`;
}

/**
 * "A operação mais recente da sua carteira foi em 29/12/2022: compra de 40 cotas de BTAL11 a R$ 95,00 (R$ 3.800,00)."; the first
 * trades are told the same way, every trade of that day ("a primeira compra ...: 60 cotas de BTLG11 a R$ 103,00 e 50 cotas de HGRU11 ...").
 */
function tradesOfDay({ r, v, who, when, words }: Said, which: 'first' | 'last'): string | null {
  const t = which === 'last' ? v.rows[v.rows.length - 1] : v.rows[0];
  if (!t || t.quantity === undefined || t.price === undefined || !v.date || t.date !== v.date.slice(0, 10)) return null;
  const sameDay = v.rows.filter((x) => x.date === t.date && x.quantity !== undefined && x.price !== undefined);
  // (the side is said of operations, not of purchases or sales already named so)
  const sideSaid = !/^(?:compra|venda)$/.test(nounOf(words, r.measure).one);
  const told = sameDay.map((x) => {
    const side = x.side && sideSaid ? `${x.side === 'buy' ? 'compra' : 'venda'} de ` : '';
    const shares = `${formatIn('count', x.quantity!)} ${x.quantity === 1 ? 'cota' : 'cotas'}${x.fund ? ` de ${x.fund}` : ''}`;
    const amount = r.unit === 'brl' ? ` (${formatIn('brl', x.value)})` : '';
    return `${side}${shares} a ${formatIn('brl', x.price!)}${amount}`;
  });
  // (the trades' nouns are feminine: "a compra", "a venda", "a operação")
  const noun = sameDay.length > 1 ? nounOf(words, r.measure).many : nounOf(words, r.measure).one;
  const head =
    which === 'last'
      ? `${sameDay.length > 1 ? 'As' : 'A'} ${noun} mais ${sameDay.length > 1 ? 'recentes' : 'recente'}`
      : `${sameDay.length > 1 ? 'As primeiras' : 'A primeira'} ${noun}`;
  return `${head} ${who}${when} ${sameDay.length > 1 ? 'foram' : 'foi'} em ${formatDate(t.date)}: ${joinPt(told)}.`;
}

/** "As cotas compradas do BTAL11: 40, em 29/12/2022."; several rows are counted here and shown in the table after. */
function listSentence(c: Said): string {
  const { r, v, name, who, when, val, at, words } = c;
  if (v.rows.length > 1) {
    const { many } = nounOf(words, r.measure);
    return `${cap(name)} ${who}${when}: ${v.rows.length} ${many}, de ${dateOf(r, v.rows[0].date)} a ${dateOf(r, v.rows[v.rows.length - 1].date)}.`;
  }
  // (one trade listed says its shares and price too: "70, em 31/08/2022 (XPIN11, a R$ 86,70 por cota)")
  const notes = [v.funds.length ? joinPt(v.funds) : null, oneTrade(r, v)].filter(Boolean);
  const of = notes.length ? ` (${notes.join(', ')})` : '';
  return v.rows.length === 1 ? `${cap(name)} ${who}${when}: ${val}, em ${at}${otherDatePhrase(words[r.measure], v.rows[0])}${of}.` : valueSentence(c);
}

/** A single value: the client's own figures, a yield with its parts, or the value of a day, month or period. */
function valueSentence({ r, v, name, who, when, val, at, spec, words }: Said): string {
  // The client's own current figures have no date to speak of.
  if (r.measure === 'shares_held')
    return `Você tem ${val} ${v.value === 1 ? 'cota' : 'cotas'} ${v.subject.kind === 'portfolio' ? 'na sua carteira, somando todos os fundos' : who}.`;
  if (r.measure === 'avg_price' || r.measure === 'invested' || r.measure === 'cost_weight') return `${cap(name)} ${who} é ${val}.`;
  if (dividesPrice(words, r.measure) && v.start && v.end) {
    const price =
      v.price_kind === 'reference'
        ? `o preço de referência de ${formatMoney(v.end.value)} publicado em ${formatDate(v.end.date)} (P/VP × valor patrimonial por cota; não é um fechamento negociado)`
        : `o fechamento de ${formatMoney(v.end.value)} em ${formatDate(v.end.date)}`;
    return `${cap(name)} ${who}${when || ' nos últimos 12 meses'} foi ${val}: ${formatMoney(v.start.value)} em dividendos por cota sobre ${price}.${publishedNote(v, r.unit, name)}`;
  }
  const oneMonth = r.grain === 'month' && v.period && v.period.from.slice(0, 7) === v.period.to.slice(0, 7);
  const span = !oneMonth && isSpan(spec);
  if (oneMonth) return `${cap(name)} ${who}${when} foi ${val}.`;
  if (span) return `${cap(name)} ${who}${when} foi ${val}, no último dado do período (${at}).`;
  // A day without a value (a holiday, a weekend): say so, and give the last value before it.
  const asked = isOneDay(spec) ? (spec?.kind === 'range' ? spec.from : (v.period?.from ?? null)) : null;
  if (asked && v.date && v.date.slice(0, 10) !== asked)
    return `Não há dado em ${formatDate(asked)} (dia sem pregão ou sem publicação); ${name} ${who} no dia anterior mais próximo, ${at}, foi ${val}.`;
  // (the whole portfolio's value found in one fund or a few names them: "o preço de venda da sua carteira ... (XPIN11)")
  return `${cap(name)} ${who}${asked ? '' : when} em ${at} foi ${val}${fundsOfPortfolio(v)}.`;
}

/** "do preço", "da taxa", "dos dividendos", "das causas": "de" joined to the name's article. */
const ofName = (name: string) => `d${name}`;
const signed = (v: number) => `${v > 0 ? '+' : ''}${formatPercent(v)}`;
const monthOf = formatMonthShort;

const PANEL_NAMES: Record<string, string> = { USD: 'Dólar (USD)', EUR: 'Euro (EUR)', SELIC: 'Selic', 'META-SELIC': 'Meta da Selic', POUPANCA: 'Poupança' };

/** Several series at one date: one line each, with the date (or reference month) of its value. */
function renderPanel(r: MeasureResult, question: StructuredQuestion | null, words: MeasureWords): string {
  if (r.agg === 'variation') return renderReturnsPanel(r, question, words);
  const p = question?.period;
  const day = p && p.kind === 'range' ? p.to : null;
  const head = day ? `Panorama em ${formatDate(day)}:` : 'Panorama com o dado mais recente de cada série:';
  const lines = r.values.map((v) => {
    const label = PANEL_NAMES[v.subject.id] ?? v.subject.id;
    if (v.value === null || !v.unit) return `- ${label}: sem dado${v.coverage ? ` (a série vai de ${formatDate(v.coverage.from)} a ${formatDate(v.coverage.to)})` : ''}`;
    const grainR: MeasureResult = { ...r, grain: v.grain ?? 'day' };
    const when = v.date ? (v.grain === 'month' ? `referência: ${dateOf(grainR, v.date)}` : formatDate(v.date)) : '';
    return `- ${label}: ${formatIn(v.unit, v.value)}${when ? ` (${when})` : ''}`;
  });
  const carried = r.values.some((v) => v.grain === 'month' && v.date && day && v.date.slice(0, 7) !== day.slice(0, 7));
  const note = carried ? '\n\nSéries mensais mostram o último mês de referência até a data.' : '';
  return `${head}\n${lines.join('\n')}${note}`;
}

/**
 * Several series over one period, each by its own return (an index's variation, a rate compounded),
 * in the words each would get alone; the comparison's verdict when one was asked.
 */
function renderReturnsPanel(r: MeasureResult, question: StructuredQuestion | null, words: MeasureWords): string {
  const spec = question?.period ?? null;
  const ordered = inCompareOrder(r.values, question);
  const lines = ordered.map((v) => {
    const measure = v.measure ?? r.measure;
    const own: MeasureResult = { ...r, measure, agg: v.agg ?? 'variation', unit: v.unit ?? r.unit, value_unit: 'pct', grain: v.grain ?? 'day', values: [v] };
    return sentence(own, v, nameOf(words, measure), spec, null, words);
  });
  const parts = [lines.join('\n')];
  if (question?.compare && r.values.length > 1) {
    const w = r.winner;
    const verb = question.compare === 'max' ? 'maior' : 'menor';
    parts.push(
      w
        ? `Entre eles, o ${verb} rendimento no período é ${subjectOf(w)}${marginOf(r.values, w, 'pct')}.`.replace('é do', 'é o do')
        : `Não há um ${verb} rendimento: os valores empatam ou faltam dados.`,
    );
  }
  if (r.values.some((v) => v.adjusted && v.value !== null)) parts.push('A variação usa preços ajustados por proventos (retorno total), não só a cotação negociada.');
  return parts.join('\n\n');
}

/** How a measure's other date is named: the data-com of a payment dated by its day, the payment of a data-com. */
function otherDateLabel(spec: MeasureWords[string] | undefined): string | null {
  return spec?.secondary_date_column === 'traded_until_date' ? 'Data-com' : spec?.secondary_date_column === 'payment_date' ? 'Pagamento' : null;
}

/** ", com data-com em 18/03/2025" or ", pago em 15/01/2025": one row's other date, said after its own. */
function otherDatePhrase(spec: MeasureWords[string] | undefined, row: MeasureValue['rows'][number] | undefined): string {
  if (!row?.other_date) return '';
  const label = otherDateLabel(spec);
  return label === 'Data-com' ? `, com data-com em ${formatDate(row.other_date)}` : label ? `, pago em ${formatDate(row.other_date)}` : '';
}

/** The period's values when listing them helps: payments of a total, months of a grouped question. */
function rowsTable(r: MeasureResult, v: MeasureValue, words: MeasureWords): string | null {
  const listing = r.agg === 'list' || r.group_by !== null || (isPayments(r.measure) && (r.agg === 'total' || r.agg === 'count'));
  if (!listing || v.rows.length < 2 || v.rows.length > 60) return null;
  if (r.group_by === null && v.rows.every((row) => row.quantity !== undefined && row.price !== undefined)) return tradesTable(r, v);
  const head =
    r.group_by === 'month' || r.grain === 'month'
      ? 'Mês'
      : r.group_by === 'year'
        ? 'Ano'
        : r.measure === 'dividend'
          ? 'Data-com'
          : r.measure === 'dividend_paid'
            ? 'Pagamento'
            : 'Data';
  const fmt = (d: string) => (r.group_by === 'month' || r.grain === 'month' ? monthOf(d) : r.group_by === 'year' ? d.slice(0, 4) : formatDate(d));
  // An extreme among months lists each month's own figure (a level's variation in it).
  const unit = r.extreme_group ? r.value_unit : r.unit;
  // (a payment's other date beside it: the day it was paid of a data-com, the data-com of a payment)
  const other = r.group_by === null && r.grain !== 'month' && v.rows.some((row) => row.other_date) ? otherDateLabel(words[r.measure]) : null;
  const second = (row: MeasureValue['rows'][number]) => (other ? ` ${row.other_date ? formatDate(row.other_date) : '—'} |` : '');
  const lines = v.rows.map((row) => `| ${fmt(row.date)} | ${unit === 'pct' && r.unit !== 'pct' ? signed(row.value) : formatIn(unit, row.value)} |${second(row)}`);
  const valueHead = r.extreme_group && unit !== r.unit ? 'Variação' : 'Valor';
  return [`| ${head} | ${valueHead} |${other ? ` ${other} |` : ''}`, `|---|---|${other ? '---|' : ''}`, ...lines].join('\n');
}

const SIDE = { buy: 'Compra', sell: 'Venda' } as const;

/** Trades listed: each with its day, fund and side (when the list has several), shares, price per share and, of amounts, its value. */
function tradesTable(r: MeasureResult, v: MeasureValue): string {
  const fund = v.rows.some((row) => row.fund);
  const side = v.rows.some((row) => row.side);
  const amount = r.unit === 'brl';
  const columns: TableColumn[] = [
    { label: 'Data', align: 'left' },
    ...(fund ? [{ label: 'Fundo', align: 'left' as const }] : []),
    ...(side ? [{ label: 'Operação', align: 'left' as const }] : []),
    { label: 'Cotas', align: 'right' },
    { label: 'Preço por cota', align: 'right' },
    ...(amount ? [{ label: 'Valor', align: 'right' as const }] : []),
  ];
  const rows = v.rows.map((row) => [
    formatDate(row.date),
    ...(fund ? [row.fund ?? '—'] : []),
    ...(side ? [row.side ? SIDE[row.side] : '—'] : []),
    formatIn('count', row.quantity!),
    formatMoney(row.price!),
    ...(amount ? [formatMoney(row.value)] : []),
  ]);
  return markdownTable(columns, rows);
}

/** "Fonte: B3/Banco Central, dados até 23/12/2025." for a measure answer (a month for monthly series). */
export function measureSources(result: MeasureResult): { sources: string[]; asOf: string | null; monthly: boolean } {
  const sources = [...new Set(result.values.flatMap((v) => v.sources))].sort();
  // The newest date shown, the extras' too ("e 75.213 em dezembro de 2023").
  const dates = result.values
    .flatMap((v) => [v.date, ...v.extra.map((e) => e.date)])
    .filter((d): d is string => !!d)
    .sort();
  return { sources, asOf: dates.length ? dates[dates.length - 1] : null, monthly: result.grain === 'month' && result.measure !== 'panel' };
}
