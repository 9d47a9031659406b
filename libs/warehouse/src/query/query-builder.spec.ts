import fc from 'fast-check';
import { CotaError, QueryParams, queryParams } from '@cota/contracts';
import { loadEntityCatalog } from '@cota/catalog';
import { buildEntityQuery } from './query-builder';

const catalog = loadEntityCatalog();
const P = (over: Partial<QueryParams> = {}): QueryParams => queryParams(over);

describe('buildEntityQuery', () => {
  it('one ticker: parameterised equality, newest first, default limit + 1 to detect truncation', () => {
    const q = buildEntityQuery(catalog.fiis_dividendos, P({ ticker: 'KNRI11' }), 'c1');
    expect(q.sql).toContain('"ticker" = $1');
    expect(q.sql).toContain('ORDER BY b."traded_until_date" DESC NULLS LAST');
    expect(q.values).toEqual(['KNRI11', 13]);
    expect(q.cap).toBe(12);
    expect(q.params).toMatchObject({ ticker: 'KNRI11', tickers: ['KNRI11'], order_by: 'traded_until_date', order: 'desc', limit: 12 });
  });

  it('several tickers: ANY($n), deduplicated, grouped per ticker with a per-ticker limit', () => {
    const q = buildEntityQuery(catalog.fiis_dividendos, P({ ticker: 'HGLG11', tickers: ['HGLG11', 'KNRI11'], limit: 3 }), 'c1');
    expect(q.sql).toContain('"ticker" = ANY($1::text[])');
    expect(q.values[0]).toEqual(['HGLG11', 'KNRI11']);
    expect(q.sql).toMatch(/PARTITION BY "ticker" ORDER BY "traded_until_date" DESC/);
    expect(q.sql).toMatch(/__pos <= \$2::int ORDER BY r\."ticker" ASC/);
    expect(q.params.ticker).toBeNull();
    expect(q.params.tickers).toEqual(['HGLG11', 'KNRI11']);
  });

  it('no ticker on a fund entity lists the whole table (rankings "top 10 por DY")', () => {
    const q = buildEntityQuery(catalog.fiis_rankings, P({ order_by: 'rank_dy_12m', order: 'asc', limit: 10 }), 'c1');
    expect(q.sql).not.toContain('WHERE "ticker"');
    expect(q.sql).toContain('ORDER BY b."rank_dy_12m" ASC NULLS LAST');
    // The DY ranked by rank_dy_12m keeps its plausible range (0% < DY < 40%), parameterised.
    expect(q.values).toEqual([0, 40, 11]);
  });

  it('a DY ranking, by its rank column or by default, counts the implausible yields it leaves out, to say so', () => {
    for (const params of [P({ order_by: 'rank_dy_12m', limit: 10 }), P({ limit: 10 })]) {
      const q = buildEntityQuery(catalog.fiis_rankings, params, 'c1');
      expect(q.sql).toContain('"dy_12m_pct" > $1::numeric AND "dy_12m_pct" < $2::numeric');
      expect(q.leftOut?.column).toBe('DY 12 meses (%)');
      expect(q.leftOut?.sql).toContain('NOT ("dy_12m_pct" > $1::numeric AND "dy_12m_pct" < $2::numeric)');
    }
    // One fund asked by name shows its own figure, whatever it is.
    expect(buildEntityQuery(catalog.fiis_rankings, P({ ticker: 'LFTT11' }), 'c1').leftOut).toBeUndefined();
  });

  it('rank columns sort ascending by default (position 1 first)', () => {
    const q = buildEntityQuery(catalog.fiis_rankings, P({ order_by: 'rank_sharpe' }), 'c1');
    expect(q.sql).toContain('"rank_sharpe" ASC');
  });

  it("numeric conditions on the entity's numeric columns travel as parameters; any other column is refused", () => {
    const q = buildEntityQuery(
      catalog.fiis_financials_snapshot,
      P({
        conditions: [
          { column: 'market_cap_value', op: 'gt', value: 1e9 },
          { column: 'price_book_ratio', op: 'lt', value: 1 },
        ],
      }),
      'c1',
    );
    expect(q.sql).toMatch(/"market_cap_value" > \$\d+::numeric/);
    expect(q.sql).toMatch(/"price_book_ratio" < \$\d+::numeric/);
    expect(q.values).toEqual(expect.arrayContaining([1e9, 1]));
    for (const column of ['ticker', 'no_such_column']) {
      expect(() => buildEntityQuery(catalog.fiis_financials_snapshot, P({ conditions: [{ column, op: 'gt', value: 1 }] }), 'c1')).toThrow(CotaError);
    }
  });

  it('rejects an ordering the entity does not allow, in Portuguese', () => {
    expect(() => buildEntityQuery(catalog.fiis_rankings, P({ order_by: 'fii_cnpj' }), 'c1')).toThrow(CotaError);
    expect(() => buildEntityQuery(catalog.fiis_rankings, P({ order_by: 'fii_cnpj' }), 'c1')).toThrow(/Não é possível ordenar/);
  });

  it('rejects unknown filters and values outside the declared list', () => {
    expect(() => buildEntityQuery(catalog.fiis_dividendos, P({ filters: { indicator: 'SELIC' } }), 'c1')).toThrow(/Filtro 'indicator' não é aceito/);
    expect(() => buildEntityQuery(catalog.history_market_indicators, P({ filters: { indicator: 'BITCOIN' } }), 'c1')).toThrow(/não é aceito/);
    try {
      buildEntityQuery(catalog.history_b3_indexes, P({ filters: { index: 'SP500' } }), 'c1');
      fail('expected a rejection');
    } catch (e) {
      expect(CotaError.is(e, 'BAD_REQUEST')).toBe(true);
    }
  });

  it('latest: newest row per series (indicator), value filters compare codes without punctuation', () => {
    const q = buildEntityQuery(catalog.history_market_indicators, P({ agg: 'latest', filters: { indicator: 'igpm' } }), 'c1');
    expect(q.sql).toContain(`regexp_replace(upper("indicator_name"), '[^A-Z0-9]', '', 'g') = $1`);
    expect(q.values[0]).toBe('IGPM');
    expect(q.sql).toContain('PARTITION BY "indicator_name"');
    expect(q.sql).toContain('WHERE __rn = 1');
  });

  it('date filter: newest row on or before the date', () => {
    const q = buildEntityQuery(catalog.history_b3_indexes, P({ filters: { index: 'IFIX', date: '2024-03-15' } }), 'c1');
    expect(q.sql).toContain('"ifix_points_count" IS NOT NULL');
    expect(q.sql).toContain('"index_date" <= $1::date');
    expect(q.sql).toContain('WHERE __rn = 1');
    expect(() => buildEntityQuery(catalog.history_b3_indexes, P({ filters: { date: '2024-02-30' } }), 'c1')).toThrow(/Data inválida/);
  });

  it('windows: rows, months, days and calendar year', () => {
    expect(buildEntityQuery(catalog.fiis_precos, P({ ticker: 'HGLG11', window: 'rows:5' }), 'c').sql).toContain('__rn <= $2::int');
    expect(buildEntityQuery(catalog.fiis_precos, P({ ticker: 'HGLG11', window: 'months:6' }), 'c').sql).toContain('> __max - make_interval(months => $2::int)');
    expect(buildEntityQuery(catalog.fiis_precos, P({ ticker: 'HGLG11', window: 'days:10' }), 'c').sql).toContain('make_interval(days => $2::int)');
    const y = buildEntityQuery(catalog.fiis_dividendos, P({ ticker: 'HGLG11', window: 'year:2023' }), 'c');
    expect(y.sql).toContain('"traded_until_date" >= make_date($2::int, 1, 1)');
    expect(y.values.slice(1, 3)).toEqual([2023, 2024]);
  });

  it('windows an entity does not declare are dropped from the echoed params', () => {
    const q = buildEntityQuery(catalog.fiis_cadastro, P({ ticker: 'HGLG11', window: 'months:12' }), 'c');
    expect(q.params.window).toBeNull();
    expect(q.sql).not.toContain('__max');
  });

  it('avg/sum/count group per ticker over aggregatable columns only', () => {
    const q = buildEntityQuery(catalog.fiis_dividendos, P({ tickers: ['HGLG11', 'KNRI11'], agg: 'sum', window: 'months:12' }), 'c');
    expect(q.sql).toContain('SUM(b."dividend_amt") AS "dividend_amt"');
    expect(q.sql).toContain('GROUP BY b."ticker"');
    expect(q.columns.map((c) => c.name)).toEqual(['ticker', 'period_start', 'period_end', 'row_count', 'dividend_amt']);
    expect(() => buildEntityQuery(catalog.fiis_cadastro, P({ agg: 'avg' }), 'c')).toThrow(/não aceita a agregação/);
  });

  it('client entities are always filtered by the authenticated client; only positions also by a fund the question names', () => {
    const q = buildEntityQuery(catalog.client_fiis_enriched_portfolio, P({ ticker: 'HGLG11' }), 'cliente-demo-1');
    expect(q.sql).toContain('"client_id" = $1');
    expect(q.values[0]).toBe('cliente-demo-1');
    expect(q.sql).not.toContain('"ticker" =');
    expect(q.params.ticker).toBeNull();
    // "quantas cotas de KNIP11 eu tenho?": that position, still of the authenticated client only.
    const one = buildEntityQuery(catalog.client_fiis_positions, P({ ticker: 'KNIP11' }), 'cliente-demo-2');
    expect(one.sql).toContain('"client_id" = $1 AND "ticker" = $2');
    expect(one.values.slice(0, 2)).toEqual(['cliente-demo-2', 'KNIP11']);
    expect(() => buildEntityQuery(catalog.client_fiis_positions, P(), '')).toThrow(CotaError);
  });

  it('limits are capped by the entity max_rows', () => {
    const q = buildEntityQuery(catalog.client_fiis_performance_vs_benchmark_summary, P({ limit: 1000, limit_asked: 1000 }), 'c');
    expect(q.params.limit).toBe(50);
    // What the question asked stays beside what the query used, for the answer to say it.
    expect(q.params.limit_asked).toBe(1000);
  });
});

