import type { TransactionQueryArgs } from '@cota/contracts';
import { addDays, addMonths, parsePeriod, resolvePeriod } from '@cota/periods';
export { todayInBrazil } from '@cota/periods';
import { BR_NUMBER, normalizeText, SCALE_WORD, tickersIn, withoutTickers } from '@cota/text';
import { findMentions, MoneyMention, readAmount } from './numbers';
import { matchVocabulary, Vocabulary } from './text-args';

const pad = (n: number) => String(n).padStart(2, '0');

const EXPENSE = /\b(gastei|gasto|gastos|gastar|paguei|pagar|pago|comprei|compra|compras|despesa|despesas|debito|saida|saidas|saiu|torrei|desembolsei|conta de)\b/;
const INCOME = /\b(recebi|receber|recebido|recebimento|recebimentos|receita|receitas|ganhei|ganho|ganhos|entrada|entradas|entrou|caiu|credito|salario|renda)\b/;

/**
 * The day a transaction happened, as said: "hoje", "ontem", "anteontem", "dia 5", "em 03/11",
 * "03/11/2026", "2026-11-03", "segunda passada" is not read (left to the default: today).
 */
export function readDay(text: string, today: string): string | undefined {
  if (/\banteontem\b/.test(text)) return addDays(today, -2);
  if (/\bontem\b/.test(text)) return addDays(today, -1);
  if (/\bhoje\b/.test(text)) return today;
  const iso = text.match(/\b(\d{4})-(\d{2})-(\d{2})\b/);
  if (iso) return iso[0];
  const full = text.match(/\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?\b/);
  if (full) {
    const [ty, tm] = today.split('-').map(Number);
    const d = Number(full[1]);
    const m = Number(full[2]);
    if (d < 1 || d > 31 || m < 1 || m > 12) return undefined;
    let y = full[3] ? Number(full[3].length === 2 ? `20${full[3]}` : full[3]) : ty;
    // Without a year: this year's date unless it is still ahead, then last year's.
    if (!full[3] && (m > tm || (m === tm && d > Number(today.slice(8))))) y -= 1;
    return `${y}-${pad(m)}-${pad(d)}`;
  }
  const day = text.match(/\bdia\s+(\d{1,2})\b/);
  if (day) {
    const d = Number(day[1]);
    if (d < 1 || d > 31) return undefined;
    const monthStart = `${today.slice(0, 7)}-01`;
    // "dia 5": this month's 5th, or last month's when the 5th is still ahead.
    const base = d > Number(today.slice(8)) ? addMonths(monthStart, -1) : monthStart;
    return `${base.slice(0, 8)}${pad(d)}`;
  }
  return undefined;
}

/** The kind of a transaction as its verb says it ("gastei", "recebi"), not as a category implies it. */
export function transactionKindSaid(question: string): 'despesa' | 'receita' | null {
  const text = normalizeText(question);
  const income = INCOME.test(text);
  const expense = EXPENSE.test(text);
  if (income === expense) return null;
  return income ? 'receita' : 'despesa';
}

export interface TransactionArgs {
  tipo?: 'despesa' | 'receita';
  valor?: string;
  categoria?: string;
  data?: string;
  descricao?: string;
}

/** The first amount of money in the text that is not a date or a day. */
function firstAmount(text: string): string | undefined {
  const cleaned = text
    .replace(/\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b/g, ' ')
    .replace(/\bdia\s+\d{1,2}\b/g, ' ')
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ');
  const money = findMentions(cleaned).find((m): m is MoneyMention => m.kind === 'money');
  return money ? money.value.toFixed() : undefined;
}

/** "gastei 85 na farmácia", "recebi 3.000 de salário dia 5", "registra um gasto de 120 reais no mercado hoje". */
export function extractTransaction(question: string, categories: Vocabulary, today: string): TransactionArgs {
  const text = normalizeText(question);
  const out: TransactionArgs = {};
  const income = INCOME.test(text);
  const expense = EXPENSE.test(text);
  if (expense && !income) out.tipo = 'despesa';
  else if (income && !expense) out.tipo = 'receita';
  else if (income && expense) out.tipo = text.search(INCOME) < text.search(EXPENSE) ? 'receita' : 'despesa';
  // "categoria outros" said outright beats a category guessed from the other words ("freela").
  const named = text.match(/\bcategoria\s*:?\s*([a-z]+(?: [a-z]+)?)/);
  const categoria = (named && matchVocabulary(named[1], categories)[0]) || matchVocabulary(question, categories)[0];
  if (categoria) out.categoria = categoria;
  if (!out.tipo && categoria) out.tipo = (categories[categoria] as { tipo?: 'despesa' | 'receita' }).tipo;
  if (!out.tipo) delete out.tipo;
  const valor = firstAmount(text);
  if (valor) out.valor = valor;
  const data = readDay(text, today);
  if (data) out.data = data;
  const desc = question.match(/(?:descri[cç][aã]o|obs(?:erva[cç][aã]o)?)\s*[:=]?\s*["“]?([^"”\n,;]{1,80})/i);
  if (desc) out.descricao = desc[1].replace(/\s+(data|dia|em|valor)\b.*$/i, '').trim();
  return out;
}

