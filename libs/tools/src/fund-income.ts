import { CotaError, QueryResult } from '@cota/contracts';
import { Dec } from '@cota/finance';
import { formatDate, formatMoney, formatPercent, TICKER_RE } from '@cota/text';
import { WarehouseQuery } from './warehouse-query';

export interface FundToolContext {
  request_id: string;
  client_id: string;
}

const num = (v: unknown): Dec | null => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : new Dec(String(v)));
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

interface LastFacts {
  price: Dec;
  priceDate: string;
  dividend: Dec;
  recordDate: string | null;
  paymentDate: string | null;
  sources: string[];
}

/**
 * The fund's last close and last dividend per share, from the catalog entities (never guessed): the
 * snapshot's last payment when it is newer than the distributions' (as the "último dividendo" answer does).
 */
export async function lastPriceAndDividend(wh: WarehouseQuery, ticker: string, ctx: FundToolContext): Promise<LastFacts> {
  const [prices, dividends, snapshots] = await Promise.all([
    wh.query('fiis_precos', { ticker, tickers: [ticker], limit: 1 }, ctx),
    wh.query('fiis_dividendos', { ticker, tickers: [ticker], limit: 1 }, ctx),
    wh.query('fiis_financials_snapshot', { ticker, tickers: [ticker], limit: 1 }, ctx),
  ]);
  const p = prices.rows[0];
  const d = dividends.rows[0];
  const price = num(p?.close_price);
  if (!p || !price || price.lte(0)) throw new CotaError('NOT_FOUND', `Não encontrei cotações do ${ticker}.`);
  const newer = newerSnapshotPayment(snapshots.rows[0], d);
  if (newer) return { price, priceDate: String(p.traded_at ?? ''), ...newer, sources: [...new Set([...prices.sources, ...snapshots.sources])] };
  const dividend = num(d?.dividend_amt);
  if (!d || !dividend || dividend.lte(0)) throw new CotaError('NOT_FOUND', `Não encontrei rendimentos pagos pelo ${ticker}: sem eles não há como calcular.`);
  return {
    price,
    priceDate: String(p.traded_at ?? ''),
    dividend,
    recordDate: str(d.traded_until_date) ?? null,
    paymentDate: str(d.payment_date) ?? null,
    sources: [...new Set([...prices.sources, ...dividends.sources])],
  };
}

/** The snapshot's last payment, when later than the last distribution's payment (or data-com) date. */
function newerSnapshotPayment(s: Record<string, unknown> | undefined, d: Record<string, unknown> | undefined): Pick<LastFacts, 'dividend' | 'recordDate' | 'paymentDate'> | null {
  const dividend = num(s?.last_dividend_amt);
  const paid = str(s?.last_payment_date)?.slice(0, 10);
  if (!dividend || dividend.lte(0) || !paid) return null;
  const seriesDate = (str(d?.payment_date) ?? str(d?.traded_until_date) ?? '').slice(0, 10);
  return paid > seriesDate ? { dividend, recordDate: null, paymentDate: paid } : null;
}

/**
 * `numero_magico`: shares whose monthly income buys one more share (⌈price ÷ dividend⌉), or, with an
 * income goal, the shares that pay it (⌈goal ÷ dividend⌉), from the last dividend and close; with a
 * holding (a number of shares, or an amount invested at the last close: ⌊amount ÷ price⌋ shares), the
 * monthly income it pays at the last dividend.
 */
