import { DurationMention, findMentions, Mention, MoneyMention, RateMention, readAmount, Span, spelledAmounts, UnreadableMention } from './numbers';
import { BR_NUMBER, normalizeText, SCALE_WORD, unreadableNumbers } from '@cota/text';
import type { FinanceToolArgs } from '@cota/contracts';
import { extractRatioArgs } from './ratio-args';

/** The calculations `calcular_financas` knows (values of its `operacao` argument). */
export const FINANCE_OPERATIONS = [
  'juros_compostos',
  'projecao_aportes',
  'aporte_necessario',
  'valor_presente',
  'conversao_taxa',
  'vpl',
  'tir',
  'var',
  'sharpe',
  'capital_para_renda',
  'dividend_yield',
  'pvp',
  'cotas_para_renda',
  'preco_teto',
  'retorno_real',
  'retorno_total',
] as const;
export type FinanceOperation = (typeof FINANCE_OPERATIONS)[number];

/**
 * Arguments of `calcular_financas` as read from the question. Amounts and rates are decimal
 * strings (never JS floats) so the executor computes exactly what the person wrote.
 */
export interface FinanceArgs extends Omit<FinanceToolArgs, 'operacao'> {
  operacao?: FinanceOperation;
}

const CONTRIBUTION_BEFORE = /(aport\w*|deposit\w*|guard\w*|poup\w*|contribu\w*|invest\w* mensalmente|todo mes|mensalmente|parcela\w*)(\s+mensa\w*)?\s*(de\s*)?$/;
const MONTHLY_AFTER =
  /^\s*(reais\s*)?(por mes|ao mes|\/mes|mensais|mensal|mensalmente|todo (?:o )?(?:(?:fim|final|comeco|inicio) de )?mes|todos os meses|a cada mes|(?:(?:no|ao|em) (?:fim|final|comeco|inicio) de )?cada mes|(?:no|ao) (?:fim|final|comeco|inicio) do mes)/;
const GOAL_BEFORE = /(meta|objetivo|juntar|acumular|chegar a|chegar em|atingir|alcancar|ter|formar|conseguir)\s*(de\s*|um\s*|uns\s*)?$/;
const PRESENT_VALUE = /(valor presente|valem? hoje|valeriam? hoje|valor atual|trazer a valor|descontad|quanto valem? (hoje|agora)|valem? quanto (hoje|agora)|isso vale hoje)/;
const CONVERSION =
  /(convert|equival|taxa equivalente|corresponde|em taxa (anual|mensal)|quanto (e|da|fica|seria|daria) .*(ao ano|ao mes|por ano|por mes|anual|mensal)|(da|e|fica|seria|daria) (quanto|quantos)( por cento)? (ao|por|no|em|de) (ano|mes))/;

/** "1% ao mês dá quanto ao ano?": the text asks to convert a rate between periods. */
export function asksRateConversion(text: string): boolean {
  return CONVERSION.test(normalizeText(text));
}

function moneyRole(text: string, m: Span): 'contribution' | 'goal' | 'principal' {
  const before = text.slice(Math.max(0, m.start - 40), m.start).trimEnd();
  const after = text.slice(m.end, m.end + 30);
  if (MONTHLY_AFTER.test(after) || CONTRIBUTION_BEFORE.test(before + ' ')) return 'contribution';
  if (GOAL_BEFORE.test(before + ' ')) return 'goal';
  return 'principal';
}

const decimalString = (d: { toFixed(): string }) => d.toFixed();
/** Rates travel in percent ("0.8" for 0,8%), as people say them. */
const percentString = (fraction: { times(n: number): { toFixed(): string } }) => fraction.times(100).toFixed();

const NPV = /\b(vpl|npv|valor presente liquido)\b/;
/** "quanto preciso ter investido pra receber 2 mil por mês com DY de 12% ao ano": an income asked of a capital at a yield. */
const INCOME_AT_YIELD =
  /\b(?:receber|renda|ganhar|render|viver de|tirar)\b.*\b(?:dy|dividend yield|yield|rendimento de|rende|paga|pague|pagando)\b|\b(?:dy|dividend yield|yield|rendimento de|que rende|que paga|pagando)\b.*\b(?:receber|renda|ganhar|viver de|tirar)\b/;
