import { parsePeriod, resolvePeriod } from '@cota/periods';
import { BR_NUMBER, normalizeText, tickersIn } from '@cota/text';
import { readAmount } from './numbers';
import { readDay } from './personal-args';

export interface TradeArgs {
  tipo?: 'compra' | 'venda';
  ticker?: string;
  quantidade?: number;
  preco?: string;
  data?: string;
}

const BOUGHT = /\b(comprei|compramos|adquiri|adquirimos)\b/;
const SOLD = /\b(vendi|vendemos)\b/;

/**
 * A trade told in the chat: "comprei 20 HGLG11 a 158,40 hoje", "vendi 10 cotas de KNRI11 por R$ 140
 * ontem". Reads the side, the fund, the shares (the count before the ticker or before "cotas"), the
 * price per share ("a", "por", "a R$") and the day; each only when stated.
 */
export function extractTrade(question: string, today: string): TradeArgs {
  const text = normalizeText(question);
  const out: TradeArgs = {};
  if (BOUGHT.test(text)) out.tipo = 'compra';
  else if (SOLD.test(text)) out.tipo = 'venda';
  const ticker = tickersIn(text)[0];
  if (ticker) out.ticker = ticker;
  const code = ticker ? ticker.toLowerCase() : '[a-z]{4}1[1-9]';
  const qty =
    text.match(new RegExp(String.raw`\b(\d{1,3}(?:\.\d{3})+|\d+)\s*(?:cotas?|unidades)?\s*(?:(?:de|do|da)\s+)?(?:fii\s+)?${code}\b`)) ??
    text.match(/\b(\d{1,3}(?:\.\d{3})+|\d+)\s*cotas?\b/);
  const shares = qty ? readAmount(qty[1]) : null;
  if (shares?.isInteger() && shares.gt(0)) out.quantidade = shares.toNumber();
  const afterTicker = ticker ? text.slice(text.indexOf(code) + code.length) : text;
  const price =
    afterTicker.match(new RegExp(String.raw`\b(?:a|por|ao preco de|preco de|pagando|cada uma a|cada a)\s*(?:r\$\s*)?(${BR_NUMBER})(?!\s*(?:cotas?|%))`)) ??
    afterTicker.match(new RegExp(String.raw`r\$\s*(${BR_NUMBER})`));
  const value = price ? readAmount(price[1]) : null;
  if (value && value.gt(0)) out.preco = value.toFixed();
  const day = readDay(text, today);
  if (day) out.data = day;
  return out;
}

/** The period a question about the ledger names ("em maio de 2024", "no ano passado"), as dates; nothing when none. */
export function extractLedgerPeriod(question: string, today: string): { data_inicio?: string; data_fim?: string; ano?: number } {
  const text = normalizeText(question);
  const said = parsePeriod(text.replace(/\b(d|n)(esse|este|essa|esta)\b/g, '$2'));
  const period = said && said.spec.kind !== 'latest' && said.spec.kind !== 'previous_session' ? said : null;
  if (!period) return {};
  const r = resolvePeriod(period.spec, { from: '2000-01-01', to: today });
  const out: { data_inicio?: string; data_fim?: string; ano?: number } = { data_inicio: r.from, data_fim: r.to };
  // A whole calendar year ("de 2024", "ano passado") is the year of an income-tax report.
  if (r.from.endsWith('-01-01') && r.from.slice(0, 4) === r.to.slice(0, 4) && (r.to.endsWith('-12-31') || r.to === today)) out.ano = Number(r.from.slice(0, 4));
  return out;
}

/**
 * The period of a portfolio's return: a calendar period as dates (like `extractLedgerPeriod`), but
 * "últimos 12 meses" as a count of months, which the tool ends at the latest close the base has (as
 * every answer reads a trailing window), and "desde março de 2024" as its start only.
 */
export function extractReturnPeriod(question: string, today: string): { data_inicio?: string; data_fim?: string; meses?: number } {
  const said = parsePeriod(normalizeText(question).replace(/\b(d|n)(esse|este|essa|esta)\b/g, '$2'));
  const spec = said?.spec;
  if (!spec || spec.kind === 'latest' || spec.kind === 'previous_session') return {};
  if (spec.kind === 'trailing' && spec.unit !== 'day') return { meses: spec.unit === 'year' ? spec.n * 12 : spec.n };
  if (spec.kind === 'since') return { data_inicio: spec.from };
  const { ano: _year, ...dates } = extractLedgerPeriod(question, today);
  return dates;
}
