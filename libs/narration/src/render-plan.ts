import type { MeasureValue, PlanRun, StepOutcome, Synthesis } from '@cota/contracts';
import { formatDate, formatMoney, formatPercent, joinPt } from './format';
import { markdownTable } from './render-table';
import { dailyGapNote, formatIn } from './render-measure';

/**
 * The answer of a multi-step plan, from its steps' results only: a comparison table with the best
 * per measure marked, the figures each conclusion rests on, a verdict that never recommends buying
 * or selling, and what could not be obtained. Every number comes from a step.
 */
export function renderPlan(run: PlanRun, notAdvice: string): string {
  const byId = new Map(run.outcomes.map((o) => [o.id, o]));
  const syn = run.plan.synthesis;
  let body: string;
  switch (syn.shape) {
    case 'comparison':
      body = comparison(syn, byId);
      break;
    case 'projection':
      body = projection(syn, byId);
      break;
    case 'screen':
      body = screen(syn, byId);
      break;
    case 'benchmark':
      body = benchmark(syn, byId);
      break;
  }
  const missing = run.outcomes.filter((o) => o.status !== 'ok');
  const gaps = missing.length
    ? `\n\nNão consegui obter: ${missing.map((o) => `${o.label.charAt(0).toLowerCase()}${o.label.slice(1)} (${o.reason ?? 'sem motivo informado'})`).join('; ')}.`
    : '';
  return `${body}${gaps}\n\n${notAdvice}`;
}

type Outcomes = Map<string, StepOutcome>;

const valueOf = (o: StepOutcome | undefined, subject: string): MeasureValue | undefined => o?.measure?.values.find((v) => v.subject.id === subject);
const shown = (o: StepOutcome | undefined, v: MeasureValue | undefined) => (v && v.value !== null && o?.measure ? formatIn(v.unit ?? o.measure.value_unit, v.value) : '—');
const datesOf = (o: StepOutcome | undefined) => [...new Set((o?.measure?.values ?? []).map((v) => v.date).filter((d): d is string => !!d))].sort();

function comparison(syn: Extract<Synthesis, { shape: 'comparison' }>, byId: Outcomes): string {
  const subjects = [...new Set(syn.dimensions.flatMap((d) => (byId.get(d.step)?.measure?.values ?? []).map((v) => v.subject.id)))];
  const best = new Map<string, string | null>();
  const lines: string[] = [];
  for (const d of syn.dimensions) {
    const o = byId.get(d.step);
    if (o?.status !== 'ok' || d.better === 'neither') continue;
    const ranked = (o.measure?.values ?? []).filter((v) => v.value !== null).sort((a, b) => (d.better === 'higher' ? b.value! - a.value! : a.value! - b.value!));
    if (ranked.length < 2 || ranked[0].value === ranked[1].value) continue;
    best.set(d.step, ranked[0].subject.id);
    const others = ranked
      .slice(1)
      .map((v) => `${shown(o, v)} do ${v.subject.id}`)
      .join(', ');
    lines.push(`- ${o.label}: **${ranked[0].subject.id}** (${shown(o, ranked[0])}, contra ${others}).`);
  }
  const table = markdownTable(
    [{ label: 'Medida', align: 'left' }, ...subjects.map((s) => ({ label: s, align: 'right' as const }))],
    syn.dimensions.map((d) => {
      const o = byId.get(d.step);
      return [o?.label ?? d.step, ...subjects.map((s) => `${shown(o, valueOf(o, s))}${best.get(d.step) === s ? ' ✔' : ''}`)];
    }),
  );
  const wins = new Map<string, string[]>();
  for (const [step, s] of best) if (s) wins.set(s, [...(wins.get(s) ?? []), byId.get(step)!.label.split(':')[0].toLowerCase()]);
  const verdict = wins.size
    ? `Pelos números, ${[...wins].map(([s, what]) => `o ${s} leva vantagem em ${joinPt(what)}`).join('; ')}.`
    : 'Pelos números, nenhum deles se destaca nas medidas comparadas.';
  const income = syn.focus === 'income' ? incomeNote(syn, byId) : '';
  const asOf = syn.dimensions
    .flatMap((d) => datesOf(byId.get(d.step)))
    .sort()
    .at(-1);
  return [
    `**Comparação de ${joinPt(subjects)}** (✔ marca o melhor em cada medida em que mais, ou menos, é melhor):`,
    table,
    ...(lines.length ? [lines.join('\n')] : []),
    `${verdict}${income}`,
    ...(asOf ? [`Dados até ${formatDate(asOf)}.`] : []),
  ].join('\n\n');
}