/** "ganho real", "retorno real", "descontada a inflação": a return with the inflation of its period taken out. */
const REAL_RETURN = /\b(?:ganho|retorno|rendimento|rentabilidade|juros?) (?:real|reais)\b|\bdescont\w* (?:a )?inflacao\b|\bacima da inflacao\b/;
/** The inflation's words right before its rate ("o IPCA foi 4,5%", "inflação de 4,5%"). */
const INFLATION_BEFORE = /\b(?:ipca|inflacao|igpm|igp m|inpc|incc)\b[^%\d]{0,20}$/;

/** "qual meu retorno total?", "retorno com os dividendos": what an investment returned, its income counted. */
const TOTAL_RETURN = /\b(?:retorno|rentabilidade|rendimento|ganho|lucro) total\b|\bretorno (?:com|incluindo|contando) (?:os )?(?:dividendos|proventos|rendimentos)\b/;
/** The words before an amount that say its role: what was paid, what it is worth now, the income received. */
const INVESTED_BEFORE = /\b(?:investi|apliquei|aportei|paguei|coloquei|comprei por|custou|custo de)\s*(?:uns\s*)?$/;
const WORTH_BEFORE = /\b(?:valem|vale|valendo|valesse|valessem|valer|valerem|tenho hoje|saldo de|valor atual de|valor de mercado de)(?:\s+hoje)?\s*(?:uns\s*)?$/;
const INCOME_AFTER = /^\s*(?:reais\s*)?(?:de|em)\s+(?:dividendos|proventos|rendimentos)\b/;
const INCOME_BEFORE = /\b(?:recebi|ganhei de dividendos|ganhei de proventos)\s*(?:uns\s*)?$/;

/**
 * An investment's cost, its value now and the income it paid, stated ("investi 20 mil, hoje valem 23.500 e recebi 1.800 de
 * dividendos"); or, `editing` one, the ones the edit changes ("e se hoje valessem 19 mil?").
 */
export function extractTotalReturnArgs(normalized: string, editing = false): FinanceArgs | null {
  if (!TOTAL_RETURN.test(normalized) && !editing) return null;
  const out: FinanceArgs = editing ? {} : { operacao: 'retorno_total' };
  for (const m of findMentions(normalized)) {
    if (m.kind !== 'money') continue;
    const before = normalized.slice(Math.max(0, m.start - 30), m.start);
    const after = normalized.slice(m.end, m.end + 30);
    const value = decimalString(m.value);
    if (INCOME_AFTER.test(after) || INCOME_BEFORE.test(before)) out.proventos ??= value;
    else if (INVESTED_BEFORE.test(before)) out.valor_inicial ??= value;
    else if (WORTH_BEFORE.test(before)) out.valor_final ??= value;
  }
  return out;
}

/**
 * A return and the inflation of its period, stated ("rendeu 12% no ano e o IPCA foi 4,5%"), null when no real return is
 * asked; or, `editing` one, what the edit changes ("e se o IPCA fosse 6%?" is the inflation).
 */
export function extractRealReturnArgs(text: string, editing = false): FinanceArgs | null {
  if (!REAL_RETURN.test(text) && !editing) return null;
  const out: FinanceArgs = editing ? {} : { operacao: 'retorno_real' };
  for (const m of findMentions(text)) {
    if (m.kind !== 'rate') continue;
    const inflation = INFLATION_BEFORE.test(text.slice(0, m.start));
    if (inflation && out.inflacao === undefined) out.inflacao = percentString(m.value);
    else if (!inflation && out.taxa === undefined) out.taxa = percentString(m.value);
  }
  return out;
}

/** A dividend yield named: a rate that pays an income, never a savings rate ("ter 5 mil por mês com DY de 0,9%"). */
const YIELD_NAMED = /\b(?:dy|dividend yield|yield)\b/;
const IRR = /\b(tir|irr|taxa interna de retorno)\b/;
const VAR = /\b(var|value at risk|valor em risco|perda maxima( esperada)?|quanto posso perder)\b/;
const SHARPE = /\b(sharpe|indice de sharpe)\b/;
const FLOWS_START = /\bfluxos?(?: de caixa)?\s*(?::|=|de|sao)?\s*/;
const INVESTMENT = /\b(?:investimento|investi|invisto|investir|aporte|custo|desembolso|saida|paguei|pago|apliquei|aplico|aplicar|coloco|coloquei)(?: inicial)?\s*(?:de|:)?\s*/;
const RETURNS = /\b(?:retornos?|retorna|recebimentos?|entradas?|receitas?|fluxos? seguintes|depois|vou receber|recebi|recebo|rende|gera|paga|devolve)\s*(?:de|:)?\s*/;
/** "12000 por ano durante 10 anos", "300 em cada um dos 5 meses seguintes": one amount, repeated. */
const REPEATED = /\b(?:(?:por|ao|a cada) (?:ano|mes)|mensais|anuais)\s+(?:durante|por)\s+(\d+)|\bem cada um dos\s+(\d+)|\bnos (?:proximos )?(\d+) (?:anos|meses)(?: seguintes)?/;
const NUMBER_RE = BR_NUMBER;
const SIGNED = new RegExp(String.raw`(-|\u2212|menos\s+)?\s*(?:r\$\s*)?(${BR_NUMBER})(?:\s*(${SCALE_WORD})\b)?`, 'g');

