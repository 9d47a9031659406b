import { formatDate, formatDecimal, formatMoney, formatPercent } from '@cota/text';
import { WarehouseQuery } from '../warehouse-query';

/** One position as the client sees it after an import or a trade: cost, market value and gain. */
export interface PositionLine {
  ticker: string;
  quantidade: number;
  preco_medio: number | null;
  custo: number | null;
  ultimo_preco: number | null;
  data_preco: string | null;
  valor_mercado: number | null;
  ganho: number | null;
  ganho_pct: number | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

/** The client's positions (derived from the ledger) at the last close. */
export async function positionLines(wh: WarehouseQuery, ctx: { client_id: string; request_id: string }): Promise<PositionLine[]> {
  const res = await wh.query('client_fiis_positions', { limit: 200 }, ctx);
  return res.rows
    .map((r) => ({
      ticker: String(r.ticker),
      quantidade: Number(r.quantity),
      preco_medio: num(r.avg_price),
      custo: num(r.invested_amt),
      ultimo_preco: num(r.last_price),
      data_preco: r.last_price_date ? String(r.last_price_date).slice(0, 10) : null,
      valor_mercado: num(r.market_value),
      ganho: num(r.gain_amt),
      ganho_pct: num(r.gain_pct),
    }))
    .sort((a, b) => a.ticker.localeCompare(b.ticker));
}

const cell = (v: number | null, f: (n: number) => string) => (v === null ? '—' : f(v));

/** A markdown table of the positions with cost and gain, and the totals. */
export function positionsTable(lines: readonly PositionLine[]): string {
  if (!lines.length) return 'Sua carteira está vazia.';
  const head = '| Fundo | Cotas | Preço médio | Custo | Valor de mercado | Ganho/perda |\n|---|---:|---:|---:|---:|---:|';
  const rows = lines.map(
    (l) =>
      `| ${l.ticker} | ${formatDecimal(l.quantidade, 0)} | ${cell(l.preco_medio, formatMoney)} | ${cell(l.custo, formatMoney)} | ${cell(l.valor_mercado, formatMoney)}${l.data_preco ? ` (${formatDate(l.data_preco)})` : ''} | ${cell(l.ganho, formatMoney)}${l.ganho_pct === null ? '' : ` (${formatPercent(l.ganho_pct)})`} |`,
  );
  const cost = lines.reduce((a, l) => a + (l.custo ?? 0), 0);
  const value = lines.reduce((a, l) => a + (l.valor_mercado ?? 0), 0);
  const gain = value - cost;
  const total = `| **Total** | | | ${formatMoney(cost.toFixed(2))} | ${formatMoney(value.toFixed(2))} | ${formatMoney(gain.toFixed(2))}${cost > 0 ? ` (${formatPercent(((value / cost - 1) * 100).toFixed(2))})` : ''} |`;
  return [head, ...rows, total].join('\n');
}
