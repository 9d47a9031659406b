import { Column, QueryResult, Row } from '@cota/contracts';
import { ReportSection } from '../report';
import { dateColumn, findColumn, maxDate, newestFirst, NUMERIC_TYPES } from './columns';

const SEGMENT = [/^segment/, /^segmento/, /^sector$/, /^setor/, /segment/, /sector/];

/** Portfolio columns worth a glance, in this order; others are kept out of the briefing table. */
const PORTFOLIO_PREFERRED = [
  [/^ticker$/],
  [/quantity|quantidade|qty|^cotas$|shares/],
  [/avg_?price|preco_?medio|average_cost|cost_basis|custo_medio/],
  [/market_value|valor_?mercado|position_value|current_value|valor_atual|^value$|valor_posicao/],
  [/weight|peso|alloc|participacao/],
  [/gain|ganho|unrealized|result|rentab|return/],
  [/dy|yield/],
];

export interface PortfolioView {
  section: ReportSection;
  tickers: string[];
  /** Segment label per held ticker (from the portfolio, or the fund registry). */
  segments: Map<string, string>;
}

export function segmentsFrom(result: QueryResult | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!result) return out;
  const seg = findColumn(result, SEGMENT, ['text']);
  if (!seg) return out;
  for (const r of result.rows) {
    if (typeof r.ticker === 'string' && typeof r[seg.name] === 'string' && r[seg.name]) out.set(r.ticker, String(r[seg.name]));
  }
  return out;
}

const SEGMENT_COLUMN: Column = { name: 'segmento', type: 'text', label: 'Segmento' };

/** The client's positions (client_fiis_enriched_portfolio), one row per fund, with its segment. */
export function buildPortfolioSection(result: QueryResult | null, registry: QueryResult | null, failure: string | null): PortfolioView {
  if (!result) {
    return {
      section: { id: 'carteira', title: 'Sua carteira', columns: [], rows: [], as_of: null, note: `Não foi possível ler a sua carteira agora (${failure ?? 'sem resposta'}).` },
      tickers: [],
      segments: new Map(),
    };
  }
  const segments = segmentsFrom(result);
  for (const [t, s] of segmentsFrom(registry)) if (!segments.has(t)) segments.set(t, s);

  const chosen: Column[] = [];
  for (const patterns of PORTFOLIO_PREFERRED) {
    const c = findColumn(result, patterns);
    if (c && !chosen.includes(c) && !SEGMENT.some((p) => p.test(c.name))) chosen.push(c);
  }
  // Too little recognised: fall back to the entity's own first columns (its catalog order).
  if (chosen.length < 3) {
    for (const c of result.columns) if (chosen.length < 6 && !chosen.includes(c) && !SEGMENT.some((p) => p.test(c.name))) chosen.push(c);
  }
  const columns = [chosen[0], SEGMENT_COLUMN, ...chosen.slice(1)].filter(Boolean) as Column[];
  const rows: Row[] = result.rows.map((r) => {
    const row: Row = {};
    for (const c of chosen) row[c.name] = r[c.name];
    row.ticker = r.ticker;
    row.segmento = typeof r.ticker === 'string' ? (segments.get(r.ticker) ?? null) : null;
    return row;
  });
  const tickers = [...new Set(result.rows.map((r) => r.ticker).filter((t): t is string => typeof t === 'string'))];
  return {
    section: {
      id: 'carteira',
      title: 'Sua carteira',
      columns,
      rows,
      as_of: result.as_of ?? maxDate(result.rows, dateColumn(result)?.name),
      note: rows.length ? null : 'Você não tem posições em FIIs registradas.',
    },
    tickers,
    segments,
  };
}

/**
 * Dividends of the held funds (fiis_dividendos): the last payment of each fund and any payment
 * still to come (after `today`, São Paulo date YYYY-MM-DD).
 */
