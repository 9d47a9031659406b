import { CotaError } from '@cota/contracts';
import { Dec } from '@cota/finance';
import { DARF_CODE, darfDueDateFor, FII_TAX_RATE } from '@cota/portfolio';
import { formatDate, formatMoney } from '@cota/text';
import { FundToolContext, lastPriceAndDividend } from './fund-income';
import { WarehouseQuery } from './warehouse-query';

const num = (v: unknown): Dec | null => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : new Dec(String(v)));

/**
 * A gain's tax for a sale made today (the ledger's rules: 20%, DARF 6015 due the last business day of the next month),
 * and the line that says how it is paid, or that a loss pays nothing and is carried.
 */
function taxOfGain(gain: Dec, today: string): { tax: Dec; due: string | null; payment: string } {
  if (!gain.gt(0)) return { tax: new Dec(0), due: null, payment: 'O prejuízo pode ser compensado com lucros futuros em vendas de FIIs (guarde o registro).' };
  const due = darfDueDateFor(today.slice(0, 7));
  return {
    tax: gain.times(FII_TAX_RATE).toDecimalPlaces(2, Dec.ROUND_HALF_UP),
    due,
    payment: `O imposto é pago por DARF (código ${DARF_CODE}) até o último dia útil do mês seguinte à venda: para uma venda hoje, até ${formatDate(due)}. Não há isenção para vendas de até R$ 20 mil em FIIs.`,
  };
}

/**
 * `simular_ir_venda`: the capital gain of selling the client's own shares at their average price,
 * 20% of a gain, and the DARF due date; a loss is said to offset future FII gains.
 */
export async function simulateSaleTax(
  wh: WarehouseQuery,
  args: { ticker?: unknown; quantidade?: unknown; preco_venda?: unknown; preco_compra?: unknown; lucro?: unknown },
  ctx: FundToolContext & { today: string },
  /** The tax of the sales of this fund already made, for a fund no longer held (null when it was never sold). */
  soldAlready: (ticker: string) => Promise<{ text: string } | null> = async () => null,
) {
  const ticker = typeof args.ticker === 'string' ? args.ticker.toUpperCase() : '';
  const statedCost = num(args.preco_compra);
  const statedPrice = num(args.preco_venda);
  // The gain stated ("vendi cotas com lucro de 3.500"): its 20%, whatever fund.
  const statedGain = num(args.lucro);
  if (statedGain) return gainTax(statedGain, ctx.today);
  // Every number of the sale stated ("comprei 200 cotas a R$ 98 e vendi a R$ 105"): the person's sale, not the portfolio's.
  if (statedCost && statedPrice && typeof args.quantidade === 'number') {
    return saleTax({
      ticker,
      qty: new Dec(args.quantidade),
      price: statedPrice,
      cost: statedCost,
      priceNote: `a ${formatMoney(statedPrice)}`,
      costNote: 'preço de compra informado',
      today: ctx.today,
    });
  }
  if (!ticker) throw new CotaError('BAD_REQUEST', 'De qual fundo seria a venda? (ex.: HGLG11)');
  const positions = await wh.query('client_fiis_positions', { ticker, tickers: [ticker], limit: 5 }, ctx);
  const pos = positions.rows.find((r) => r.ticker === ticker);
  const held = num(pos?.quantity);
  const avg = num(pos?.avg_price);
  if (!pos || !held || held.lte(0) || !avg) {
    // (sold already: the sale that was made is what its tax is asked of)
    const sold = await soldAlready(ticker);
    if (sold) return { ticker, ...sold, text: `Você não tem mais cotas do ${ticker}; o imposto da venda que fez:\n\n${sold.text}` };
    throw new CotaError('NOT_FOUND', `Você não tem cotas do ${ticker} na carteira, então não há venda a simular.`);
  }
  const qty = typeof args.quantidade === 'number' ? new Dec(args.quantidade) : held;
  // (a purchase price stated replaces the average registered: "vendi 100 cotas a 165 que tinha comprado a 150")
  // (the unit cost from the position's cost, not from the average rounded to 4 places: selling it all costs exactly what it cost)
  const invested = num(pos.invested_amt);
  const cost = statedCost ?? (invested && invested.gt(0) ? invested.div(held) : avg);
  if (qty.gt(held)) throw new CotaError('BAD_REQUEST', `Você tem ${held.toFixed()} cotas do ${ticker}; não dá para simular a venda de ${qty.toFixed()}.`);
  let price: Dec;
  let priceNote: string;
  if (typeof args.preco_venda === 'string' && args.preco_venda) {
    price = new Dec(args.preco_venda);
    priceNote = `ao preço informado de ${formatMoney(price)}`;
  } else {
    const last = await lastPriceAndDividend(wh, ticker, ctx).catch(() => null);
    const p = last?.price ?? num(pos.last_price);
    if (!p) throw new CotaError('NOT_FOUND', `Não encontrei a última cotação do ${ticker}; diga o preço de venda (ex.: "a R$ 160").`);
    price = p;
    priceNote = `ao último preço, ${formatMoney(price)}${last?.priceDate ? ` (${formatDate(last.priceDate)})` : ''}`;
  }
  return saleTax({ ticker, qty, price, cost, priceNote, costNote: statedCost ? 'preço de compra informado' : 'preço médio', today: ctx.today });
}

