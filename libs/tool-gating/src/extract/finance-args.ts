import { DurationMention, findMentions, MoneyMention, parseBrNumber, RateMention } from './numbers';
import { normalizeText } from '../normalize';
import type { FinanceToolArgs } from '@cota/tools';

/** The calculations `calcular_financas` knows (values of its `operacao` argument). */
export const FINANCE_OPERATIONS = ['juros_compostos', 'projecao_aportes', 'aporte_necessario', 'valor_presente', 'conversao_taxa', 'vpl', 'tir'] as const;
export type FinanceOperation = (typeof FINANCE_OPERATIONS)[number];

/**
 * Arguments of `calcular_financas` as read from the question. Amounts and rates are decimal
 * strings (never JS floats) so the executor computes exactly what the person wrote.
 */
export interface FinanceArgs extends Omit<FinanceToolArgs, 'operacao'> {
  operacao?: FinanceOperation;
}

const CONTRIBUTION_BEFORE = /(aport\w*|deposit\w*|guard\w*|poup\w*|contribu\w*|invest\w* mensalmente|todo mes|mensalmente|parcela\w*)\s*(de\s*)?$/;
const MONTHLY_AFTER = /^\s*(reais\s*)?(por mes|ao mes|\/mes|mensais|mensal|mensalmente|todo mes|todos os meses|a cada mes)/;
const GOAL_BEFORE = /(meta|objetivo|juntar|acumular|chegar a|chegar em|atingir|alcancar|ter|formar|conseguir)\s*(de\s*|um\s*|uns\s*)?$/;
const PRESENT_VALUE = /(valor presente|vale hoje|valeria hoje|valor atual|trazer a valor|descontad|quanto vale (hoje|agora))/;
const CONVERSION = /(convert|equival|taxa equivalente|corresponde|em taxa (anual|mensal)|quanto (e|da|fica) .*(ao ano|ao mes|anual|mensal))/;

function moneyRole(text: string, m: MoneyMention): 'contribution' | 'goal' | 'principal' {
  const before = text.slice(Math.max(0, m.start - 40), m.start).trimEnd();
  const after = text.slice(m.end, m.end + 30);
  if (MONTHLY_AFTER.test(after) || CONTRIBUTION_BEFORE.test(before + ' ')) return 'contribution';
  if (GOAL_BEFORE.test(before + ' ')) return 'goal';
  return 'principal';
}

const decimalString = (d: { toFixed(): string }) => d.toFixed();

const NPV = /\b(vpl|npv|valor presente liquido)\b/;
const IRR = /\b(tir|irr|taxa interna de retorno)\b/;
const FLOWS_START = /\bfluxos?(?: de caixa)?\s*(?::|=|de|sao)?\s*/;
const INVESTMENT = /\b(?:investimento|aporte|custo|desembolso)(?: inicial)?\s*(?:de|:)?\s*/;
const RETURNS = /\b(?:retornos?|recebimentos?|entradas?|receitas?|fluxos? seguintes|depois)\s*(?:de|:)?\s*/;
const SIGNED = /(-|\u2212|menos\s+)?\s*(?:r\$\s*)?(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?)(?:\s*(mil|k)\b)?/g;

/** Signed amounts in a list ("-1000, 300; 400 e 500"), stopping at the first rate ("a 10%"). */
function readList(segment: string): string[] {
  const cut = segment.search(/(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?)\s*%|\?/);
  const part = cut >= 0 ? segment.slice(0, cut) : segment;
  const out: string[] = [];
  for (const m of part.matchAll(SIGNED)) {
    let n = parseBrNumber(m[2]);
    if (!n) continue;
    if (m[3]) n = n.times(1000);
    out.push((m[1] ? n.neg() : n).toFixed());
  }
  return out;
}

/**
 * Cash flows for NPV/IRR: an explicit list after "fluxos" ("fluxos -1000, 300, 400"), or an
 * investment followed by returns ("investimento de 1000 e retornos de 300, 400 e 500").
 */
export function extractCashFlows(text: string): string[] | undefined {
  const start = text.match(FLOWS_START);
  if (start && start.index !== undefined) {
    const flows = readList(text.slice(start.index + start[0].length));
    if (flows.length >= 2) return flows;
  }
  const inv = text.match(INVESTMENT);
  const ret = text.match(RETURNS);
  if (inv?.index !== undefined && ret?.index !== undefined && ret.index > inv.index) {
    const first = readList(text.slice(inv.index + inv[0].length, ret.index))[0];
    const rest = readList(text.slice(ret.index + ret[0].length));
    if (first && rest.length) return [first.startsWith('-') ? first : `-${first}`, ...rest];
  }
  return undefined;
}

/** Reads amounts, rate, term and the kind of calculation from a pt-BR question. */
export function extractFinanceArgs(question: string): FinanceArgs {
  const text = normalizeText(question);
  const mentions = findMentions(text);
  const out: FinanceArgs = {};

  const rate = mentions.find((m): m is RateMention => m.kind === 'rate');
  if (rate) {
    out.taxa = decimalString(rate.value);
    out.taxa_periodo = rate.period ?? 'mes';
    out.taxa_periodo_informado = rate.period !== null;
  }
  const duration = mentions.find((m): m is DurationMention => m.kind === 'duration');
  if (duration) {
    out.prazo_meses = duration.months;
    out.prazo_unidade = duration.unit;
  }
  for (const m of mentions.filter((x): x is MoneyMention => x.kind === 'money')) {
    const role = moneyRole(text, m);
    if (role === 'contribution' && out.aporte_mensal === undefined) out.aporte_mensal = decimalString(m.value);
    else if (role === 'goal' && out.meta === undefined) out.meta = decimalString(m.value);
    else if (role === 'principal' && out.valor_inicial === undefined) out.valor_inicial = decimalString(m.value);
  }

  if (NPV.test(text) || IRR.test(text)) {
    const flows = extractCashFlows(text);
    if (flows) {
      // The amounts are the flows themselves, not a principal or a contribution.
      delete out.valor_inicial;
      delete out.aporte_mensal;
      delete out.meta;
      out.fluxos = flows;
      out.operacao = NPV.test(text) ? 'vpl' : 'tir';
      return out;
    }
  }
  const hasMoney = out.valor_inicial !== undefined || out.aporte_mensal !== undefined || out.meta !== undefined;
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
  return out;
}