/**
 * Signed amounts in a list ("-1000, 300; 400 e 500"), stopping at the first rate ("a 10%"). A number
 * in scientific notation stays one item, as written ("1e3"), for the gate to refuse.
 */
function readList(segment: string): string[] {
  const cut = segment.search(new RegExp(String.raw`(${BR_NUMBER})\s*%|\?`));
  const part = cut >= 0 ? segment.slice(0, cut) : segment;
  const unreadable = unreadableNumbers(part);
  const inUnreadable = (at: number) => unreadable.some((u) => at >= u.start && at < u.end);
  const items = unreadable.map((u) => ({ at: u.start, value: u.raw }));
  for (const m of part.matchAll(SIGNED)) {
    const at = m.index! + m[0].indexOf(m[2]);
    const n = inUnreadable(at) ? null : readAmount(m[2], m[3]);
    if (n) items.push({ at, value: (m[1] ? n.neg() : n).toFixed() });
  }
  return items.sort((a, b) => a.at - b.at).map((i) => i.value);
}

/**
 * Cash flows for NPV/IRR: an explicit list after "fluxos" ("fluxos -1000, 300, 400"), or an
 * investment followed by returns ("investimento de 1000 e retornos de 300, 400 e 500").
 */
export function extractCashFlows(text: string, bare = false, named = false): string[] | undefined {
  if (bare) {
    // The call asked for the flows: the whole message is the list ("-1000, 300, 400 e 500").
    const flows = readList(text);
    if (flows.length >= 2) return flows;
  }
  // An investment followed by its returns first: "um fluxo com saída de 100 mil e entradas de 30 mil, ...".
  const inv = text.match(INVESTMENT);
  // The returns after the investment ("taxa interna de retorno de um fluxo com saída ... e entradas de ...").
  const after = inv?.index !== undefined ? text.slice(inv.index + inv[0].length).match(RETURNS) : null;
  const ret = inv?.index !== undefined && after?.index !== undefined ? { index: inv.index + inv[0].length + after.index, 0: after[0] } : null;
  if (inv?.index !== undefined && ret) {
    const first = readList(text.slice(inv.index + inv[0].length, ret.index))[0];
    const tail = text.slice(ret.index + ret[0].length);
    let rest = readList(tail.replace(REPEATED, ' '));
    const times = tail.match(REPEATED);
    const n = times ? Number(times[1] ?? times[2] ?? times[3]) : 0;
    // (one amount said for the term repeats; a list said for it, "300, 400 e 500 nos próximos 3 anos", is the flows)
    if (rest.length === 1 && n > 1 && n <= 600) rest = Array.from({ length: n }, () => rest[0]);
    if (first && rest.length) return [first.startsWith('-') ? first : `-${first}`, ...rest];
  }
  const start = text.match(FLOWS_START);
  if (start && start.index !== undefined) {
    const flows = readList(text.slice(start.index + start[0].length));
    if (flows.length >= 2) return flows;
  }
  if (named) {
    // "qual o VPL de -3000, 1200, 1300?", "-1000, 300, 400 e 500: qual o VPL disso?", "a 0,5% am: -1200 / 300":
    // the list itself, once the rate and the term are taken out.
    const rest = text
      .replace(new RegExp(String.raw`(${NUMBER_RE})\s*%\S*(\s*(a\.?\s?m\.?|a\.?\s?a\.?|ao mes|ao ano|por mes|por ano|mensal|anual))?`, 'g'), ' ')
      .replace(new RegExp(String.raw`(${NUMBER_RE})\s*(anos?|mes(es)?)\b`, 'g'), ' ')
      .replace(/\b(vpl|tir|npv|irr)\b/g, ' ');
    const flows = readList(rest);
    if (flows.length >= 2) return flows;
  }
  return undefined;
}

