import { BR_NUMBER, SCALE_WORD, TICKER_PATTERN, tickersIn } from '@cota/text';
import { readAmount, spelledAmounts } from './numbers';

/**
 * A fund's ratios computed from numbers the person states ("um FII a R$ 100 que paga R$ 0,85 por mês",
 * "cota a 95 e VP por cota de 105", "quantas cotas de um fundo que paga R$ 0,10 preciso pra ganhar mil por mês"):
 * the figures are the person's, never a fund's data.
 */
export type RatioOperation = 'dividend_yield' | 'pvp' | 'cotas_para_renda' | 'preco_teto';

export interface RatioArgs {
  operacao?: RatioOperation;
  preco_cota?: string;
  provento?: string;
  provento_periodo?: 'mes' | 'ano';
  vp_cota?: string;
  renda_mensal?: string;
  /** The yield wanted (percent a year), for a ceiling price. */
  taxa?: string;
  taxa_periodo?: 'ano';
  /** The fund the numbers are said of, when one is named: the answer names it. */
  fundo?: string;
}

const AMOUNT = String.raw`(?:r\$\s*)?(${BR_NUMBER})(?:\s*(${SCALE_WORD})\b)?(?!\s*%)`;
/** The book value per share: "valor patrimonial por cota de 105", "VP/cota = 98,50", "vpa for 162,22". */
const BOOK = new RegExp(String.raw`\b(?:valor patrimonial|vpa|vp)(?:\s*(?:por cota|da cota|\/\s*cota))?\s*(?:de|e|:|=|for|fosse|seja|em|a)?\s*${AMOUNT}`);
/** The dividend per share: "paga R$ 0,85 por mês", "rendimento de 1,10 por cota", "distribui 0,10". */
const DIVIDEND = new RegExp(
  String.raw`\b(?:paga|pagam|pagando|pagasse|pague|distribui|distribuindo|distribuisse|rende|rendendo|(?:dividendos?|proventos?|rendimentos?)(?: mensa\w*| anua\w*)?(?: de| (?:cair|caisse|cai|subir|subisse|sobe|for|fosse|ficar|ficasse|passar|passasse|baixar|baixasse) (?:pra|para|a))?)\s*(?:de\s*)?${AMOUNT}(\s*(?:reais\s*)?(?:por cota\s*)?(?:(?:por|ao|\/)\s*(?:mes|ano)|mensa\w*|anua\w*)?)`,
);
/** The share's price: "a cota a R$ 160", "cota está em 157,60", "um FII a R$ 100", "se a cota custasse R$ 10", "preço de 95". */
const PRICE = new RegExp(
  String.raw`\b(?:(?:a )?cotas? (?:a|de|em|esta em|esta a|ta em|ta a|ta|estiver em|estiver a|for|fosse|for de|fosse de|custa|custando|custasse|custar|valendo|vale|cotada a|negociada a)|(?:preco|cotacao)(?: da cota)?(?: de| e| a| em| for| fosse)?|(?:preco|cotacao|cota)(?: da cota)? (?:cair|caisse|cai|subir|subisse|sobe|for|fosse|ir|voltar) (?:pra|para|a)|(?:um|uma|o|a) (?:fii|fundo) (?:a|de|que custa|custa|custava|que custava|custando|cotado a|negociado a|que vale|vale|valendo)|(?:com|cuja) cota (?:de |a |em )?|\b${TICKER_PATTERN.toLowerCase()} (?:esta|ta|estiver|custa|custando|vale|valendo|cotado|negociado)(?: a| em| por)?)\s*${AMOUNT}`,
);
/** A price said of each share after the amount: "quanto custaria a R$ 9,39 cada?". */
const PRICE_EACH = new RegExp(String.raw`\b(?:a|por|de)\s*${AMOUNT}\s*(?:reais\s*)?cada\b`);
/** The magic number: the shares whose monthly income buys one more share ("compre uma cota nova por mês"). */
const MAGIC_ASKED = /\bmagic number\b|\bnumero magico\b|\bcompr\w* (?:uma|1) (?:nova )?cota(?: nova)?\b/;
/** The monthly income wanted: "ganhar R$ 1.000 por mês", "receber 500 mensais". */
const INCOME = new RegExp(String.raw`\b(?:ganhar|receber|renda de|tirar|render|viver com|ter)\s*(?:uns\s*)?${AMOUNT}(?:\s*reais)?\s*(?:por mes|ao mes|mensa\w*|todo mes)`);