const NUM = String.raw`(?:r\$\s*)?(${BR_NUMBER})(?:\s*(${SCALE_WORD})\b)?`;

function amountOf(raw: string, scale?: string): string | undefined {
  return readAmount(raw, scale)?.toFixed();
}

/** "quanto gastei com mercado em outubro?", "minhas maiores despesas", "gastos acima de 100 reais". */
export function extractTransactionQuery(question: string, categories: Vocabulary, today: string): TransactionQueryArgs {
  const text = normalizeText(question);
  const out: TransactionQueryArgs = {};
  const income = INCOME.test(text);
  const expense = EXPENSE.test(text);
  if (expense && !income) out.tipo = 'despesa';
  else if (income && !expense) out.tipo = 'receita';
  const categoria = matchVocabulary(question, categories)[0];
  if (categoria) {
    out.categoria = categoria;
    // "quanto foi de supermercado?": the category's kind when the question does not say.
    const kind = (categories[categoria] as { tipo?: 'despesa' | 'receita' }).tipo;
    if (!out.tipo && kind) out.tipo = kind;
  }
  const said = parsePeriod(text.replace(/\b(d|n)(esse|este|essa|esta)\b/g, '$2'));
  // "hoje"/"ontem" are days here, not the latest session of a series.
  const period = said && said.spec.kind !== 'latest' && said.spec.kind !== 'previous_session' ? said : null;
  if (period) {
    // Relative periods count from today ("esse mês", "mês passado", "últimos 3 meses").
    const r = resolvePeriod(period.spec, { from: '2000-01-01', to: today });
    out.data_inicio = r.from;
    out.data_fim = r.to;
  } else {
    const day = readDay(text, today);
    if (day) {
      out.data_inicio = day;
      out.data_fim = day;
    } else if (/\b(essa|esta|nesta|nessa) semana\b/.test(text)) {
      const dow = new Date(`${today}T12:00:00Z`).getUTCDay();
      out.data_inicio = addDays(today, -((dow + 6) % 7));
      out.data_fim = today;
    }
  }
  const between = text.match(new RegExp(String.raw`\bentre\s+${NUM}\s+e\s+${NUM}`));
  if (between) {
    out.valor_min = amountOf(between[1], between[2]);
    out.valor_max = amountOf(between[3], between[4]);
  } else {
    const min = text.match(new RegExp(String.raw`\b(?:acima de|mais de|maiores? (?:que|do que)|superiores? a|a partir de|no minimo|pelo menos|>=?)\s*${NUM}`));
    if (min) out.valor_min = amountOf(min[1], min[2]);
    const max = text.match(new RegExp(String.raw`\b(?:abaixo de|menos de|menores? (?:que|do que)|inferiores? a|ate|no maximo|<=?)\s*${NUM}`));
    if (max && !/\bate\s+(hoje|agora)\b/.test(text)) out.valor_max = amountOf(max[1], max[2]);
  }
  if (/\bpor categoria|\bcategorias\b|\bpor tipo de gasto|\bonde (eu )?(mais )?gast/.test(text)) out.agrupar_por = 'categoria';
  else if (/\bpor mes\b|\bmes a mes\b|\bmensalmente\b|\bcada mes\b/.test(text)) out.agrupar_por = 'mes';
  if (/\b(maiores|maior|mais caras?|mais altos?|mais altas)\b/.test(text) && !out.valor_min) out.ordem = 'maiores';
  else if (/\b(ultimas|ultimos|recentes|mais recentes)\b/.test(text) && !period) out.ordem = 'recentes';
  const top = text.match(
    /\b(?:top|(?:as|os)?\s*(?:maiores|ultimas|ultimos))\s+(\d{1,2})\b|\b(\d{1,2})\s+(?:maiores|ultimas|ultimos|mais|transacoes|despesas|gastos|receitas|lancamentos|compras)\b/,
  );
  if (top) out.limite = Number(top[1] ?? top[2]);
  return out;
}

/** A fund ticker written in the message. */
export function extractFund(question: string): { ticker?: string } {
  const t = tickersIn(normalizeText(question))[0];
  return t ? { ticker: t } : {};
}

/** An amount put into the fund ("se eu investir 10 mil", "aplicando R$ 5.000"), not an income wanted. */
const INVESTED_BEFORE =
  /\b(?:investir|investisse|invisto|investindo|aplicar|aplicasse|aplico|aplicando|colocar|colocasse|coloco|colocando|botar|botasse|aportar|aportasse|aporto|aportando|comprar|comprasse)\b[^.?!]{0,20}$/;