type PercentRole = 'confidence' | 'volatility' | 'risk_free' | 'return' | 'other';

const CONFIDENCE_BEFORE = /(confianca|\bvar|value at risk|valor em risco|nivel)\s*(de|a|com|em)?\s*$/;
const CONFIDENCE_AFTER = /^\s*(de )?(confianca|nivel de confianca)/;
const VOLATILITY_BEFORE = /(volatilidade|desvio padrao|desvio|\bvol)\b[^%\d]{0,25}$/;
const RISK_FREE_BEFORE = /(\bcdi|\bselic|livre de risco|risk free|poupanca|tesouro)\b[^%\d]{0,20}$/;
const RISK_FREE_AFTER = /^\s*(do |de )?(cdi|selic)\b/;
const RETURN_BEFORE = /(retornos?|rentabilidades?|rendimentos?|rendeu|rende|ganhos?|variac\w*|resultados?)\b[^%\d]{0,40}$/;

/** Signed percents with the role their neighbouring words give them (VaR and Sharpe inputs). */
function percents(text: string, mentions: readonly Mention[]): Array<{ value: string; role: PercentRole }> {
  return mentions
    .filter((m): m is RateMention => m.kind === 'rate')
    .map((m) => {
      const before = text.slice(Math.max(0, m.start - 45), m.start);
      const negative = /(-|\u2212|menos\s+)\s*$/.test(before);
      const after = text.slice(m.end, m.end + 25);
      const value = (negative ? m.value.neg() : m.value).times(100).toFixed();
      const role: PercentRole =
        CONFIDENCE_AFTER.test(after) || CONFIDENCE_BEFORE.test(before)
          ? 'confidence'
          : RISK_FREE_AFTER.test(after) || RISK_FREE_BEFORE.test(before.slice(-25))
            ? 'risk_free'
            : VOLATILITY_BEFORE.test(before)
              ? 'volatility'
              : RETURN_BEFORE.test(before)
                ? 'return'
                : 'other';
      return { value, role };
    });
}

/** Arguments of the risk calculations (VaR, Sharpe): returns, volatility, confidence, risk-free rate. */
function riskArgs(text: string, mentions: readonly Mention[], out: FinanceArgs, valueAtRisk: boolean): void {
  const unlabelled = percents(text, mentions);
  // In a VaR, a lone percent of 50 or more with no word of its own is the confidence ("e a 99%?").
  const ps =
    valueAtRisk && unlabelled.filter((p) => p.role === 'other').length === 1
      ? unlabelled.map((p) => (p.role === 'other' && Number(p.value) >= 50 ? { ...p, role: 'confidence' as const } : p))
      : unlabelled;
  const confidence = ps.find((p) => p.role === 'confidence');
  if (confidence) out.confianca = confidence.value;
  else {
    // "VaR 99" / "VaR de 95" without the percent sign.
    const bare = text.match(/\bvar\s*(?:de\s*)?(9\d(?:[.,]\d+)?)\b(?!\s*%)/);
    if (bare) out.confianca = bare[1].replace(',', '.');
  }
  const vol = ps.find((p) => p.role === 'volatility');
  if (vol) out.volatilidade = vol.value.replace(/^-/, '');
  const rf = ps.find((p) => p.role === 'risk_free');
  if (rf) out.taxa_livre_risco = rf.value;
  const series = ps.filter((p) => p.role === 'return' || p.role === 'other');
  if (series.length >= 2) out.retornos = series.map((p) => p.value);
  else if (series.length === 1 && !vol && /\bretornos\b|\bserie\b/.test(text)) out.retornos = [series[0].value];
  else if (series.length === 1) out.retorno = series[0].value;
  if (!out.retornos) {
    // A list written without percent signs after "retornos" ("retornos: -2, 1, 0,5 e -3").
    const start = text.match(/\b(retornos|rentabilidades|variacoes)\b[^\d-]*/);
    if (start?.index !== undefined) {
      // The list ends where the amount at risk is named ("..., sobre 40 mil").
      const segment = text.slice(start.index + start[0].length);
      const end = segment.search(/\b(sobre|carteira|patrimonio|investidos?|aplicados?|posicao|valor)\b|r\$/);
      const list = readList(end >= 0 ? segment.slice(0, end) : segment);
      if (list.length >= 2) out.retornos = list;
    }
  }
  // The money at risk (VaR): a money amount that is not one of the percents' numbers.
  const money = mentions.find((m): m is MoneyMention => m.kind === 'money' && (/r\$/.test(text.slice(Math.max(0, m.start - 3), m.end)) || m.value.gte(1000)));
  if (money) out.valor_inicial = decimalString(money.value);
}