export function buildDividendsSection(results: QueryResult[], segments: Map<string, string>, today: string, note: string | null): ReportSection {
  const rows: Row[] = [];
  let asOf: string | null = null;
  for (const result of results) {
    const pay = findColumn(result, [/payment|pagamento|paid/], ['date', 'datetime']);
    const record = findColumn(result, [/record|data_?com|traded|base|ex_?date/], ['date', 'datetime']);
    const amount = findColumn(result, [/dividend|amount|amt|valor|rendimento|provento/], NUMERIC_TYPES);
    if (!amount) continue;
    const seen = new Set<string>();
    for (const r of newestFirst(result)) {
      const ticker = String(r.ticker ?? '');
      const payDate = pay ? String(r[pay.name] ?? '').slice(0, 10) : '';
      const recordDate = record ? String(r[record.name] ?? '').slice(0, 10) : '';
      // Without a payment date only a future record date says the payment is still to come.
      const upcoming = payDate ? payDate > today : recordDate > today;
      if (!upcoming && seen.has(ticker)) continue;
      if (!upcoming) seen.add(ticker);
      rows.push({
        ticker,
        segmento: segments.get(ticker) ?? null,
        data_com: recordDate || null,
        data_pagamento: payDate || null,
        valor_por_cota: r[amount.name],
        situacao: upcoming ? 'a pagar' : payDate ? 'pago' : 'data de pagamento não informada',
      });
    }
    asOf = [asOf, maxDate(rows, 'data_pagamento'), maxDate(rows, 'data_com')].filter(Boolean).sort().at(-1) ?? null;
  }
  const when = (r: Row) => String(r.data_pagamento ?? r.data_com ?? '');
  rows.sort((a, b) => when(b).localeCompare(when(a)) || String(a.ticker).localeCompare(String(b.ticker)));
  const upcoming = rows.filter((r) => r.situacao === 'a pagar').length;
  return {
    id: 'proventos',
    title: 'Proventos dos seus fundos',
    columns: [
      { name: 'ticker', type: 'text', label: 'Fundo' },
      { name: 'segmento', type: 'text', label: 'Segmento' },
      { name: 'valor_por_cota', type: 'money', label: 'Valor por cota' },
      { name: 'data_com', type: 'date', label: 'Data com' },
      { name: 'data_pagamento', type: 'date', label: 'Pagamento' },
      { name: 'situacao', type: 'text', label: 'Situação' },
    ],
    rows,
    as_of: asOf,
    note:
      note ??
      (rows.length === 0
        ? 'Nenhum provento registrado para os seus fundos.'
        : upcoming === 0
          ? 'Nenhum pagamento futuro anunciado nos dados disponíveis; abaixo, o último provento de cada fundo.'
          : null),
  };
}

/** Recent news of the held funds (fiis_noticias), newest first; headlines keep their source and link. */
export function buildNewsSection(results: QueryResult[], segments: Map<string, string>, max: number, note: string | null): ReportSection {
  const rows: Row[] = [];
  for (const result of results) {
    const title = findColumn(result, [/^title$/, /titulo/, /headline/, /title/]);
    if (!title) continue;
    const source = findColumn(result, [/^source$/, /fonte/, /publisher/, /source/]);
    const url = findColumn(result, [/^url$/, /link/, /url/]);
    const date = findColumn(result, [/published|publicad/, /date|data/], ['date', 'datetime']);
    for (const r of newestFirst(result)) {
      const ticker = String(r.ticker ?? '');
      rows.push({
        ticker,
        segmento: segments.get(ticker) ?? null,
        titulo: r[title.name],
        fonte: source ? r[source.name] : null,
        url: url ? r[url.name] : null,
        publicada_em: date ? String(r[date.name] ?? '').slice(0, 10) || null : null,
      });
    }
  }
  rows.sort((a, b) => String(b.publicada_em ?? '').localeCompare(String(a.publicada_em ?? '')));
  const shown = rows.slice(0, max);
  return {
    id: 'noticias',
    title: 'Notícias dos seus fundos',
    columns: [
      { name: 'publicada_em', type: 'date', label: 'Data' },
      { name: 'ticker', type: 'text', label: 'Fundo' },
      { name: 'titulo', type: 'text', label: 'Título' },
      { name: 'fonte', type: 'text', label: 'Fonte' },
      { name: 'url', type: 'url', label: 'Link' },
    ],
    rows: shown,
    as_of: maxDate(shown, 'publicada_em'),
    note: note ?? (shown.length ? null : 'Nenhuma notícia recente sobre os seus fundos.'),
  };
}
