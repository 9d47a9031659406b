import type { MeasureResult, StructuredQuestion } from '@cota/contracts';
import { CotaError } from '@cota/contracts';
import { Dec } from '@cota/finance';
import { Queryable, readLedger } from '@cota/ledger';
import { inAdjustedUnits, LedgerEntry, modifiedDietz, PeriodReturn, replay } from '@cota/portfolio';
import { addDays, addMonths } from '@cota/periods';
import { formatDate, formatDecimal, formatMoney, formatPercent } from '@cota/text';

/**
 * What the return of a portfolio reads besides the ledger, through the measure catalog (the
 * executor's MeasureQueryService): closes, the income the client received, the benchmarks.
 */
export interface MeasureReader {
  compute(question: StructuredQuestion, clientId: string): Promise<MeasureResult>;
  valuesOnOrBefore(measure: string, ids: readonly string[], date: string, basis?: 'traded' | 'adjusted'): Promise<Map<string, { date: string; value: number }>>;
  clientFlows(measure: string, clientId: string, from: string, to: string): Promise<Array<{ id: string; date: string; value: number }>>;
}

/** The catalog's measures the return is computed from. */
const PRICE = 'price';
const RECEIVED = 'received';
const BENCHMARKS = [
  { id: 'IFIX', kind: 'index' as const, measure: 'index_points', agg: 'variation' as const },
  { id: 'CDI', kind: 'indicator' as const, measure: 'annual_rate', agg: 'accumulated' as const },
];
/** A close counts for a date when it is at most this many days older (a month-end close, holidays). */
const FRESH_DAYS = 7;

const str = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
const pct = (v: Dec | number) => formatPercent(v.toString(), 2);
const brl = (d: Dec) => formatMoney(d.toDecimalPlaces(2, Dec.ROUND_HALF_UP));

type Closes = Map<string, { date: string; value: number }>;
type Basis = 'traded' | 'adjusted';

interface Benchmark {
  id: string;
  value: number | null;
  from: string | null;
  to: string | null;
}

/** The period asked, as the close it starts from and the close it ends at (before the data's limits). */
interface AskedPeriod {
  months: number | null;
  from: string | null;
  to: string | null;
}

/**
 * `rentabilidade_carteira`: the portfolio's money-weighted return over a period (Modified Dietz, from
 * the ledger's buys and sales, the income received and the closes at both ends), against the IFIX
 * and the CDI over the same dates. Without a period: since the first entry of the ledger; "últimos
 * 12 meses" ends at the latest close, like every trailing window. Positions are valued at traded
 * closes; where the base has none near a date (it keeps daily closes adjusted for distributions for
 * some years), every value and trade is taken at the adjusted closes and the income is left out of
 * the flows (it is inside those closes), and the answer says so. A period past the data ends at it.
 */
