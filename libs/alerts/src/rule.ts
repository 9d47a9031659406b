import { z } from 'zod';
import { alertCatalog, type AlertCatalog, type AlertMeasure, type AlertUnit } from '@cota/catalog';
import { CotaError } from '@cota/contracts';
import { formatDate, formatDecimal, formatMoney, formatMonthYear, formatPercent, TICKER_RE } from '@cota/text';

/**
 * A client's rule. Its kinds, the measures a level or a daily move watches, and their words and
 * sentences are policies/alerts.yaml's (libs/catalog `AlertCatalog`); `measure` is a measure's id there.
 */
const ticker = z.string().regex(TICKER_RE);
export const AlertRule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('distribution'), ticker }).strict(),
  z
    .object({
      kind: z.literal('level'),
      measure: z.string(),
      /** The fund, for a fund's measure; null for a market series. */
      ticker: ticker.nullable(),
      op: z.enum(['above', 'below']),
      /** In the measure's unit (policies/alerts.yaml `unit`). */
      value: z.number().finite(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('move'),
      measure: z.string(),
      ticker: ticker.nullable(),
      /** up: a rise larger than `value`; down: a fall; either: both. */
      op: z.enum(['up', 'down', 'either']),
      /** In percent of the day before. */
      value: z.number().positive(),
    })
    .strict(),
  /** A new monthly report of the fund, or (ticker null) of any fund the client holds. */
  z.object({ kind: z.literal('monthly_report'), ticker: ticker.nullable() }).strict(),
]);
export type AlertRule = z.infer<typeof AlertRule>;
export type LevelRule = Extract<AlertRule, { kind: 'level' }>;
export type MoveRule = Extract<AlertRule, { kind: 'move' }>;

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

function question(text: string): CotaError {
  return new CotaError('BAD_REQUEST', text, { alert_question: true });
}

/**
 * The rule the tool's arguments describe (read by the planner's `alert` extractor). A rule that cannot be
 * built gets a question back naming what is missing, never a guess.
 */
export function ruleFromArgs(args: Record<string, unknown>, catalog: AlertCatalog = alertCatalog()): AlertRule {
  const fund = str(args.ticker)?.toUpperCase() ?? null;
  const measure = catalog.measureByArg(str(args.medida) ?? '');
  const kind = catalog.kindByArg(str(args.tipo) ?? '')?.id ?? (measure ? 'level' : fund ? 'distribution' : null);
  switch (kind) {
    case 'distribution':
      if (!fund) throw question(`De qual fundo devo avisar quando anunciar um provento? (ex.: "${catalog.kind('distribution').example}")`);
      return { kind: 'distribution', ticker: fund };
    case 'monthly_report':
      return { kind: 'monthly_report', ticker: fund };
    case 'move':
      return moveRule(args, catalog, measure, fund);
    case 'level':
      return levelRule(args, catalog, measure, fund);
    default: {
      const kinds = catalog.kinds.map((k) => k.summary).join('; ');
      const examples = catalog.kinds.map((k) => `"${k.example}"`).join(', ');
      throw question(`Não entendi sobre o que avisar. Sei avisar sobre: ${kinds}. Por exemplo: ${examples}.`);
    }
  }
}

function levelRule(args: Record<string, unknown>, catalog: AlertCatalog, measure: AlertMeasure | null, fund: string | null): LevelRule {
  if (!measure) throw question(`Avisar quando o quê passar do nível? (ex.: "${catalog.kind('level').example}")`);
  if (measure.scope === 'fund' && !fund) throw question(`De qual fundo é ${measure.name}? (ex.: "${catalog.kind('level').example}")`);
  const direcao = str(args.direcao);
  const value = numberArg(args.valor);
  if ((direcao !== 'acima' && direcao !== 'abaixo') || value === null) {
    const sample = measure.unit === 'money' ? 'R$ 150' : measure.unit === 'ratio' ? '0,9' : measure.unit === 'points' ? '3.300 pontos' : '9%';
    throw question(`Avisar quando ${who(measure, fund)} passar de quanto, ou cair abaixo de quanto? (ex.: "acima de ${sample}")`);
  }
  if (value < 0 || (measure.max !== undefined && value > measure.max))
    throw question(`O nível ${formatValue(measure.unit, value)} não parece possível para ${measure.name}. Qual nível devo usar?`);
  return { kind: 'level', measure: measure.id, ticker: measure.scope === 'fund' ? fund : null, op: direcao === 'acima' ? 'above' : 'below', value };
}

