import { CotaError } from '@cota/contracts';
import { Dec } from '@cota/finance';
import { LedgerImports, LedgerTrades } from '@cota/ledger';
import { formatDate, formatDecimal, formatMoney, TICKER_RE } from '@cota/text';
import { WarehouseQuery } from '../warehouse-query';
import { positionLines, positionsTable } from './portfolio-table';

export interface LedgerToolDeps {
  imports: LedgerImports;
  trades: LedgerTrades;
  warehouse: WarehouseQuery;
}

export interface LedgerToolContext {
  client_id: string;
  request_id: string;
  today: string;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * `importar_extrato`: the preview is the staged import's summary (nothing written); the confirmed
 * call adds the file's entries to the ledger at once and shows the portfolio with cost and gain.
 */
export async function importStatement(deps: LedgerToolDeps, args: { import_id?: unknown; previa?: unknown }, ctx: LedgerToolContext) {
  const id = str(args.import_id);
  if (!id) throw new CotaError('BAD_REQUEST', 'Envie o extrato da B3 (arraste o arquivo para a conversa) para importar.');
  const found = await deps.imports.get(ctx.client_id, id);
  if (!found) throw new CotaError('NOT_FOUND', 'Não encontrei essa importação entre as suas. Envie o arquivo de novo.');
  if (args.previa === true) {
    if (found.status === 'confirmed') throw new CotaError('BAD_REQUEST', found.preview);
    return { import_id: id, arquivo: found.file_name, resumo: found.preview, resumo_dados: found.summary };
  }
  const before = found.status;
  const view = await deps.imports.confirm(ctx.client_id, id);
  const lines = await positionLines(deps.warehouse, ctx);
  const head =
    before === 'confirmed'
      ? `Este arquivo já tinha sido importado; nada foi adicionado de novo.`
      : `Pronto: importei ${view.added ?? 0} ${view.added === 1 ? 'lançamento' : 'lançamentos'} de "${view.file_name}" para a sua carteira.`;
  return {
    import_id: id,
    arquivo: view.file_name,
    adicionados: view.added ?? 0,
    posicoes: lines,
    text: `${head}\n\n**Sua carteira com custo e ganho:**\n\n${positionsTable(lines)}\n\nPreço médio pela regra da B3 (compras com taxas; vendas não mudam o preço médio; desdobramentos e grupamentos ajustam a quantidade). Valor de mercado pelo último fechamento disponível.`,
  };
}

export interface TradeArgs {
  tipo?: unknown;
  ticker?: unknown;
  quantidade?: unknown;
  preco?: unknown;
  data?: unknown;
  previa?: unknown;
  confirmacao_id?: unknown;
}

/** `registrar_operacao`: a buy or a sale told in the chat, checked, previewed, then written to the ledger. */
export async function registerTrade(deps: LedgerToolDeps, args: TradeArgs, ctx: LedgerToolContext) {
  const tipo = str(args.tipo);
  if (tipo !== 'compra' && tipo !== 'venda') throw new CotaError('BAD_REQUEST', 'Foi uma compra ou uma venda?');
  const ticker = str(args.ticker)?.toUpperCase();
  if (!ticker || !TICKER_RE.test(ticker)) throw new CotaError('BAD_REQUEST', 'De qual fundo? (ex.: HGLG11)');
  const quantidade = Number(args.quantidade);
  if (!Number.isInteger(quantidade) || quantidade <= 0 || quantidade > 10_000_000)
    throw new CotaError('BAD_REQUEST', 'A quantidade de cotas precisa ser um número inteiro positivo.');
  const precoText = str(args.preco);
  if (!precoText || !/^\d+(\.\d+)?$/.test(precoText)) throw new CotaError('BAD_REQUEST', 'Qual foi o preço por cota? (ex.: "a 158,40")');
  const preco = new Dec(precoText);
  if (preco.lte(0) || preco.gt(1_000_000) || preco.decimalPlaces() > 4)
    throw new CotaError('BAD_REQUEST', 'O preço por cota precisa ser positivo, com no máximo 4 casas decimais.');
  const data = str(args.data) ?? ctx.today;
  if (data > ctx.today) throw new CotaError('BAD_REQUEST', `A data ${formatDate(data)} ainda não chegou: registro só operações até hoje.`);
  if (data < '2000-01-01') throw new CotaError('BAD_REQUEST', 'A data da operação precisa ser a partir de 2000.');
  const trade = { kind: tipo === 'compra' ? ('buy' as const) : ('sell' as const), ticker, quantity: quantidade, price: preco.toFixed(), date: data };
  await deps.trades.check(ctx.client_id, trade);
  const total = preco.times(quantidade);
  const resumo = `a ${tipo} de ${formatDecimal(quantidade, 0)} ${quantidade === 1 ? 'cota' : 'cotas'} de ${ticker} a ${formatMoney(preco)} em ${formatDate(data)} (total de ${formatMoney(total)})`;
  const fields = { tipo, ticker, quantidade, preco: preco.toFixed(), data, total: total.toFixed(2) };
  if (args.previa === true) return { ...fields, resumo };
  const key = str(args.confirmacao_id) ?? ctx.request_id;
  const created = await deps.trades.record(ctx.client_id, { ...trade, key: `${ctx.client_id}:${key}` });
  const lines = await positionLines(deps.warehouse, ctx);
  const pos = lines.find((l) => l.ticker === ticker);
  const after = pos
    ? `Agora você tem ${formatDecimal(pos.quantidade, 0)} cotas de ${ticker} a preço médio de ${pos.preco_medio === null ? '—' : formatMoney(pos.preco_medio)} (custo de ${pos.custo === null ? '—' : formatMoney(pos.custo)}).`
    : `Você não tem mais cotas de ${ticker}.`;
  return { ...fields, registrada: created, resumo, posicao: pos ?? null, text: `${created ? 'Pronto: registrei' : 'Essa operação já estava registrada:'} ${resumo}. ${after}` };
}