export async function portfolioReturn(
  db: Queryable,
  market: MeasureReader,
  args: { data_inicio?: unknown; data_fim?: unknown; meses?: unknown },
  ctx: { client_id: string; today: string },
) {
  const ledger = await readLedger(db, ctx.client_id);
  if (!ledger.length)
    throw new CotaError(
      'NOT_FOUND',
      'Sua carteira ainda não tem lançamentos: envie o extrato de Negociação da B3 (arraste o arquivo para a conversa) ou conte uma compra ("comprei 20 HGLG11 a 158,40 hoje").',
    );
  const asked: AskedPeriod = {
    months: typeof args.meses === 'number' && args.meses > 0 ? args.meses : null,
    from: str(args.data_inicio) ?? null,
    to: str(args.data_fim) ?? null,
  };
  const firstEntry = ledger.map((e) => e.date).sort()[0];
  const ifixLast = (await market.valuesOnOrBefore('index_points', ['IFIX'], ctx.today)).get('IFIX')?.date ?? ctx.today;
  let lastTry: { basis: Basis; missing: string[]; start: string; end: string } | null = null;
  for (const basis of ['traded', 'adjusted'] as const) {
    const attempt = await onBasis(ledger, market, basis, asked, { firstEntry, ifixLast, today: ctx.today, clientId: ctx.client_id });
    if ('result' in attempt) {
      const benchmarks = await Promise.all(BENCHMARKS.map((b) => benchmarkOver(market, b, addDays(attempt.result.start, 1), attempt.result.end, ctx.client_id)));
      return summarise(attempt.result, benchmarks, basis, {
        askedEnd: asked.months ? null : asked.to,
        startedAtFirstEntry: !asked.months && (!asked.from || asked.from < firstEntry),
      });
    }
    lastTry ??= { basis, ...attempt };
  }
  const t = lastTry!;
  if (t.start >= t.end)
    throw new CotaError('NOT_FOUND', `Sua carteira começa em ${formatDate(firstEntry)} e as cotações da base vão até ${formatDate(t.end)}: não há período para medir.`);
  throw new CotaError(
    'NOT_FOUND',
    `A base não tem cotações de ${t.missing.join(', ')} perto de ${formatDate(t.start)} e de ${formatDate(t.end)} para avaliar a carteira nesse período.`,
  );
}

/** The return on one basis of closes, or what was missing for it. */
async function onBasis(
  ledger: readonly LedgerEntry[],
  market: MeasureReader,
  basis: Basis,
  asked: AskedPeriod,
  ctx: { firstEntry: string; ifixLast: string; today: string; clientId: string },
): Promise<{ result: PeriodReturn } | { missing: string[]; start: string; end: string }> {
  const tickers = [...new Set(ledger.map((e) => e.ticker))].sort();
  const latest = await market.valuesOnOrBefore(PRICE, tickers, ctx.today, basis);
  // The period cannot end after the IFIX nor after the closes of the funds held then.
  const heldAt = (date: string) => [...replay(ledger, date).positions.values()].filter((p) => p.quantity.gt(0)).map((p) => p.ticker);
  const roughEnd = [asked.months ? null : asked.to, ctx.ifixLast, ctx.today].filter((d): d is string => !!d).sort()[0];
  const fundsLast = heldAt(roughEnd)
    .map((t) => latest.get(t)?.date ?? '0000-00-00')
    .sort()[0];
  const dataEnd = [ctx.ifixLast, fundsLast ?? ctx.ifixLast].sort()[0];
  // A period ending on a weekend or holiday ends at its last session's close: only older data moves the end.
  const end = dataEnd < addDays(roughEnd, -FRESH_DAYS) ? dataEnd : roughEnd;
  const askedStart = asked.months ? addMonths(end, -asked.months) : asked.from ? addDays(asked.from, -1) : addDays(ctx.firstEntry, -1);
  const start = askedStart < addDays(ctx.firstEntry, -1) ? addDays(ctx.firstEntry, -1) : askedStart;
  if (start >= end) return { missing: [], start, end };
  // (on adjusted closes every trade up to the end is converted into units of the adjusted series, so its close is read too)
  const tradeDates = [...new Set(ledger.filter((e) => (e.kind === 'buy' || e.kind === 'sell') && (basis === 'adjusted' || e.date > start) && e.date <= end).map((e) => e.date))];
  const [initial, final, atTrades] = await Promise.all([
    market.valuesOnOrBefore(PRICE, tickers, start, basis),
    market.valuesOnOrBefore(PRICE, tickers, end, basis),
    basis === 'adjusted' ? Promise.all(tradeDates.map(async (d) => [d, await market.valuesOnOrBefore(PRICE, tickers, d, basis)] as const)) : Promise.resolve([]),
  ]);
  const missing = [...stale(initial, heldAt(start), start), ...stale(final, heldAt(end), end)];
  const byTrade = new Map(atTrades);
  for (const e of ledger) if (byTrade.has(e.date) && (e.kind === 'buy' || e.kind === 'sell')) missing.push(...stale(byTrade.get(e.date)!, [e.ticker], e.date));
  if (missing.length) return { missing: [...new Set(missing)].sort(), start, end };
  const closeOf = (m: Closes) => (t: string) => (m.get(t) ? { date: m.get(t)!.date, price: m.get(t)!.value } : undefined);
  // On adjusted closes the distributions are inside the prices: each lot is held in units of the adjusted series
  // (what it cost over that day's adjusted close), so it grows from its cost with its income reinvested, and income is no flow.
  const entries =
    basis === 'traded'
      ? ledger
      : inAdjustedUnits(
          ledger.filter((e) => e.date <= end),
          (ticker, date) => byTrade.get(date)?.get(ticker)?.value,
        );
  if (!entries) return { missing: [...new Set(ledger.filter((e) => e.date <= end).map((e) => e.ticker))].sort(), start, end };
  const income = basis === 'traded' ? (await market.clientFlows(RECEIVED, ctx.clientId, start, end)).map((i) => ({ ticker: i.id, date: i.date, amount: i.value })) : [];
  const usable = basis === 'traded' ? entries : entries.filter((e) => e.kind !== 'amortization' || e.date <= start || e.date > end);
  return { result: modifiedDietz(usable, income, { start, end }, { initial: closeOf(initial), final: closeOf(final) }) };
}