/**
 * "número mágico do MXRF11", "quantas cotas para ganhar R$ 1.000 por mês" (the income wanted), "com 300
 * cotas, quanto recebo?" (the shares held) and "se eu investir 10 mil, quanto rende?" (the amount invested).
 */
export function extractMagic(question: string): { renda_mensal?: string; cotas?: number; valor_investido?: string } {
  const text = withoutTickers(normalizeText(question), ' cotas ');
  const out: { renda_mensal?: string; cotas?: number; valor_investido?: string } = {};
  const held = text.match(new RegExp(String.raw`\b(${BR_NUMBER})\s*cotas?\b`));
  const shares = held && readAmount(held[1]);
  if (shares?.isInteger() && shares.gt(0)) out.cotas = shares.toNumber();
  // (the count of shares is no amount of money)
  const money = findMentions(text).find((m): m is MoneyMention => m.kind === 'money' && m.start !== held?.index);
  if (money) {
    if (INVESTED_BEFORE.test(text.slice(0, money.start))) out.valor_investido = money.value.toFixed();
    else out.renda_mensal = money.value.toFixed();
  }
  return out;
}

/** A price said of a purchase ("comprei ... a 98", "que tinha comprado a 150", "paguei 98", "preço médio de 98"), not of the sale. */
const BOUGHT_AT = /\b(?:compr\w*|paguei|pago|custo|custou|preco medio|pm)\b[^.?!]{0,40}$/;
const PER_SHARE = /^\s*(?:reais\s*)?(?:por|cada|\/|a)\s*cota\b/;
const SOLD_AT = /\b(?:vend\w*|zer\w*)\b[^.?!]{0,40}$/;

/**
 * "se eu vender 10 cotas de KNRI11 a R$ 160": how many shares and at what price; "comprei 200 cotas a R$ 98 e vendi a
 * R$ 105": the purchase price too (a price is the purchase's when the nearest verb before it buys).
 */
export function extractTaxSale(question: string): { quantidade?: number; preco_venda?: string; preco_compra?: string; lucro?: string } {
  // "vendendo 100 btlg11": a count right before a ticker is a number of shares.
  const text = withoutTickers(normalizeText(question), ' cotas ');
  const out: { quantidade?: number; preco_venda?: string; preco_compra?: string; lucro?: string } = {};
  // ("com lucro de 3.500 reais", "se lucrei 2.340": the gain itself, not a price)
  const gain = new RegExp(String.raw`\b(?:lucro|ganho|lucrei|ganhei)\s*(?:de|foi de|total de|liquido de)?\s*${NUM}(?!\s*(?:cotas?|%))`).exec(text);
  const qty = text.match(new RegExp(String.raw`\b(${BR_NUMBER})\s*(?:cotas?|unidades)\b`));
  const shares = qty && readAmount(qty[1]);
  if (gain) {
    // ("100 cotas com lucro de 3 reais por cota": the gain is per share, the sale's is that times the shares)
    const perShare = PER_SHARE.test(text.slice(gain.index + gain[0].length));
    const amount = readAmount(gain[1], gain[2]);
    out.lucro = perShare && shares?.isInteger() && amount ? amount.times(shares).toFixed() : amount?.toFixed();
    return out;
  }
  if (shares?.isInteger()) out.quantidade = shares.toNumber();
  const prices = [
    ...text.matchAll(
      new RegExp(
        String.raw`\b(?:a|por|ao preco de|preco de|cotacao de|valendo|vendendo a|paguei|custo de|(?:preco medio|pm)(?:\s+(?:era|foi|e))?(?:\s+de)?)\s*${NUM}(?!\s*(?:cotas?|%))`,
        'g',
      ),
    ),
  ].filter((m) => m[1] !== qty?.[1] || m.index !== qty?.index);
  for (const m of prices) {
    const before = text.slice(0, m.index! + m[0].indexOf(m[1]));
    const buy = BOUGHT_AT.exec(before);
    const sell = SOLD_AT.exec(before);
    // (the verb nearest the price says whose price it is)
    const bought = !!buy && (!sell || buy.index > sell.index);
    if (bought && out.preco_compra === undefined) out.preco_compra = amountOf(m[1], m[2]);
    else if (!bought && out.preco_venda === undefined) out.preco_venda = amountOf(m[1], m[2]);
  }
  if (out.preco_venda === undefined && out.preco_compra === undefined) {
    // "e se o preço de venda for R$ 105,30?": an amount in reais is the price.
    const reais = text.match(new RegExp(String.raw`r\$\s*(${BR_NUMBER})`));
    if (reais) out.preco_venda = amountOf(reais[1]);
  }
  return out;
}