function moveRule(args: Record<string, unknown>, catalog: AlertCatalog, named: AlertMeasure | null, fund: string | null): MoveRule {
  const example = catalog.kind('move').example;
  // "se o HGLG11 cair mais de 3% num dia" names a fund, not a measure: its price.
  const measure = named ?? (fund ? (catalog.measures.find((m) => m.daily_move && m.scope === 'fund') ?? null) : null);
  const movable = catalog.measures.filter((m) => m.daily_move).map((m) => m.name);
  if (!measure || !measure.daily_move) throw question(`Sei avisar da variação num dia de: ${movable.join(', ')}. De qual? (ex.: "${example}")`);
  if (measure.scope === 'fund' && !fund) throw question(`De qual fundo é ${measure.name}? (ex.: "${example}")`);
  const value = numberArg(args.valor);
  if (value === null) throw question(`Avisar quando ${who(measure, fund)} variar mais de quantos por cento num dia? (ex.: "${example}")`);
  if (value <= 0 || value > 100) throw question(`Uma variação de ${formatPercent(value)} num dia não parece possível. Qual variação devo usar?`);
  const direcao = str(args.direcao);
  return { kind: 'move', measure: measure.id, ticker: measure.scope === 'fund' ? fund : null, op: direcao === 'acima' ? 'up' : direcao === 'abaixo' ? 'down' : 'either', value };
}