export async function magicNumber(wh: WarehouseQuery, args: { ticker?: unknown; renda_mensal?: unknown; cotas?: unknown; valor_investido?: unknown }, ctx: FundToolContext) {
  const ticker = str(args.ticker)?.toUpperCase();
  if (!ticker) throw new CotaError('BAD_REQUEST', 'De qual fundo? (ex.: MXRF11)');
  const held = num(args.cotas);
  const invested = num(args.valor_investido);
  if (held && (held.lte(0) || !held.isInteger())) throw new CotaError('BAD_REQUEST', 'O número de cotas precisa ser um inteiro positivo.');
  if (invested && invested.lte(0)) throw new CotaError('BAD_REQUEST', 'O valor investido precisa ser positivo.');
  if (held || invested) return holdingIncome(await lastPriceAndDividend(wh, ticker, ctx), ticker, held, invested);
  const goal = str(args.renda_mensal) ? new Dec(str(args.renda_mensal)!) : null;
  if (goal && goal.lte(0)) throw new CotaError('BAD_REQUEST', 'A renda mensal desejada precisa ser positiva.');
  const f = await lastPriceAndDividend(wh, ticker, ctx);
  const shares = (goal ?? f.price).div(f.dividend).ceil();
  const cost = shares.times(f.price);
  const income = shares.times(f.dividend);
  const yieldMonth = f.dividend.div(f.price).times(100);
  const basis = `Último rendimento: ${formatMoney(f.dividend)} por cota${f.paymentDate ? ` (pago em ${formatDate(f.paymentDate)})` : ''}; último preço: ${formatMoney(f.price)} (${formatDate(f.priceDate)}); rendimento mensal de ${formatPercent(yieldMonth)} sobre o preço.`;
  const head = goal
    ? `**Para receber ${formatMoney(goal)} por mês com o ${ticker} são precisas ${shares.toFixed()} cotas, cerca de ${formatMoney(cost)} ao preço atual.** Elas rendem ${formatMoney(income)} por mês com o último rendimento.`
    : `**O número mágico do ${ticker} é ${shares.toFixed()} cotas (cerca de ${formatMoney(cost)} ao preço atual):** com elas o rendimento mensal (${formatMoney(income)}) compra uma nova cota (${formatMoney(f.price)}).`;
  return {
    ticker,
    cotas: shares.toFixed(),
    custo: cost.toFixed(2),
    renda_mensal: income.toFixed(2),
    ...(goal ? { renda_desejada: goal.toFixed(2) } : {}),
    ultimo_rendimento: f.dividend.toFixed(),
    data_pagamento: f.paymentDate,
    ultimo_preco: f.price.toFixed(),
    data_preco: f.priceDate,
    sources: f.sources,
    text: [head, basis, 'Rendimentos e preços mudam todo mês: é uma conta com os últimos dados, não uma promessa de renda.'].join('\n\n'),
  };
}

/** The monthly income of a holding at the fund's last dividend: the shares held, or those an amount buys at the last close. */
function holdingIncome(f: LastFacts, ticker: string, held: Dec | null, invested: Dec | null) {
  const shares = held ?? invested!.div(f.price).floor();
  if (shares.lte(0))
    throw new CotaError('BAD_REQUEST', `Com ${formatMoney(invested!)} não dá para comprar uma cota do ${ticker} (${formatMoney(f.price)} em ${formatDate(f.priceDate)}).`);
  const cost = shares.times(f.price);
  const income = shares.times(f.dividend);
  const paid = f.paymentDate ? ` (pago em ${formatDate(f.paymentDate)})` : '';
  const head = invested
    ? `**Com ${formatMoney(invested)} no ${ticker} você compraria ${shares.toFixed()} cotas (${formatMoney(cost)} a ${formatMoney(f.price)}, fechamento de ${formatDate(f.priceDate)}), que rendem cerca de ${formatMoney(income)} por mês** pelo último rendimento, de ${formatMoney(f.dividend)} por cota${paid}.`
    : `**${shares.toFixed()} cotas do ${ticker} rendem cerca de ${formatMoney(income)} por mês** pelo último rendimento, de ${formatMoney(f.dividend)} por cota${paid}: ${shares.toFixed()} × ${formatMoney(f.dividend)}. Ao último preço (${formatMoney(f.price)} em ${formatDate(f.priceDate)}), essas cotas custariam ${formatMoney(cost)}.`;
  return {
    ticker,
    cotas: shares.toFixed(),
    custo: cost.toFixed(2),
    renda_mensal: income.toFixed(2),
    ...(invested ? { valor_investido: invested.toFixed(2), sobra: invested.minus(cost).toFixed(2) } : {}),
    ultimo_rendimento: f.dividend.toFixed(),
    data_pagamento: f.paymentDate,
    ultimo_preco: f.price.toFixed(),
    data_preco: f.priceDate,
    sources: f.sources,
    text: [head, 'Rendimentos e preços mudam todo mês: é uma conta com os últimos dados, não uma promessa de renda.'].join('\n\n'),
  };
}

