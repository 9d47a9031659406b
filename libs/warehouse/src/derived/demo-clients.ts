import type { RawTable } from '@cota/ledger';

/**
 * Demo clients (clearly marked: is_demo = true, source = 'demo'). Their trades are invented, but at
 * real prices: each trade happens on the last session of its month at that month's real closing
 * price (paulo037 monthly closes), over funds with long daily history (market16) so their
 * performance can be computed. Funds with share splits in the period (ALZR11, HGBS11) are avoided.
 * The ingest writes them into each demo client's ledger as a B3 "Negociação" statement (marked demo).
 */
export interface DemoClient {
  client_id: string;
  display_name: string;
  email: string;
  trades: Array<{ month: string; ticker: string; side: 'buy' | 'sell'; quantity: number }>;
}

export const DEMO_CLIENTS: DemoClient[] = [
  {
    client_id: 'cliente-demo-1',
    display_name: 'Cliente Demo 1 (carteira de tijolo) [DEMO]',
    email: 'cliente-demo-1@exemplo.com.br',
    trades: [
      { month: '2022-01', ticker: 'HGLG11', side: 'buy', quantity: 100 },
      { month: '2022-01', ticker: 'KNRI11', side: 'buy', quantity: 120 },
      { month: '2022-01', ticker: 'XPML11', side: 'buy', quantity: 80 },
      { month: '2022-01', ticker: 'VISC11', side: 'buy', quantity: 80 },
      { month: '2022-06', ticker: 'HGLG11', side: 'buy', quantity: 20 },
    ],
  },
  {
    client_id: 'cliente-demo-2',
    display_name: 'Cliente Demo 2 (carteira de recebíveis) [DEMO]',
    email: 'cliente-demo-2@exemplo.com.br',
    trades: [
      { month: '2022-01', ticker: 'KNIP11', side: 'buy', quantity: 150 },
      { month: '2022-01', ticker: 'HGCR11', side: 'buy', quantity: 100 },
      { month: '2022-01', ticker: 'KNHY11', side: 'buy', quantity: 100 },
      { month: '2022-09', ticker: 'HGCR11', side: 'sell', quantity: 40 },
      { month: '2022-11', ticker: 'KNIP11', side: 'buy', quantity: 30 },
    ],
  },
  {
    client_id: 'cliente-demo-3',
    display_name: 'Cliente Demo 3 (carteira diversificada) [DEMO]',
    email: 'cliente-demo-3@exemplo.com.br',
    trades: [
      { month: '2022-02', ticker: 'BTLG11', side: 'buy', quantity: 60 },
      { month: '2022-02', ticker: 'HGRU11', side: 'buy', quantity: 50 },
      { month: '2022-02', ticker: 'XPIN11', side: 'buy', quantity: 70 },
      { month: '2022-08', ticker: 'XPIN11', side: 'sell', quantity: 70 },
      { month: '2022-12', ticker: 'BTAL11', side: 'buy', quantity: 40 },
    ],
  },
];

/** A demo trade priced at its real session: what the demo statement's row says. */
export interface DemoTradeRow {
  trade_date: string;
  ticker: string;
  side: 'buy' | 'sell';
  quantity: number;
  price: number;
}

/** The broker named on demo statements: says plainly that the rows are demonstration data. */
export const DEMO_INSTITUTION = 'CORRETORA DEMO (dados de demonstração)';

/**
 * A demo client's trades as B3's investor-area "Negociação" export lays them out (the header and
 * columns of the real file), so the demo ledger is read by the same statement parser as an upload.
 */
export function demoNegociacaoTable(trades: readonly DemoTradeRow[]): RawTable {
  const header = ['Data do Negócio', 'Tipo de Movimentação', 'Mercado', 'Prazo/Vencimento', 'Instituição', 'Código de Negociação', 'Quantidade', 'Preço', 'Valor'];
  const br = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  return {
    sheet: 'Negociação',
    rows: [
      { line: 1, cells: header },
      ...trades.map((t, i) => ({
        line: i + 2,
        cells: [
          br(t.trade_date),
          t.side === 'buy' ? 'Compra' : 'Venda',
          'Mercado à Vista',
          '-',
          DEMO_INSTITUTION,
          t.ticker,
          t.quantity,
          t.price,
          Math.round(t.quantity * t.price * 100) / 100,
        ],
      })),
    ],
  };
}
