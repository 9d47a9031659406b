import { Dec } from '@cota/finance';
import type { LedgerEntry, LedgerKind } from '@cota/portfolio';
import { fold, parseBrNumber, TICKER_RE } from '@cota/text';
import { RawTable } from './table';

export type StatementKind = 'negociacao' | 'movimentacao';

/** A ledger entry read from a statement row, with where it came from. */
export interface StatementEntry extends LedgerEntry {
  line: number;
  institution: string | null;
}

/** A row left out (a movement that changes neither cost nor income) or refused (unreadable), by line. */
export interface RowIssue {
  line: number;
  reason: string;
}

export interface ParsedStatement {
  statement: StatementKind;
  entries: StatementEntry[];
  ignored: RowIssue[];
  errors: RowIssue[];
}

/** The columns of each B3 investor-area export, as folded header names. */
const NEGOCIACAO = {
  date: 'data do negocio',
  type: 'tipo de movimentacao',
  market: 'mercado',
  institution: 'instituicao',
  code: 'codigo de negociacao',
  quantity: 'quantidade',
  price: 'preco',
  value: 'valor',
} as const;
const MOVIMENTACAO = {
  direction: 'entrada/saida',
  date: 'data',
  type: 'movimentacao',
  product: 'produto',
  institution: 'instituicao',
  quantity: 'quantidade',
  price: 'preco unitario',
  value: 'valor da operacao',
} as const;

const header = (v: unknown) =>
  fold(String(v ?? ''))
    .replace(/\s+/g, ' ')
    .trim();

/** Movimentação rows that change neither the cost of a position nor the income received, and why. */
const MOVEMENT_KIND: Array<[RegExp, LedgerKind | string]> = [
  [/^(rendimento|dividendo)s?$/, 'income'],
  [/^amortizacao$/, 'amortization'],
  [/^desdobramento$/, 'split'],
  [/^grupamento$/, 'reverse_split'],
  [/^transferencia/, 'as compras e vendas vêm do extrato de Negociação'],
  [/^(compra|venda)/, 'as compras e vendas vêm do extrato de Negociação'],
  [/juros sobre capital/, 'juros sobre capital próprio não são rendimento de FII'],
];

/**
 * Reads a B3 investor-area statement (Negociação or Movimentação, recognised by its header) into
 * ledger entries. Unreadable rows become errors with their line and reason; rows that do not touch
 * the ledger (transfers, other markets, shares that are not FIIs) are listed as ignored.
 */
export function parseStatement(table: RawTable): ParsedStatement {
  const headerAt = table.rows.findIndex((r) => {
    const names = r.cells.map(header);
    return (names.includes(NEGOCIACAO.code) && names.includes(NEGOCIACAO.type)) || (names.includes(MOVIMENTACAO.direction) && names.includes(MOVIMENTACAO.product));
  });
  if (headerAt < 0) {
    return {
      statement: 'negociacao',
      entries: [],
      ignored: [],
      errors: [
        {
          line: table.rows[0]?.line ?? 1,
          reason:
            'não encontrei o cabeçalho do extrato da B3 (Negociação: "Data do Negócio", "Tipo de Movimentação", "Código de Negociação"...; Movimentação: "Entrada/Saída", "Data", "Movimentação", "Produto"...)',
        },
      ],
    };
  }
  const names = table.rows[headerAt].cells.map(header);
  const isTrades = names.includes(NEGOCIACAO.code);
  const spec: Record<string, string> = isTrades ? NEGOCIACAO : MOVIMENTACAO;
  const col = Object.fromEntries(Object.entries(spec).map(([k, name]) => [k, names.indexOf(name)]));
  const missing = Object.entries(col).filter(([k, i]) => i < 0 && k !== 'market' && k !== 'institution');
  const out: ParsedStatement = { statement: isTrades ? 'negociacao' : 'movimentacao', entries: [], ignored: [], errors: [] };
  if (missing.length) {
    out.errors.push({ line: table.rows[headerAt].line, reason: `faltam as colunas ${missing.map(([k]) => `"${spec[k]}"`).join(', ')}` });
    return out;
  }
  for (const row of table.rows.slice(headerAt + 1)) {
    const cell = (k: string) => (col[k] >= 0 ? row.cells[col[k]] : undefined);
    try {
      const r = isTrades ? tradeRow(cell) : movementRow(cell);
      if ('ignored' in r) out.ignored.push({ line: row.line, reason: r.ignored });
      else out.entries.push({ ...r, line: row.line, institution: text(cell('institution')) || null });
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      out.errors.push({ line: row.line, reason: e.message });
    }
  }
  return out;
}

class RowError extends Error {}

type Cell = (k: string) => unknown;
type RowResult = LedgerEntry | { ignored: string };

