import { z } from 'zod';
import { CotaError } from '@cota/contracts';
import { formatDate, formatMoney, formatPercent, TICKER_RE } from '@cota/text';

/** What a client can be told about: a fund's new distribution, or a measure crossing a level. */
export const LEVEL_MEASURES = ['dy', 'price', 'selic', 'cdi', 'ipca'] as const;
export type LevelMeasure = (typeof LEVEL_MEASURES)[number];
/** The measures of one fund (the others are market series). */
const FUND_MEASURES: readonly LevelMeasure[] = ['dy', 'price'];

export const AlertRule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('distribution'), ticker: z.string().regex(TICKER_RE) }).strict(),
  z
    .object({
      kind: z.literal('level'),
      measure: z.enum(LEVEL_MEASURES),
      /** The fund, for DY and price; null for a market series. */
      ticker: z.string().regex(TICKER_RE).nullable(),
      op: z.enum(['above', 'below']),
      /** In the measure's unit: % for DY (12 months) and the rates, R$ for the price. */
      value: z.number().finite(),
    })
    .strict(),
]);
export type AlertRule = z.infer<typeof AlertRule>;

/** The indicator name a market measure is published under (cota.events.warehouse.indicator-published.v1). */
export const INDICATOR_OF: Partial<Record<LevelMeasure, string>> = { selic: 'SELIC', cdi: 'CDI', ipca: 'IPCA' };

const MEASURE_WORDS: Record<LevelMeasure, string> = {
  dy: 'o DY (12 meses)',
  price: 'a cotação',
  selic: 'a Selic',
  cdi: 'o CDI',
  ipca: 'o IPCA do mês',
};

const EXAMPLES =
  'Por exemplo: "me avise quando o XPML11 anunciar dividendo", "avise se o DY do HGLG11 passar de 9%", ' +
  '"avise se a cotação do KNRI11 cair abaixo de R$ 140" ou "se a Selic cair abaixo de 10%".';

/** The tool's `medida` argument (policies/tool_gate.yaml, in Portuguese) to the rule's measure. */
const MEASURE_ARG: Record<string, LevelMeasure> = { dy: 'dy', preco: 'price', selic: 'selic', cdi: 'cdi', ipca: 'ipca' };

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The rule the tool's arguments describe (read by the planner's `alert` extractor). A rule that cannot be
 * built gets a question back naming what is missing, never a guess.
 */
export function ruleFromArgs(args: Record<string, unknown>): AlertRule {
  const tipo = str(args.tipo);
  const ticker = str(args.ticker)?.toUpperCase() ?? null;
  const medida = (MEASURE_ARG[str(args.medida) ?? ''] ?? null) as LevelMeasure | null;
  if (tipo === 'distribuicao' || (!tipo && !medida && ticker)) {
    if (!ticker) throw question('De qual fundo devo avisar quando anunciar um provento? (ex.: "me avise quando o XPML11 anunciar dividendo")');
    return { kind: 'distribution', ticker };
  }
  if (!medida) {
    throw question(
      `Não entendi sobre o que avisar. Sei avisar quando um fundo anunciar um provento, ou quando o DY, a cotação, a Selic, o CDI ou o IPCA passar de um nível. ${EXAMPLES}`,
    );
  }
  const fund = FUND_MEASURES.includes(medida);
  if (fund && !ticker) throw question(`De qual fundo é ${MEASURE_WORDS[medida]}? (ex.: "avise se o DY do HGLG11 passar de 9%")`);
  const direcao = str(args.direcao);
  const valor = args.valor === undefined || args.valor === null ? null : Number(args.valor);
  if (!direcao || (direcao !== 'acima' && direcao !== 'abaixo') || valor === null || !Number.isFinite(valor)) {
    const who = fund ? `${MEASURE_WORDS[medida]} do ${ticker}` : MEASURE_WORDS[medida];
    throw question(`Avisar quando ${who} passar de quanto, ou cair abaixo de quanto? (ex.: "acima de ${medida === 'price' ? 'R$ 150' : '9%'}")`);
  }
  if (valor < 0 || (medida !== 'price' && valor > 100))
    throw question(`O nível ${formatLevel(medida, valor)} não parece possível para ${MEASURE_WORDS[medida]}. Qual nível devo usar?`);
  return { kind: 'level', measure: medida, ticker: fund ? ticker : null, op: direcao === 'acima' ? 'above' : 'below', value: valor };
}

function question(text: string): CotaError {
  return new CotaError('BAD_REQUEST', text, { alert_question: true });
}

export function formatLevel(measure: LevelMeasure, value: number): string {
  if (measure === 'price') return formatMoney(value);
  return measure === 'selic' || measure === 'cdi' ? `${formatPercent(value)} ao ano` : formatPercent(value);
}

/** The rule in words: "quando o XPML11 anunciar um provento", "quando a Selic ficar abaixo de 10,00% ao ano". */
export function describeRule(rule: AlertRule): string {
  if (rule.kind === 'distribution') return `quando o ${rule.ticker} anunciar um provento`;
  const who = rule.ticker ? `${MEASURE_WORDS[rule.measure]} do ${rule.ticker}` : MEASURE_WORDS[rule.measure];
  return `quando ${who} ${rule.op === 'above' ? 'passar de' : 'ficar abaixo de'} ${formatLevel(rule.measure, rule.value)}`;
}

/** What an event tells a rule, read from its payload (the evaluator adds the DY it computes). */
export interface Observation {
  /** The measure's value the event brings (null: the event says nothing about this rule). */
  value: number | null;
  /** The day the value is of (ISO). */
  date: string | null;
  /** For a distribution: the announcement itself. */
  distribution?: { amount_per_share: number; record_date: string; payment_date: string | null };
}

/** Whether an observation meets a level rule. */
export function meets(rule: Extract<AlertRule, { kind: 'level' }>, value: number): boolean {
  return rule.op === 'above' ? value > rule.value : value < rule.value;
}

/** The notification of a rule that fired: a title and a sentence, in Portuguese. */
export function notificationText(rule: AlertRule, o: Observation): { title: string; body: string } {
  if (rule.kind === 'distribution' && o.distribution) {
    const d = o.distribution;
    const pay = d.payment_date ? `, pagamento em ${formatDate(d.payment_date)}` : '';
    return {
      title: `${rule.ticker} anunciou provento`,
      body: `O ${rule.ticker} anunciou ${formatMoney(d.amount_per_share)} por cota (data-com ${formatDate(d.record_date)}${pay}).`,
    };
  }
  const r = rule as Extract<AlertRule, { kind: 'level' }>;
  const who = r.ticker ? `${MEASURE_WORDS[r.measure]} do ${r.ticker}` : MEASURE_WORDS[r.measure];
  const cap = who.charAt(0).toUpperCase() + who.slice(1);
  const verb = r.op === 'above' ? 'passou de' : 'ficou abaixo de';
  return {
    title: `${r.ticker ?? INDICATOR_OF[r.measure] ?? r.measure.toUpperCase()}: ${verb} ${formatLevel(r.measure, r.value)}`,
    body: `${cap} ${verb} ${formatLevel(r.measure, r.value)}: ${formatLevel(r.measure, o.value ?? 0)}${o.date ? ` em ${formatDate(o.date)}` : ''}.`,
  };
}