/** Reads amounts, rate, term and the kind of calculation from a pt-BR question. */
export function extractFinanceArgs(question: string, expecting: readonly string[] = [], editing: readonly string[] = []): FinanceArgs {
  const text = spelledAmounts(normalizeText(question));
  const mentions = findMentions(text);
  const out: FinanceArgs = {};

  // A fund's ratio from the person's own numbers ("um FII a R$ 100 que paga R$ 0,85 por mês: qual o DY?").
  const ratio = extractRatioArgs(text);
  // (an edit of a ratio's call changes the numbers it states: "e quanto isso custaria com a cota a R$ 9,39?" prices the shares)
  const editsRatio = editing.some((a) => a === 'preco_cota' || a === 'provento' || a === 'vp_cota');
  if (ratio.operacao || (editsRatio && Object.keys(ratio).length)) return ratio;

  const real = extractRealReturnArgs(text, editing.includes('inflacao'));
  if (real) return real;
  const total = extractTotalReturnArgs(text, editing.includes('valor_final'));
  if (total) return total;

  const risk = [...expecting, ...editing].some((a) => ['retornos', 'retorno', 'volatilidade', 'confianca', 'taxa_livre_risco'].includes(a));
  if (VAR.test(text) || SHARPE.test(text) || risk) {
    riskArgs(text, mentions, out, editing.includes('confianca') || VAR.test(text));
    if (VAR.test(text)) out.operacao = 'var';
    else if (SHARPE.test(text)) out.operacao = 'sharpe';
    return out;
  }

  // Read in this order: the amounts' roles are settled before the flows may take their place.
  const { rate, duration } = readRateAndTerm(text, mentions, out);
  readAmounts(text, mentions, expecting, out);
  if (readCashFlows(text, expecting, out)) return out;
  const hasMoney = out.valor_inicial !== undefined || out.aporte_mensal !== undefined || out.meta !== undefined;
  if (!rate && !hasMoney && /\b(convert\w*|equival\w*)\b/.test(text)) {
    // "me converte uma taxa mensal pra anual": the calculation and the period it starts from; the rate is asked next.
    out.operacao = 'conversao_taxa';
    const monthly = text.search(/\b(mensal|mensais|ao mes|a\.?m\.?)\b/);
    const yearly = text.search(/\b(anual|anuais|ao ano|a\.?a\.?)\b/);
    if (monthly >= 0 || yearly >= 0) out.taxa_periodo = yearly < 0 || (monthly >= 0 && monthly < yearly) ? 'mes' : 'ano';
    return out;
  }
  // ("e pra ter 10 mil com esse 1%?" right after the capital for an income: the one amount is still the income wanted)
  const editsIncome = editing.includes('renda_mensal') && !editing.some((a) => ['aporte_mensal', 'meta', 'valor_inicial'].includes(a));
  if (editsIncome && hasMoney && !duration) return amountAsIncome(out);
  const monthlyAtYield = out.aporte_mensal !== undefined && YIELD_NAMED.test(text);
  if (rate && !duration && hasMoney && (INCOME_AT_YIELD.test(text) || monthlyAtYield)) {
    // The rate is the yield the income is paid at.
    return { ...amountAsIncome(out), operacao: 'capital_para_renda' };
  }
  chooseOperation(text, out, rate, duration, hasMoney);
  return out;
}

/** The one amount read is the monthly income wanted, whatever role its words gave it. */
function amountAsIncome(out: FinanceArgs): FinanceArgs {
  const { aporte_mensal, meta, valor_inicial, ...rest } = out;
  return { ...rest, renda_mensal: aporte_mensal ?? meta ?? valor_inicial };
}

/** "quanto 50 mil rende por mês a 0,85% ao mês?": what one month (one year) yields, the term said by the question's words. */
const YIELD_OF_ONE_PERIOD =
  /\b(?:rende|rendem|renderia|renderiam|daria|dariam|gera|geraria)(?:\s+(?:r\$\s*)?\d[\d.,]*(?:\s*(?:mil|milhao|milhoes|reais))*)?\s+(?:por|ao|num|em um|em 1|no)\s+(mes|ano)\b/;