/** Strings an attacker would try: quotes, statement separators, comments, unicode, NULs, huge numbers. */
const hostile = fc.oneof(
  fc.constantFrom(
    "'; DROP TABLE wh_funds; --",
    '" OR 1=1 --',
    '/* comment */',
    "cliente-demo-2' OR client_id <> '",
    '\u0000',
    'ＳＥＬＩＣ',
    '💥; SELECT pg_sleep(10)',
    '9'.repeat(120),
    '$1',
    '1e308',
  ),
  fc.string({ maxLength: 128 }),
  fc.string({ unit: 'grapheme', maxLength: 64 }),
);

describe('SQL text never depends on parameter values (property)', () => {
  const shapes: Array<{ entity: string; params: (v: string) => QueryParams }> = [
    { entity: 'history_market_indicators', params: (v) => P({ agg: 'latest', filters: { indicator: v, date: '2024-01-02' } }) },
    { entity: 'fiis_rankings', params: (v) => P({ filters: { sector: v }, order_by: 'rank_dy_12m', limit: 10 }) },
    { entity: 'client_fiis_performance_vs_benchmark', params: (v) => P({ filters: { benchmark: v } }) },
  ];

  it('filter values only ever travel as parameters (or are rejected)', () => {
    for (const shape of shapes) {
      const reference = (() => {
        try {
          return buildEntityQuery(
            catalog[shape.entity],
            shape.params(shape.entity === 'fiis_rankings' ? 'Logística' : shape.entity === 'history_market_indicators' ? 'SELIC' : 'IFIX'),
            'c1',
          ).sql;
        } catch {
          return null;
        }
      })();
      expect(reference).not.toBeNull();
      fc.assert(
        fc.property(hostile, (v) => {
          let sql: string;
          try {
            sql = buildEntityQuery(catalog[shape.entity], shape.params(v), 'c1').sql;
          } catch (e) {
            return CotaError.is(e, 'BAD_REQUEST');
          }
          return sql === reference;
        }),
        { numRuns: 300 },
      );
    }
  });

  it('the client id never reaches the SQL text and is always the first parameter', () => {
    const clientEntities = Object.keys(catalog).filter((e) => catalog[e].scope === 'client');
    const reference = new Map(clientEntities.map((e) => [e, buildEntityQuery(catalog[e], P({ tickers: ['HGLG11'] }), 'cliente-demo-1').sql]));
    fc.assert(
      fc.property(
        hostile.filter((s) => s.length > 0),
        fc.constantFrom(...clientEntities),
        (clientId, entity) => {
          const q = buildEntityQuery(catalog[entity], P({ tickers: ['HGLG11'] }), clientId);
          return q.values[0] === clientId && q.sql.includes('"client_id" = $1') && q.sql === reference.get(entity);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('huge limits, windows and tickers never change the text', () => {
    const ref = buildEntityQuery(catalog.fiis_precos, P({ tickers: ['HGLG11', 'KNRI11'], window: 'rows:1', limit: 1 }), 'c').sql;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 9999 }),
        fc.uniqueArray(fc.stringMatching(/^[A-Z]{4}1[1-9]$/), { minLength: 2, maxLength: 20 }),
        (limit, n, tickers) => buildEntityQuery(catalog.fiis_precos, P({ tickers, window: `rows:${n}`, limit }), 'c').sql === ref,
      ),
      { numRuns: 200 },
    );
  });
});
