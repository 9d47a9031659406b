import type { LedgerKind } from '@cota/portfolio';
import type { RowIssue, StatementKind } from './b3/statement';

/** What an import will add, as shown before the client confirms it. */
export interface ImportSummary {
  statement: StatementKind;
  /** New entries per kind (entries already in the ledger are not counted). */
  counts: Record<LedgerKind, number>;
  funds: string[];
  first_date: string | null;
  last_date: string | null;
  /** Entries of the file already in the ledger (an earlier import of the same rows). */
  already_in_ledger: number;
  ignored: RowIssue[];
}

const PLURAL: Record<LedgerKind, [string, string]> = {
  buy: ['compra', 'compras'],
  sell: ['venda', 'vendas'],
  income: ['rendimento', 'rendimentos'],
  amortization: ['amortização', 'amortizações'],
  split: ['desdobramento', 'desdobramentos'],
  reverse_split: ['grupamento', 'grupamentos'],
};

const monthYear = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const n = (count: number, [one, many]: [string, string]) => `${count} ${count === 1 ? one : many}`;

function list(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} e ${parts[parts.length - 1]}`;
}

/** "37 negociações e 112 rendimentos de 8 fundos, de 03/2021 a 10/2025; 2 linhas ignoradas: ..." */
export function previewText(s: ImportSummary): string {
  const trades = s.counts.buy + s.counts.sell;
  const parts: string[] = [];
  const sides = [s.counts.buy ? n(s.counts.buy, PLURAL.buy) : '', s.counts.sell ? n(s.counts.sell, PLURAL.sell) : ''].filter(Boolean).join(', ');
  if (trades) parts.push(`${trades} ${trades === 1 ? 'negociação' : 'negociações'} (${sides})`);
  for (const k of ['income', 'amortization', 'split', 'reverse_split'] as const) if (s.counts[k]) parts.push(n(s.counts[k], PLURAL[k]));
  const what = parts.length
    ? `${list(parts)} de ${s.funds.length} ${s.funds.length === 1 ? 'fundo' : 'fundos'} (${s.funds.join(', ')}), ${s.first_date === s.last_date ? `em ${monthYear(s.first_date!)}` : `de ${monthYear(s.first_date!)} a ${monthYear(s.last_date!)}`}`
    : 'nenhum lançamento novo';
  const lines = [`Extrato de ${s.statement === 'negociacao' ? 'Negociação' : 'Movimentação'} da B3: ${what}`];
  if (s.already_in_ledger)
    lines.push(
      `${s.already_in_ledger} ${s.already_in_ledger === 1 ? 'lançamento já estava' : 'lançamentos já estavam'} na sua carteira e não ${s.already_in_ledger === 1 ? 'será repetido' : 'serão repetidos'}`,
    );
  if (s.ignored.length) {
    const shown = s.ignored.slice(0, 5).map((i) => `linha ${i.line} (${i.reason})`);
    const more = s.ignored.length > 5 ? ` e mais ${s.ignored.length - 5}` : '';
    lines.push(`${s.ignored.length} ${s.ignored.length === 1 ? 'linha ignorada' : 'linhas ignoradas'}: ${shown.join('; ')}${more}`);
  }
  return lines.join('; ') + '.';
}

/** The refusal of a file with unreadable rows, each by line and reason (nothing was written). */
export function errorsText(errors: RowIssue[]): string {
  const shown = errors.slice(0, 10).map((e) => `linha ${e.line}: ${e.reason}`);
  const more = errors.length > 10 ? `\n(e mais ${errors.length - 10} linhas com problema)` : '';
  return `Não importei o arquivo: ${errors.length === 1 ? 'uma linha tem problema' : `${errors.length} linhas têm problema`} e nada foi gravado. Corrija e envie de novo.\n${shown.join('\n')}${more}`;
}