function numberArg(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** A value in its unit's words: "9,00%", "10,00% ao ano", "R$ 140,00", "0,90", "3.300 pontos". */
export function formatValue(unit: AlertUnit, value: number): string {
  switch (unit) {
    case 'money':
      return formatMoney(value);
    case 'percent_year':
      return `${formatPercent(value)} ao ano`;
    case 'ratio':
      return formatDecimal(value, 2);
    case 'points':
      return `${formatDecimal(value, 0)} pontos`;
    default:
      return formatPercent(value);
  }
}

/** The measure (of its fund): "o DY (12 meses) do HGLG11", "a Selic". */
function who(measure: AlertMeasure, fund: string | null): string {
  return measure.scope === 'fund' && fund ? `${measure.name} do ${fund}` : measure.name;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function measureOf(rule: LevelRule | MoveRule, catalog: AlertCatalog): AlertMeasure {
  const m = catalog.measure(rule.measure);
  if (!m) throw new Error(`alert rule on measure '${rule.measure}', which policies/alerts.yaml no longer declares`);
  return m;
}

/** The rule in words: "quando o XPML11 anunciar um provento", "quando a Selic ficar abaixo de 10,00% ao ano". */
export function describeRule(rule: AlertRule, catalog: AlertCatalog = alertCatalog()): string {
  const kind = catalog.kind(rule.kind);
  if (rule.kind === 'distribution' || rule.kind === 'monthly_report') {
    if (!rule.ticker && kind.describe_holdings) return kind.describe_holdings;
    return fill(kind.describe as string, { ticker: rule.ticker ?? '' });
  }
  const measure = measureOf(rule, catalog);
  const templates = kind.describe as Record<string, string>;
  const dir = rule.op === 'above' || rule.op === 'up' ? 'acima' : rule.op === 'either' ? 'qualquer' : 'abaixo';
  const value = rule.kind === 'move' ? formatPercent(rule.value) : formatValue(measure.unit, rule.value);
  return fill(templates[dir], { who: who(measure, rule.ticker), value });
}

/** What an event tells a rule, read from its payload by the evaluator's observers. */
export interface Observation {
  /** The measure's value the event brings (a level), or the day's change in percent (a move). */
  value: number | null;
  /** The day the value is of (ISO). */
  date: string | null;
  /** For a move: the value the day before and on the day. */
  move?: { from: number; to: number };
  /** For a distribution: the announcement itself. */
  distribution?: { amount_per_share: number; record_date: string; payment_date: string | null };
  /** For a monthly report: the fund and what it reports. */
  report?: { ticker: string; ref_month: string; equity_per_share: number | null; dy_monthly_ratio: number | null };
}

/** Whether an observation meets a level rule. */
export function meets(rule: LevelRule, value: number): boolean {
  return rule.op === 'above' ? value > rule.value : value < rule.value;
}

/** Whether a day's change (in %) is the move a rule waits for. */
export function movedEnough(rule: MoveRule, changePct: number): boolean {
  if (rule.op === 'up') return changePct > rule.value;
  if (rule.op === 'down') return -changePct > rule.value;
  return Math.abs(changePct) > rule.value;
}

/** The notification of a rule that fired: a title and a sentence, in Portuguese. */
export function notificationText(rule: AlertRule, o: Observation, catalog: AlertCatalog = alertCatalog()): { title: string; body: string } {
  if (rule.kind === 'distribution' && o.distribution) {
    const d = o.distribution;
    const pay = d.payment_date ? `, pagamento em ${formatDate(d.payment_date)}` : '';
    return {
      title: `${rule.ticker} anunciou provento`,
      body: `O ${rule.ticker} anunciou ${formatMoney(d.amount_per_share)} por cota (data-com ${formatDate(d.record_date)}${pay}).`,
    };
  }
  if (rule.kind === 'monthly_report' && o.report) {
    const r = o.report;
    const month = formatMonthYear(r.ref_month);
    const facts = [
      r.equity_per_share !== null ? `valor patrimonial de ${formatMoney(r.equity_per_share)} por cota` : null,
      r.dy_monthly_ratio !== null ? `rendimento de ${formatPercent(r.dy_monthly_ratio * 100)} no mês` : null,
    ].filter(Boolean);
    return {
      title: `Informe mensal do ${r.ticker} (${month})`,
      body: `Saiu o informe mensal de ${month} do ${r.ticker}${facts.length ? `: ${facts.join(', ')}` : ''}.`,
    };
  }
  if (rule.kind === 'move' && o.move && o.value !== null) {
    const m = measureOf(rule, catalog);
    const verb = o.value >= 0 ? 'subiu' : 'caiu';
    const label = rule.ticker ?? m.series ?? m.id.toUpperCase();
    return {
      title: `${label}: ${verb} ${formatPercent(Math.abs(o.value))} no dia`,
      body:
        `${capital(who(m, rule.ticker))} ${verb} ${formatPercent(Math.abs(o.value))}${o.date ? ` em ${formatDate(o.date)}` : ''} ` +
        `(de ${formatValue(m.unit, o.move.from)} para ${formatValue(m.unit, o.move.to)}), mais que os ${formatPercent(rule.value)} do alerta.`,
    };
  }
  const r = rule as LevelRule;
  const m = measureOf(r, catalog);
  const verb = r.op === 'above' ? 'passou de' : 'ficou abaixo de';
  return {
    title: `${r.ticker ?? m.series ?? m.id.toUpperCase()}: ${verb} ${formatValue(m.unit, r.value)}`,
    body: `${capital(who(m, r.ticker))} ${verb} ${formatValue(m.unit, r.value)}: ${formatValue(m.unit, o.value ?? 0)}${o.date ? ` em ${formatDate(o.date)}` : ''}.`,
  };
}