/** The funds among `held` without a close at most FRESH_DAYS older than `date`. */
function stale(closes: Closes, held: readonly string[], date: string): string[] {
  return held.filter((t) => {
    const c = closes.get(t);
    return !c || c.date < addDays(date, -FRESH_DAYS);
  });
}

async function benchmarkOver(market: MeasureReader, b: (typeof BENCHMARKS)[number], from: string, to: string, clientId: string): Promise<Benchmark> {
  const res = await market.compute(
    {
      subjects: [{ kind: b.kind, id: b.id }],
      measure: b.measure,
      agg: b.agg,
      also: [],
      period: { kind: 'range', from, to, grain: 'custom' },
      group_by: null,
      compare: null,
      condition: null,
    },
    clientId,
  );
  const v = res.values[0];
  return { id: b.id, value: v?.value ?? null, from: v?.start?.date ?? v?.period?.from ?? null, to: v?.end?.date ?? v?.date ?? null };
}

function summarise(r: PeriodReturn, benchmarks: Benchmark[], basis: Basis, notes: { askedEnd: string | null; startedAtFirstEntry: boolean }) {
  const from = addDays(r.start, 1);
  const adj = basis === 'adjusted' ? ' ajustado' : '';
  const span = `de ${formatDate(from)} a ${formatDate(r.end)}`;
  const ret = r.returnPct;
  const verdict = benchmarks
    .filter((b) => b.value !== null && ret !== null)
    .map((b) => {
      // (by how much, in percentage points: "bati o IFIX por quanto?")
      const gap = ret!.toDecimalPlaces(2).minus(new Dec(b.value!).toDecimalPlaces(2));
      const points = `${formatDecimal(gap.abs().toString(), 2)} p.p.`;
      return gap.gt(0) ? `${points} acima do ${b.id}` : gap.lt(0) ? `${points} abaixo do ${b.id}` : `igual ao ${b.id}`;
    });
  const against = benchmarks.map((b) => (b.value === null ? `o ${b.id} sem dados no período` : `${pct(b.value)} do ${b.id}`)).join(' e ');
  const head =
    ret === null
      ? `**Sua carteira não tinha capital investido ${span}, então não há rentabilidade a medir.**`
      : `**${span.charAt(0).toUpperCase()}${span.slice(1)}, sua carteira rendeu ${pct(ret)} (ponderado pelo dinheiro, método Modified Dietz), contra ${against}${verdict.length ? `: ficou ${verdict.join(' e ')}` : ''}.**`;
  const flows = [
    r.bought.gt(0) ? `compras de ${brl(r.bought)}` : '',
    r.sold.gt(0) ? `vendas de ${brl(r.sold)}` : '',
    r.amortized.gt(0) ? `amortizações de ${brl(r.amortized)}` : '',
    r.income.gt(0) ? `proventos recebidos de ${brl(r.income)}` : '',
  ].filter(Boolean);
  // The sessions the values were taken at (a period ending on a holiday is valued at the session before it).
  const sessionOf = (v: PeriodReturn['initial']) =>
    v.positions
      .map((p) => p.closeDate)
      .sort()
      .pop() ?? v.date;
  const staleFunds = r.final.positions.filter((p) => p.closeDate < addDays(r.end, -FRESH_DAYS));
  const lines = [
    head,
    `Conta: ${r.initial.positions.length ? `valor inicial de ${brl(r.initial.value)} (fechamento${adj} de ${formatDate(sessionOf(r.initial))})` : 'carteira vazia no início'}, valor final de ${brl(r.final.value)} (fechamento${adj} de ${formatDate(sessionOf(r.final))})${flows.length ? `, ${flows.join(', ')}${adj ? ' (a preços ajustados)' : ''}` : ', sem compras, vendas nem proventos no período'}. Ganho de ${brl(r.gain)} sobre um capital médio de ${brl(r.averageCapital)} (o valor inicial mais cada aporte ou retirada pesado pela fração do período em que ficou na carteira).`,
    `Referências nas mesmas datas: ${benchmarks
      .map((b) => (b.value === null ? `${b.id} sem dados` : `${b.id} ${pct(b.value)}${b.from && b.to ? ` (${formatDate(b.from)} a ${formatDate(b.to)})` : ''}`))
      .join('; ')} (IFIX pela variação dos pontos, CDI composto por dia útil).`,
  ];
  if (notes.askedEnd && notes.askedEnd > r.end)
    lines.push(
      `A conta vai até ${formatDate(r.end)}: são os fechamentos${adj ? ' ajustados' : ''} mais recentes da base para os seus fundos e o IFIX, anteriores ao fim do período pedido (${formatDate(notes.askedEnd)}).`,
    );
  if (staleFunds.length)
    lines.push(`Sem negociação até o fim do período, ${staleFunds.map((p) => `${p.ticker} foi avaliado pelo fechamento de ${formatDate(p.closeDate)}`).join('; ')}.`);
  if (notes.startedAtFirstEntry) lines.push(`O período começa no primeiro lançamento da sua carteira (${formatDate(from)}).`);
  lines.push(
    basis === 'traded'
      ? 'Proventos contam como retorno pela data de pagamento; carteira avaliada pelos fechamentos negociados, sem corretagem. Não é recomendação de investimento.'
      : 'A base não tem fechamentos negociados nessas datas, só os ajustados por proventos: avaliei a carteira e cada compra ou venda pelo fechamento ajustado do dia, com os proventos reinvestidos (por isso eles não entram como fluxo). Sem corretagem. Não é recomendação de investimento.',
  );
  return {
    data_inicio: from,
    data_fim: r.end,
    rentabilidade_pct: ret === null ? null : ret.toFixed(4),
    valor_inicial: r.initial.value.toFixed(2),
    valor_final: r.final.value.toFixed(2),
    compras: r.bought.toFixed(2),
    vendas: r.sold.toFixed(2),
    proventos: r.income.toFixed(2),
    ganho: r.gain.toFixed(2),
    capital_medio: r.averageCapital.toFixed(2),
    metodo: 'modified_dietz',
    precos: basis === 'traded' ? 'fechamento' : 'fechamento_ajustado',
    referencias: benchmarks.map((b) => ({ indice: b.id, rentabilidade_pct: b.value, de: b.from, ate: b.to })),
    text: lines.join('\n\n'),
  };
}