const TICKER_BATCH = 20;

/**
 * `calendario_proventos`: for each fund the client holds, the last dividend's record (data com) and
 * payment dates and the expected monthly income at that dividend.
 */
export async function incomeCalendar(wh: WarehouseQuery, ctx: FundToolContext) {
  const positions = await wh.query('client_fiis_positions', { limit: 200 }, ctx);
  const held = positions.rows.map((r) => ({ ticker: String(r.ticker ?? ''), quantity: num(r.quantity) })).filter((r) => TICKER_RE.test(r.ticker) && r.quantity && r.quantity.gt(0));
  if (held.length === 0) return { fundos: [], renda_mensal_esperada: '0.00', text: 'Você não tem posições em FIIs registradas: não há proventos a esperar.' };
  const batches: string[][] = [];
  for (let i = 0; i < held.length; i += TICKER_BATCH) batches.push(held.slice(i, i + TICKER_BATCH).map((h) => h.ticker));
  // One row per fund: the latest dividend of each (the entity orders by record date, newest first).
  const results: QueryResult[] = await Promise.all(batches.map((tickers) => wh.query('fiis_dividendos', { tickers, limit: tickers.length * 3 }, ctx)));
  const latest = new Map<string, Record<string, unknown>>();
  for (const r of results.flatMap((x) => x.rows)) {
    const t = String(r.ticker ?? '');
    const prev = latest.get(t);
    if (!prev || String(r.traded_until_date ?? '') > String(prev.traded_until_date ?? '')) latest.set(t, r);
  }
  let total = new Dec(0);
  const funds = held.map((h) => {
    const d = latest.get(h.ticker);
    const amount = num(d?.dividend_amt);
    const income = amount ? amount.times(h.quantity!) : null;
    if (income) total = total.plus(income);
    return {
      ticker: h.ticker,
      cotas: h.quantity!.toFixed(),
      ultimo_rendimento: amount?.toFixed() ?? null,
      data_com: str(d?.traded_until_date) ?? null,
      data_pagamento: str(d?.payment_date) ?? null,
      renda_mensal: income?.toFixed(2) ?? null,
    };
  });
  funds.sort((a, b) => String(a.data_pagamento ?? '9999').localeCompare(String(b.data_pagamento ?? '9999')));
  const lastKnown =
    funds
      .map((f) => f.data_pagamento)
      .filter((x): x is string => !!x)
      .sort()
      .at(-1) ?? null;
  const lines = [
    `**Renda mensal esperada da carteira: ${formatMoney(total)}**, repetindo o último rendimento de cada fundo.`,
    ...funds.map((f) =>
      f.ultimo_rendimento
        ? `- ${f.ticker}: ${f.cotas} cotas × ${formatMoney(f.ultimo_rendimento)} = ${formatMoney(f.renda_mensal!)}; data com ${f.data_com ? formatDate(f.data_com) : '—'}, pagamento ${f.data_pagamento ? formatDate(f.data_pagamento) : '—'}`
        : `- ${f.ticker}: ${f.cotas} cotas; sem rendimentos registrados`,
    ),
    lastKnown
      ? `Os dados vão até o pagamento de ${formatDate(lastKnown)}: os próximos anúncios ainda não estão na base; FIIs costumam repetir o mesmo dia de pagamento todo mês.`
      : 'Não há datas de pagamento registradas para esses fundos.',
  ];
  return {
    fundos: funds,
    renda_mensal_esperada: total.toFixed(2),
    sources: [...new Set([...positions.sources, ...results.flatMap((r) => r.sources)])],
    text: lines.join('\n'),
  };
}