function tradeRow(cell: Cell): RowResult {
  const type = header(cell('type'));
  const kind = type === 'compra' ? 'buy' : type === 'venda' ? 'sell' : null;
  if (!kind) throw new RowError(`tipo de movimentação "${text(cell('type'))}" desconhecido (esperado Compra ou Venda)`);
  const market = header(cell('market'));
  if (market && !/vista|fracionario/.test(market)) return { ignored: `mercado "${text(cell('market'))}" não é de cotas à vista` };
  const date = isoDate(cell('date'), 'Data do Negócio');
  const ticker = fundTicker(text(cell('code')).replace(/F$/, ''), 'Código de Negociação');
  if (typeof ticker !== 'string') return ticker;
  const quantity = wholeShares(cell('quantity'));
  const price = positive(cell('price'), 'Preço');
  const stated = amount(cell('value'));
  const value = stated ?? quantity.times(price);
  return { kind, date, ticker, quantity: quantity.toFixed(), price: price.toFixed(), amount: value.toFixed(2), fees: 0 };
}

function movementRow(cell: Cell): RowResult {
  const type = header(cell('type'));
  const match = MOVEMENT_KIND.find(([re]) => re.test(type));
  if (!match) return { ignored: `movimentação "${text(cell('type'))}" não altera custo nem renda` };
  const kind = match[1];
  if (!['income', 'amortization', 'split', 'reverse_split'].includes(kind)) return { ignored: kind };
  const direction = header(cell('direction'));
  if ((kind === 'income' || kind === 'amortization') && direction && !/credito|entrada/.test(direction)) return { ignored: `${text(cell('type'))} a débito não é recebimento` };
  const date = isoDate(cell('date'), 'Data');
  const product = text(cell('product'));
  const ticker = fundTicker(product.split(' - ')[0].trim(), 'Produto');
  if (typeof ticker !== 'string') return ticker;
  if (kind === 'split' || kind === 'reverse_split') {
    const quantity = wholeShares(cell('quantity'));
    return { kind: kind as LedgerKind, date, ticker, quantity: quantity.toFixed(), price: 0, amount: 0 };
  }
  const value = amount(cell('value'));
  if (!value || value.lte(0)) throw new RowError(`"Valor da Operação" vazio ou não positivo (${text(cell('value')) || 'vazio'})`);
  const qty = amount(cell('quantity'));
  const unit = amount(cell('price'));
  return { kind: kind as LedgerKind, date, ticker, quantity: (qty ?? new Dec(0)).toFixed(), price: (unit ?? new Dec(0)).toFixed(), amount: value.toFixed(2) };
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).trim();
}

/** A date cell: a spreadsheet date, "dd/mm/aaaa" or "aaaa-mm-dd". */
function isoDate(v: unknown, column: string): string {
  let iso: string | null = null;
  if (v instanceof Date && !Number.isNaN(v.getTime())) iso = v.toISOString().slice(0, 10);
  else {
    const s = text(v);
    const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
    if (br) iso = `${br[3]}-${br[2]}-${br[1]}`;
    else if (/^\d{4}-\d{2}-\d{2}$/.test(s)) iso = s;
  }
  const ok = iso && !Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) && new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso);
  if (!ok || iso! < '1990-01-01') throw new RowError(`"${column}" não é uma data válida (${text(v) || 'vazio'})`);
  return iso!;
}

/** A money or quantity cell: a number, or pt-BR text ("R$ 1.234,56"); null when empty or "-". */
function amount(v: unknown): Dec | null {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new RowError(`valor inválido (${v})`);
    return new Dec(v);
  }
  const s = text(v)
    .replace(/^R\$\s*/i, '')
    .replace(/\s+/g, '');
  if (s === '' || s === '-') return null;
  const n = parseBrNumber(s);
  if (!n) throw new RowError(`"${text(v)}" não é um número`);
  return new Dec(n.toString());
}

function positive(v: unknown, column: string): Dec {
  const n = amount(v);
  if (!n || n.lte(0)) throw new RowError(`"${column}" precisa ser um número positivo (${text(v) || 'vazio'})`);
  return n;
}

function wholeShares(v: unknown): Dec {
  const n = positive(v, 'Quantidade');
  if (!n.isInteger()) throw new RowError(`"Quantidade" precisa ser um número inteiro de cotas (${text(v)})`);
  return n;
}

/** A FII ticker (AAAA11); other assets (shares, BDRs, options) are ignored, an empty code is an error. */
function fundTicker(raw: string, column: string): string | { ignored: string } {
  const code = raw.toUpperCase();
  if (!code) throw new RowError(`"${column}" vazio`);
  if (!TICKER_RE.test(code)) return { ignored: `${code} não é cota de fundo imobiliário` };
  return code;
}