const PVP_ASKED = /\bp\s*\/?\s*vp\b|\bpreco sobre (?:o )?valor patrimonial\b|\bagio\b|\bdesagio\b|\bdesconto\b/;
const YIELD_ASKED = /\bdy\b|\bdividend yield\b|\byield\b|\brendimento (?:mensal|anual)\b|\bretorno (?:mensal|anual)\b|\bquanto (?:rende|da|e) (?:ao|por) (?:mes|ano)\b/;
const SHARES_ASKED = /\bquantas cotas\b/;
/** "preço teto", "preço justo" (Bazin's: the price at which a dividend pays the yield wanted). */
const CEILING_ASKED = /\bpreco (?:teto|justo|maximo)\b|\bteto\b/;
const PERCENT = new RegExp(String.raw`(${BR_NUMBER})\s*%`);

const amountOf = (m: RegExpExecArray | null): string | undefined => {
  // ("proventos de 2024": a year, not an amount)
  if (!m || (/^(?:19|20)\d\d$/.test(m[1]) && !/r\$/.test(m[0]))) return undefined;
  const n = readAmount(m[1], m[2]);
  return n && n.gt(0) ? n.toFixed() : undefined;
};

/** The ratio a message computes from its own numbers, with them; empty when it states none. */
export function extractRatioArgs(normalized: string): RatioArgs {
  const text = spelledAmounts(normalized);
  const out: RatioArgs = {};
  const book = BOOK.exec(text);
  out.vp_cota = amountOf(book);
  // (the book value's own "por cota de N" is not a price)
  const rest = book ? `${text.slice(0, book.index)} ${' '.repeat(book[0].length)} ${text.slice(book.index + book[0].length)}` : text;
  const dividend = DIVIDEND.exec(rest);
  out.provento = amountOf(dividend);
  if (out.provento) out.provento_periodo = /\bano\b|\banua/.test(dividend![0]) ? 'ano' : 'mes';
  const withoutDividend = dividend ? rest.slice(0, dividend.index) + ' '.repeat(dividend[0].length) + rest.slice(dividend.index + dividend[0].length) : rest;
  // ("cota a 95 reais e valor patrimonial ...": beside a book value, a price said as "N reais" counts too)
  out.preco_cota =
    amountOf(PRICE.exec(withoutDividend)) ??
    amountOf(PRICE_EACH.exec(withoutDividend)) ??
    (out.vp_cota ? amountOf(/\b(?:cota|preco)\D{0,12}?(\d[\d.,]*)(?:\s*(mil))?\s*reais\b/.exec(withoutDividend)) : undefined);
  out.renda_mensal = amountOf(INCOME.exec(withoutDividend));
  const wanted = CEILING_ASKED.test(text) ? PERCENT.exec(withoutDividend) : null;
  const rate = wanted ? readAmount(wanted[1]) : null;
  if (rate?.gt(0)) {
    out.taxa = rate.toFixed();
    out.taxa_periodo = 'ano';
  }
  // (the fund the numbers are said of: "se o MXRF11 está a R$ 9,39 e paga R$ 0,10")
  // (only beside numbers of its own: "qual o dy do hglg11?" states nothing)
  const named = Object.values(out).some((v) => v !== undefined) ? tickersIn(text)[0] : undefined;
  if (named) out.fundo = named;
  // (a book value alone with P/VP asked is the ratio still missing its price: "e o p/vp se o VP for 162,22?" after a DY)
  if (out.vp_cota && (PVP_ASKED.test(text) || (out.preco_cota && !out.provento))) out.operacao = 'pvp';
  else if (CEILING_ASKED.test(text) && (out.provento || out.taxa)) out.operacao = 'preco_teto';
  else if (out.provento && out.renda_mensal && SHARES_ASKED.test(text)) out.operacao = 'cotas_para_renda';
  else if (out.provento && out.preco_cota && MAGIC_ASKED.test(text)) {
    // (the magic number is the shares whose month's income is one share's price)
    out.operacao = 'cotas_para_renda';
    out.renda_mensal = out.preco_cota;
  } else if (out.provento && out.preco_cota && (YIELD_ASKED.test(text) || /\bquanto\b|\bqual\b/.test(text))) out.operacao = 'dividend_yield';
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as RatioArgs;
}