/** For an income portfolio, the yield leads: which fund pays more today, and what it costs in risk. */
function incomeNote(syn: Extract<Synthesis, { shape: 'comparison' }>, byId: Outcomes): string {
  const dy = syn.dimensions.map((d) => byId.get(d.step)).find((o) => o?.measure?.measure === 'dy' && o.status === 'ok');
  if (!dy?.measure) return '';
  const top = [...dy.measure.values].filter((v) => v.value !== null).sort((a, b) => b.value! - a.value!)[0];
  return top
    ? ` Para uma carteira de renda, o que mais pesa é o dividend yield: hoje o maior é o do ${top.subject.id} (${shown(dy, top)}), o que não garante rendimentos futuros; compare também o risco.`
    : '';
}

function projection(syn: Extract<Synthesis, { shape: 'projection' }>, byId: Outcomes): string {
  const y = byId.get(syn.yield_step);
  const p = byId.get(syn.projection_step);
  const v = y?.measure?.values.find((x) => x.value !== null);
  const text = (p?.tool?.result as { text?: unknown } | null)?.text;
  if (!v || p?.status !== 'ok' || typeof text !== 'string') {
    return `Não consegui fazer a projeção${v ? ` (o dividend yield de 12 meses do ${v.subject.id} é ${shown(y, v)}${v.date ? ` em ${formatDate(v.date)}` : ''})` : ''}.`;
  }
  return [
    `Usei o dividend yield de 12 meses do ${v.subject.id} (${shown(y, v)}${v.date ? ` em ${formatDate(v.date)}` : ''}) como taxa anual constante, com os rendimentos reinvestidos:`,
    text,
    'A projeção supõe que o fundo mantenha esse rendimento e que a cota não mude de preço; rendimentos passados não garantem os futuros, e não há impostos nem custos na conta.',
  ].join('\n\n');
}

function screen(syn: Extract<Synthesis, { shape: 'screen' }>, byId: Outcomes): string {
  const subjects = [...new Set(syn.conditions.flatMap((c) => (byId.get(c.step)?.measure?.values ?? []).map((v) => v.subject.id)))];
  const passes = (s: string, c: (typeof syn.conditions)[number]) => {
    const v = valueOf(byId.get(c.step), s)?.value;
    return v === null || v === undefined ? null : c.op === 'gt' ? v > c.value : v < c.value;
  };
  const table = markdownTable(
    [{ label: 'Fundo', align: 'left' }, ...syn.conditions.map((c) => ({ label: c.label, align: 'right' as const })), { label: 'Atende a tudo', align: 'left' }],
    subjects.map((s) => {
      const checks = syn.conditions.map((c) => passes(s, c));
      return [
        s,
        ...syn.conditions.map((c, i) => `${shown(byId.get(c.step), valueOf(byId.get(c.step), s))} ${checks[i] === null ? '(sem dado)' : checks[i] ? '✔' : '✘'}`),
        checks.every((x) => x === true) ? 'sim' : 'não',
      ];
    }),
  );
  const ok = subjects.filter((s) => syn.conditions.every((c) => passes(s, c) === true));
  const head = ok.length
    ? `**Atendem a todas as condições (${syn.conditions.map((c) => c.label).join(' e ')}): ${joinPt(ok)}.**`
    : `**Nenhum dos fundos atende a todas as condições (${syn.conditions.map((c) => c.label).join(' e ')}).**`;
  const asOf = syn.conditions
    .flatMap((c) => datesOf(byId.get(c.step)))
    .sort()
    .at(-1);
  return [head, table, ...(asOf ? [`Dados até ${formatDate(asOf)}.`] : [])].join('\n\n');
}

