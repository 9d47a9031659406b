import { CotaError } from '@cota/contracts';
import { Dec } from '@cota/finance';
import { describePeriod } from '@cota/periods';
import { monthName } from '@cota/text';
import { formatDate, formatMoney } from '@cota/text';
import { TransactionFilters } from './query';
import { GroupRow, TransactionRepository, TransactionRow } from './repository';

export type CategoryVocabulary = Record<string, { label: string; terms: string[] }>;

export interface RegisterArgs {
  tipo?: unknown;
  valor?: unknown;
  categoria?: unknown;
  data?: unknown;
  descricao?: unknown;
  previa?: unknown;
  confirmacao_id?: unknown;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
/** Amounts people enter by hand: positive, at most R$ 100 milhões, cents at most. */
const MAX_AMOUNT = new Dec('100000000');

function label(categories: CategoryVocabulary, key: string): string {
  return categories[key]?.label ?? key;
}

function checkedAmount(v: unknown): Dec {
  const s = str(v);
  if (!s || !/^\d+(\.\d+)?$/.test(s)) throw new CotaError('BAD_REQUEST', 'O valor da transação precisa ser um número positivo (ex.: 85,90).');
  const d = new Dec(s);
  if (d.lte(0) || d.gt(MAX_AMOUNT)) throw new CotaError('BAD_REQUEST', 'O valor da transação precisa ser maior que zero e de no máximo R$ 100 milhões.');
  if (d.decimalPlaces() > 2) throw new CotaError('BAD_REQUEST', 'O valor da transação pode ter no máximo centavos (duas casas decimais).');
  return d;
}

export interface TransactionContext {
  client_id: string;
  request_id: string;
  today: string;
}

/**
 * `registrar_transacao`: the preview (nothing written) shows exactly what "sim" will record; the
 * confirmed call records it once per confirmation.
 */
export async function registerTransaction(repo: TransactionRepository, categories: CategoryVocabulary, args: RegisterArgs, ctx: TransactionContext) {
  const tipo = str(args.tipo);
  if (tipo !== 'despesa' && tipo !== 'receita') throw new CotaError('BAD_REQUEST', 'Diga se foi um gasto (despesa) ou um recebimento (receita).');
  const valor = checkedAmount(args.valor);
  const categoria = str(args.categoria) ?? 'outros';
  if (!categories[categoria]) throw new CotaError('BAD_REQUEST', `Categoria desconhecida: ${categoria}.`);
  const data = str(args.data) ?? ctx.today;
  if (data > ctx.today) throw new CotaError('BAD_REQUEST', `A data ${formatDate(data)} ainda não chegou: registro só transações até hoje.`);
  if (data < '2000-01-01') throw new CotaError('BAD_REQUEST', 'A data da transação precisa ser a partir de 2000.');
  const descricao = str(args.descricao) ?? null;
  const kind = tipo === 'despesa' ? 'uma despesa' : 'uma receita';
  const resumo = `${kind} de ${formatMoney(valor)} em ${label(categories, categoria)} no dia ${formatDate(data)}${descricao ? ` (${descricao})` : ''}`;
  const fields = { tipo, valor: valor.toFixed(2), categoria, data, ...(descricao ? { descricao } : {}) };
  if (args.previa === true) return { ...fields, resumo, previa: true };

  const { transaction, created } = await repo.insert({
    client_id: ctx.client_id,
    tipo,
    valor: valor.toFixed(2),
    categoria,
    descricao,
    data,
    request_id: ctx.request_id,
    idempotency_key: str(args.confirmacao_id) ?? null,
  });
  const text = created ? `Pronto: registrei ${resumo}.` : `Essa transação já estava registrada: ${resumo}.`;
  return { ...fields, transaction_id: transaction.transaction_id, registrada: created, resumo, text };
}

export interface QueryArgs extends TransactionFilters {
  agrupar_por?: unknown;
  ordem?: unknown;
  limite?: unknown;
}

function periodText(f: TransactionFilters): string {
  if (f.data_inicio && f.data_fim) return describePeriod(f.data_inicio, f.data_fim);
  if (f.data_inicio) return `desde ${formatDate(f.data_inicio)}`;
  if (f.data_fim) return `até ${formatDate(f.data_fim)}`;
  return 'em todo o histórico';
}

function filterText(f: TransactionFilters, categories: CategoryVocabulary): string {
  const parts: string[] = [];
  if (f.categoria) parts.push(`em ${label(categories, f.categoria)}`);
  if (f.valor_min && f.valor_max) parts.push(`entre ${formatMoney(f.valor_min)} e ${formatMoney(f.valor_max)}`);
  else if (f.valor_min) parts.push(`a partir de ${formatMoney(f.valor_min)}`);
  else if (f.valor_max) parts.push(`até ${formatMoney(f.valor_max)}`);
  return parts.length ? ` ${parts.join(', ')}` : '';
}

const groupLabel = (by: 'categoria' | 'mes', key: string, categories: CategoryVocabulary) =>
  by === 'categoria' ? label(categories, key) : `${monthName(Number(key.slice(5, 7)))}/${key.slice(0, 4)}`;

/** `consultar_transacoes`: totals, groups or the rows themselves, always of the calling client only. */
export async function queryTransactions(repo: TransactionRepository, categories: CategoryVocabulary, args: QueryArgs, ctx: TransactionContext) {
  const f: TransactionFilters = {};
  for (const k of ['tipo', 'categoria', 'data_inicio', 'data_fim', 'valor_min', 'valor_max'] as const) {
    const v = str(args[k]);
    if (v) (f as Record<string, string>)[k] = v;
  }
  if (f.categoria && !categories[f.categoria]) throw new CotaError('BAD_REQUEST', `Categoria desconhecida: ${f.categoria}.`);
  if (f.data_inicio && f.data_fim && f.data_inicio > f.data_fim) throw new CotaError('BAD_REQUEST', 'O início do período precisa vir antes do fim.');
  const by = args.agrupar_por === 'categoria' || args.agrupar_por === 'mes' ? args.agrupar_por : null;
  const order = args.ordem === 'maiores' ? 'maiores' : 'recentes';
  const limit = typeof args.limite === 'number' && args.limite > 0 ? Math.min(args.limite, 50) : order === 'maiores' ? 5 : 10;

  const [totals, groups, items] = await Promise.all([
    repo.totals(ctx.client_id, f),
    by ? repo.grouped(ctx.client_id, f, by) : Promise.resolve([] as GroupRow[]),
    repo.list(ctx.client_id, f, order, limit),
  ]);
  const sum = (t: 'despesa' | 'receita') => new Dec(totals.find((r) => r.tipo === t)?.total ?? '0');
  const count = totals.reduce((n, r) => n + r.n, 0);
  const despesas = sum('despesa');
  const receitas = sum('receita');
  const scope = `${periodText(f)}${filterText(f, categories)}`;
  const lines: string[] = [];
  if (count === 0) {
    lines.push(`Não encontrei ${f.tipo === 'receita' ? 'receitas' : f.tipo === 'despesa' ? 'despesas' : 'transações'} suas ${scope}.`);
  } else if (f.tipo === 'despesa') {
    lines.push(`**Você gastou ${formatMoney(despesas)} ${scope}** (${count} ${count === 1 ? 'despesa' : 'despesas'}).`);
  } else if (f.tipo === 'receita') {
    lines.push(`**Você recebeu ${formatMoney(receitas)} ${scope}** (${count} ${count === 1 ? 'receita' : 'receitas'}).`);
  } else {
    const saldo = receitas.minus(despesas);
    lines.push(
      `**${scope.charAt(0).toUpperCase()}${scope.slice(1)}: despesas de ${formatMoney(despesas)} e receitas de ${formatMoney(receitas)}; saldo de ${formatMoney(saldo)}** (${count} ${count === 1 ? 'transação' : 'transações'}).`,
    );
  }
  if (by && groups.length) {
    lines.push(`Por ${by === 'categoria' ? 'categoria' : 'mês'}:`);
    for (const g of groups) lines.push(`- ${groupLabel(by, g.grupo, categories)}: ${formatMoney(g.total)} ${g.tipo === 'despesa' ? 'em despesas' : 'em receitas'} (${g.n})`);
  }
  if (items.length && (!by || args.ordem === 'maiores')) {
    lines.push(order === 'maiores' ? `As maiores (${items.length}):` : `As mais recentes (${items.length}):`);
    for (const t of items) {
      lines.push(
        `- ${formatDate(t.data)} · ${t.tipo === 'despesa' ? 'despesa' : 'receita'} · ${label(categories, t.categoria)}${t.descricao ? ` (${t.descricao})` : ''}: ${formatMoney(t.valor)}`,
      );
    }
  }
  return {
    periodo: { inicio: f.data_inicio ?? null, fim: f.data_fim ?? null },
    filtros: f,
    total_despesas: despesas.toFixed(2),
    total_receitas: receitas.toFixed(2),
    saldo: receitas.minus(despesas).toFixed(2),
    quantidade: count,
    grupos: groups.map((g: GroupRow) => ({ grupo: g.grupo, rotulo: groupLabel(by ?? 'categoria', g.grupo, categories), tipo: g.tipo, total: g.total, quantidade: g.n })),
    itens: items.map((t: TransactionRow) => ({ ...t, rotulo_categoria: label(categories, t.categoria) })),
    text: lines.join('\n'),
  };
}