/** The first rate (its period, "ao mês" unless said) and the first term named (else the one period a yield is asked of). */
function readRateAndTerm(text: string, mentions: ReturnType<typeof findMentions>, out: FinanceArgs): { rate: RateMention | undefined; duration: DurationMention | undefined } {
  const rate = mentions.find((m): m is RateMention => m.kind === 'rate');
  if (rate) {
    out.taxa = percentString(rate.value);
    out.taxa_periodo = rate.period ?? 'mes';
    out.taxa_periodo_informado = rate.period !== null;
  }
  const duration = mentions.find((m): m is DurationMention => m.kind === 'duration');
  if (duration) {
    out.prazo_meses = duration.months;
    out.prazo_unidade = duration.unit;
  }
  const onePeriod = !duration && rate ? YIELD_OF_ONE_PERIOD.exec(text) : null;
  if (onePeriod) {
    out.prazo_meses = onePeriod[1] === 'ano' ? 12 : 1;
    out.prazo_unidade = onePeriod[1] === 'ano' ? 'anos' : 'meses';
  }
  return { rate, duration };
}

/** Each amount by the role its words give it (the first of each role counts): principal, monthly contribution, goal. */
function readAmounts(text: string, mentions: ReturnType<typeof findMentions>, expecting: readonly string[], out: FinanceArgs): void {
  for (const m of mentions.filter((x): x is MoneyMention | UnreadableMention => x.kind === 'money' || x.kind === 'unreadable')) {
    const role = moneyRole(text, m);
    const value = m.kind === 'money' ? decimalString(m.value) : m.raw;
    if (role === 'contribution' && out.aporte_mensal === undefined) out.aporte_mensal = value;
    else if (role === 'goal' && out.meta === undefined) out.meta = value;
    else if (role === 'principal' && out.valor_inicial === undefined) out.valor_inicial = value;
  }
  // Answering "de quanto seria o aporte mensal?" with "500": the one amount is what was asked for.
  const moneyArgs = (['valor_inicial', 'aporte_mensal', 'meta'] as const).filter((k) => out[k] !== undefined);
  const asked = (['valor_inicial', 'aporte_mensal', 'meta'] as const).filter((k) => expecting.includes(k));
  if (moneyArgs.length === 1 && asked.length >= 1 && !asked.includes(moneyArgs[0])) {
    out[asked[0]] = out[moneyArgs[0]];
    delete out[moneyArgs[0]];
  }
}

/** NPV or IRR (or flows being asked for): the flows replace the amounts. True when the arguments are complete. */
function readCashFlows(text: string, expecting: readonly string[], out: FinanceArgs): boolean {
  const bareFlows = expecting.includes('fluxos');
  if (!NPV.test(text) && !IRR.test(text) && !bareFlows) return false;
  const flows = extractCashFlows(text, bareFlows, NPV.test(text) || IRR.test(text));
  if (flows) {
    // The amounts are the flows themselves, not a principal or a contribution.
    delete out.valor_inicial;
    delete out.aporte_mensal;
    delete out.meta;
    out.fluxos = flows;
    if (NPV.test(text)) out.operacao = 'vpl';
    else if (IRR.test(text)) out.operacao = 'tir';
    return true;
  }
  if (NPV.test(text) || IRR.test(text)) {
    // "qual a TIR?" names the calculation; its flows are asked for next.
    delete out.valor_inicial;
    delete out.aporte_mensal;
    delete out.meta;
    out.operacao = NPV.test(text) ? 'vpl' : 'tir';
    return true;
  }
  return false;
}

/** The calculation the arguments read ask for: the first rule that applies decides. */
function chooseOperation(text: string, out: FinanceArgs, rate: RateMention | undefined, duration: DurationMention | undefined, hasMoney: boolean): void {
  if (out.meta !== undefined && out.aporte_mensal === undefined) out.operacao = 'aporte_necessario';
  else if (PRESENT_VALUE.test(text) && (out.valor_inicial !== undefined || out.meta !== undefined)) {
    // "quanto vale hoje R$ 20 mil daqui a 3 anos": the amount named is the future one.
    out.operacao = 'valor_presente';
    if (out.valor_inicial === undefined && out.meta !== undefined) {
      out.valor_inicial = out.meta;
      delete out.meta;
    }
  } else if (out.aporte_mensal !== undefined) out.operacao = 'projecao_aportes';
  else if (rate && !hasMoney && (CONVERSION.test(text) || !duration)) out.operacao = 'conversao_taxa';
  else if (hasMoney || rate || duration) out.operacao = 'juros_compostos';
}
