import { QueryParams } from '@cota/contracts';
import { loadEntityCatalog } from '@cota/catalog';
import { buildEntityQuery } from './query/query-builder';
import { computeRisk } from './derived/risk';

/** Benchmarks for cli/bench.ts: SQL building (per request) and the risk computation (per ingest). */
export function warehouseBenchmarks(): Array<{ name: string; run: () => Promise<void> | void }> {
  const catalog = loadEntityCatalog();
  const params: QueryParams = { ticker: null, tickers: ['HGLG11', 'KNRI11', 'XPML11'], agg: 'list', window: 'months:12', limit: 10, order: null, order_by: null, filters: {} };
  const prices: Array<[string, number]> = [];
  const cdi: Array<[string, number]> = [];
  const ifix = new Map<string, number>();
  for (let i = 0; i < 300; i++) {
    const d = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
    prices.push([d, 100 + Math.sin(i / 7) * 3 + i * 0.02]);
    cdi.push([d, 11.65]);
    ifix.set(d, 3000 + Math.cos(i / 9) * 40);
  }
  return [
    { name: 'warehouse.buildEntityQuery (3 tickers, months window)', run: () => void buildEntityQuery(catalog.fiis_dividendos, params, 'c1') },
    { name: 'warehouse.buildEntityQuery (client entity)', run: () => void buildEntityQuery(catalog.client_fiis_positions, { ...params, tickers: [] }, 'c1') },
    { name: 'warehouse.computeRisk (252 sessions)', run: () => void computeRisk(prices, cdi, ifix) },
  ];
}