function benchmark(syn: Extract<Synthesis, { shape: 'benchmark' }>, byId: Outcomes): string {
  const price = byId.get(syn.price_step)?.measure?.values[0];
  const income = byId.get(syn.income_step)?.measure?.values[0];
  const rate = byId.get(syn.benchmark_step)?.measure?.values[0];
  if (!price?.start || !price.end || price.start.value <= 0 || !rate || rate.value === null) {
    return 'Não consegui comparar o fundo com a taxa: faltaram dados do período.';
  }
  const fund = price.subject.id;
  const dividends = income?.value ?? 0;
  if (price.adjusted) return incomeOnly(fund, price, dividends, rate);
  const priceReturn = (price.end.value / price.start.value - 1) * 100;
  const incomeReturn = (dividends / price.start.value) * 100;
  const total = priceReturn + incomeReturn;
  const bench = rate.subject.id;
  const period = `de ${formatDate(price.start.date)} a ${formatDate(price.end.date)}`;
  const diff = total - rate.value;
  // A benchmark accumulated over a gap in the base is understated: no verdict on it.
  const partial = dailyGapNote(rate);
  const verdict = partial
    ? partialVerdict(`o ${fund}`, bench, diff, partial)
    : Math.abs(diff) < 0.005
      ? `No período, os dois renderam praticamente o mesmo.`
      : diff > 0
        ? `No período, o ${fund} rendeu ${formatBrPoints(diff)} a mais que o ${bench}.`
        : `No período, o ${bench} rendeu ${formatBrPoints(-diff)} a mais que o ${fund}.`;
  return [
    `**${period.charAt(0).toUpperCase()}${period.slice(1)}, o ${fund} rendeu ${formatPercent(total)} no total, contra ${formatPercent(rate.value)} do ${bench} acumulado${partial ? ' nos dias que a base tem' : ''}.**`,
    markdownTable(
      [
        { label: 'Componente', align: 'left' },
        { label: 'Valor', align: 'right' },
      ],
      [
        ['Cota', `${formatMoney(price.start.value)} → ${formatMoney(price.end.value)} (${formatPercent(priceReturn)})`],
        ['Dividendos por cota', `${formatMoney(dividends)} (${formatPercent(incomeReturn)} sobre a cota inicial)`],
        [`Retorno total do ${fund}`, formatPercent(total)],
        [`${bench} acumulado${partial ? ' (parcial)' : ''}`, formatPercent(rate.value)],
      ],
    ),
    `${verdict} O retorno do fundo soma a variação da cota e os dividendos (sem reinvestir); o ${bench} é renda fixa pós-fixada, com outro risco e outra tributação (dividendos de FII são isentos para pessoa física nas condições da lei; renda fixa paga IR). O passado não garante o futuro.`,
  ].join('\n\n');
}

/**
 * The base has, for the period, prices adjusted for dividends from one source and plain closes from
 * another: the price change would be wrong and adding the dividends would count them twice. The
 * income part is still exact: the dividends paid over the last close, against the rate.
 */
function incomeOnly(fund: string, price: MeasureValue, dividends: number, rate: MeasureValue): string {
  const end = price.end!;
  const incomeYield = (dividends / end.value) * 100;
  const bench = rate.subject.id;
  const partial = dailyGapNote(rate);
  // The income and the rate are over the question's period; the price step may start later (at its first traded close).
  const period = `de ${formatDate(rate.start?.date ?? price.start!.date)} a ${formatDate(rate.end?.date ?? end.date)}`;
  const diff = incomeYield - rate.value!;
  const verdict = partial
    ? partialVerdict(`os dividendos do ${fund}`, bench, diff, partial)
    : diff >= 0
      ? `Só em dividendos, o ${fund} rendeu ${formatBrPoints(diff)} a mais que o ${bench}.`
      : `Só em dividendos, o ${fund} rendeu ${formatBrPoints(-diff)} a menos que o ${bench}.`;
  return [
    `**${period.charAt(0).toUpperCase()}${period.slice(1)}, o ${fund} pagou ${formatMoney(dividends)} por cota em dividendos, ${formatPercent(incomeYield)} sobre a cota de ${formatMoney(end.value)}, contra ${formatPercent(rate.value!)} do ${bench} acumulado${partial ? ' nos dias que a base tem' : ''}.**`,
    `${verdict} A variação da cota ficou de fora: nesse período a base tem preços ajustados por proventos de uma fonte e preços de fechamento de outra, e somá-los com os dividendos contaria os dividendos duas vezes. Dividendos de FII são isentos para pessoa física nas condições da lei; a renda fixa paga IR. O passado não garante o futuro.`,
  ].join('\n\n');
}

/**
 * With a gap in the rate's series its accumulation is a lower bound: when even that beats the fund,
 * the rate was ahead; otherwise the comparison cannot be settled.
 */
function partialVerdict(fund: string, bench: string, diff: number, note: string): string {
  const why = note.trim().replace(/^Atenção: /, '');
  return diff < 0 ? `No período, o ${bench} rendeu mais que ${fund}, e a diferença real é ainda maior: ${why}` : `Não dá para dizer qual rendeu mais: ${why}`;
}

/** A difference of two percentages, in percentage points ("2,87 p.p."). */
const formatBrPoints = (v: number) => `${formatPercent(v).replace('%', '')} p.p.`;