/** The tax of a gain stated as such: 20% of it when positive (losses earlier in the month may be taken off first). */
function gainTax(gain: Dec, today: string) {
  const { tax, due, payment } = taxOfGain(gain, today);
  const head = gain.gt(0)
    ? `**Sobre um lucro de ${formatMoney(gain)} na venda de cotas de FII, o imposto de renda é de ${formatMoney(tax)} (20%).**`
    : `**Com prejuízo de ${formatMoney(gain.abs())} não há imposto a pagar.**`;
  const account = gain.gt(0)
    ? [`Conta: ${formatMoney(gain)} × 20% = ${formatMoney(tax)}. Prejuízos de vendas anteriores de FIIs podem ser descontados do lucro antes da conta.`]
    : [];
  const lines = [head, ...account, payment, 'Não é orientação tributária.'];
  return { ticker: null, lucro: gain.toFixed(2), imposto: tax.toFixed(2), aliquota_pct: '20', vencimento_darf: due, text: lines.join('\n\n') };
}

/** The gain of selling `qty` shares at `price` that cost `cost` each, its 20% and the DARF's due date for a sale today. */
function saleTax(s: { ticker: string; qty: Dec; price: Dec; cost: Dec; priceNote: string; costNote: string; today: string }) {
  const { ticker, qty, price, cost: unitCost, priceNote, costNote } = s;
  if (qty.lte(0) || !qty.isInteger()) throw new CotaError('BAD_REQUEST', 'A quantidade de cotas precisa ser um número inteiro positivo.');
  if (price.lte(0) || unitCost.lte(0)) throw new CotaError('BAD_REQUEST', 'Os preços de compra e de venda precisam ser positivos.');
  const proceeds = qty.times(price);
  const cost = qty.times(unitCost);
  const gain = proceeds.minus(cost);
  const { tax, due, payment } = taxOfGain(gain, s.today);
  const shares = `${qty.toFixed()} cotas${ticker ? ` do ${ticker}` : ''}`;
  const head = gain.gt(0)
    ? `**Vendendo ${shares} ${priceNote}, o lucro seria de ${formatMoney(gain)} e o imposto de renda, ${formatMoney(tax)} (20%).**`
    : // (the result said with its sign, as every other result is: "-R$ 1.283,10 (prejuízo)")
      `**Vendendo ${shares} ${priceNote}, ${gain.isZero() ? 'o resultado seria zero' : `o resultado seria de ${formatMoney(gain)} (prejuízo)`}: não há imposto a pagar.**`;
  const lines = [
    head,
    `Conta: venda de ${formatMoney(proceeds)} (${qty.toFixed()} × ${formatMoney(price)}) − custo de ${formatMoney(cost)} (${qty.toFixed()} × ${costNote} de ${formatMoney(unitCost)}).`,
    payment,
    `Simulação com o ${costNote}; não considera corretagem, emolumentos nem o IR retido na fonte (0,005%, que é descontado do imposto devido). Não é orientação tributária.`,
  ];
  return {
    ticker: ticker || null,
    quantidade: qty.toFixed(),
    preco_venda: price.toFixed(),
    preco_medio: unitCost.toFixed(),
    valor_venda: proceeds.toFixed(2),
    custo: cost.toFixed(2),
    lucro: gain.toFixed(2),
    imposto: tax.toFixed(2),
    aliquota_pct: '20',
    vencimento_darf: due,
    text: lines.join('\n\n'),
  };
}
