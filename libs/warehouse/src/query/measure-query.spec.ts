import { loadMeasureCatalog } from '@cota/catalog';
import type { StructuredQuestion } from '@cota/contracts';
import { buildMeasureSql, MeasureQueryService } from './measure-query';
import type { SqlRunner } from './entity-query.service';

const catalog = loadMeasureCatalog();

/** Records every statement and answers from a tiny in-memory series. */
class FakeRunner implements SqlRunner {
  readonly calls: Array<{ sql: string; values: unknown[] }> = [];
  constructor(private readonly stats: Record<string, unknown>) {}
  async run(sql: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
    this.calls.push({ sql, values });
    if (sql.includes('first_date')) return [{ first_date: '2010-12-30', last_date: '2025-12-23' }];
    if (sql.includes('AS compounded')) return [this.stats];
    return [];
  }
}

const q = (over: Partial<StructuredQuestion>): StructuredQuestion => ({
  subjects: [{ kind: 'index', id: 'IFIX' }],
  measure: 'index_points',
  agg: 'variation',
  also: [],
  period: { kind: 'range', from: '2024-01-01', to: '2024-12-31', grain: 'year' },
  group_by: null,
  compare: null,
  condition: null,
  ...over,
});

describe('measure SQL from the catalog', () => {
  it('writes only catalog identifiers; subjects, dates and clients travel as parameters', () => {
    for (const m of Object.values(catalog.measures)) {
      const sql = buildMeasureSql(m, 'month');
      for (const text of [sql.coverage, sql.stats, sql.rows]) {
        expect(text).not.toMatch(/IFIX|HGLG11|cliente|2024-/);
        expect(text).toContain(`"${m.table}"`);
      }
      // Client measures always filter by the client parameter, whatever the question says.
      if (m.client_column) expect(sql.stats).toContain(`"${m.client_column}" = $4`);
    }
  });

  it('compounds monthly rates and annual rates per business day, and nothing else', () => {
    expect(buildMeasureSql(catalog.measures.monthly_rate, null).stats).toMatch(/exp\(sum\(ln\(1 \+ v \/ 100\)\)\)/);
    expect(buildMeasureSql(catalog.measures.annual_rate, null).stats).toMatch(/\/ 252/);
    expect(buildMeasureSql(catalog.measures.index_points, null).stats).toMatch(/NULL::numeric AS compounded/);
  });
});

describe('MeasureQueryService', () => {
  it('answers a variation from the close before the period to its last close', async () => {
    const runner = new FakeRunner({ n: 251, last_d: '2024-12-30', last_v: '3116.28', base_d: '2023-12-28', base_v: '3311.43', first_d: '2024-01-02', first_v: '3300' });
    const res = await new MeasureQueryService(catalog, runner).compute(q({}), 'cliente-demo-1');
    expect(res.values[0]).toMatchObject({ value: -5.893224, start: { date: '2023-12-28', value: 3311.43 }, end: { date: '2024-12-30', value: 3116.28 }, count: 251 });
    expect(res.value_unit).toBe('pct');
    expect(runner.calls.find((c) => c.sql.includes('AS compounded'))?.values).toEqual(['IFIX', '2024-01-01', '2024-12-31']);
  });

  it("counts the months a level fell (rose) by each month's last value against the one before, the first against the close before the period", async () => {
    const months = [
      { d: '2024-01-31', v: '3300' }, // below 3311.43 (the close before): a fall
      { d: '2024-02-29', v: '3360' },
      { d: '2024-03-28', v: '3350' },
      { d: '2024-04-30', v: '3350' }, // unchanged: neither
    ];
    const runner = new (class extends FakeRunner {
      override async run(sql: string, values: unknown[]) {
        return sql.includes('DISTINCT ON') ? (this.calls.push({ sql, values }), months) : super.run(sql, values);
      }
    })({ n: 80, last_d: '2024-04-30', last_v: '3350', base_d: '2023-12-28', base_v: '3311.43', first_d: '2024-01-02', first_v: '3300' });
    const falls = await new MeasureQueryService(catalog, runner).compute(q({ agg: 'falls', group_by: 'month' }), 'cliente-demo-1');
    expect(falls.values[0]).toMatchObject({ value: 2, date: '2024-04-30' });
    const rises = await new MeasureQueryService(catalog, runner).compute(q({ agg: 'rises', group_by: 'month' }), 'cliente-demo-1');
    expect(rises.values[0].value).toBe(1);
  });

  it('never starts a traded return from a close published only adjusted (XPML11 in 2025)', async () => {
    // market16 prices_daily.csv XPML11 30/12/2024: adjusted 89,23 only; dashbord cotacoes.csv 2025: traded closes from 09/06 (R$ 102,18) to 25/06 (R$ 102,61).
    const runner = new FakeRunner({
      n: 12,
      base_d: '2024-12-30',
      base_v: '89.23',
      base_a: '89.23',
      base_is_adj: true,
      first_d: '2025-06-09',
      first_v: '102.18',
      tfirst_d: '2025-06-09',
      tfirst_v: '102.18',
      last_d: '2025-06-25',
      last_v: '102.61',
      last_a: null,
      last_is_adj: false,
    });
    const res = await new MeasureQueryService(catalog, runner).compute(
      q({ subjects: [{ kind: 'fund', id: 'XPML11' }], measure: 'price', period: { kind: 'range', from: '2025-01-01', to: '2025-12-31', grain: 'year' } }),
      'c',
    );
    expect(res.values[0]).toMatchObject({ start: { date: '2025-06-09', value: 102.18 }, end: { date: '2025-06-25', value: 102.61 }, value: 0.420826 });
  });

  it("from a day named, the traded return starts at that day's own traded close (ABCP11, 28/12/2023 to 30/12/2024)", async () => {
    // market16 prices_daily.csv ABCP11 28/12/2023: traded 69,81, adjusted 65,16; 30/12/2024: 75,02 both.
    const runner = new FakeRunner({
      n: 250,
      base_d: '2023-12-27',
      base_v: '69.54',
      base_a: '64.91',
      first_d: '2023-12-28',
      first_v: '69.81',
      first_a: '65.16',
      first_is_adj: false,
      last_d: '2024-12-30',
      last_v: '75.02',
      last_a: '75.02',
      last_is_adj: false,
    });
    const res = await new MeasureQueryService(catalog, runner).compute(
      q({ subjects: [{ kind: 'fund', id: 'ABCP11' }], measure: 'price', period: { kind: 'range', from: '2023-12-28', to: '2024-12-30', grain: 'days' } }),
      'c',
    );
    expect(res.values[0]).toMatchObject({ start: { date: '2023-12-28', value: 65.16 }, traded: { value: 7.463114, start: { date: '2023-12-28', value: 69.81 } } });
  });

  it('says there is no value, with the dates around it, when the period is empty', async () => {
    const runner = new FakeRunner({ n: 0, base_d: '2022-04-29', after_d: '2022-09-01' });
    const res = await new MeasureQueryService(catalog, runner).compute(q({ agg: 'value' }), 'c');
    expect(res.values[0]).toMatchObject({ value: null, nearest: { before: '2022-04-29', after: '2022-09-01' } });
  });

  it('scopes client measures to the authenticated client', async () => {
    const runner = new FakeRunner({ n: 12, total: '1584', last_d: '2024-12-30' });
    await new MeasureQueryService(catalog, runner).compute(q({ subjects: [{ kind: 'fund', id: 'HGLG11' }], measure: 'received', agg: 'total' }), 'cliente-demo-1');
    for (const call of runner.calls) expect(call.values).toContain('cliente-demo-1');
  });

  it('refuses a measure asked of a subject it does not serve', async () => {
    await expect(new MeasureQueryService(catalog, new FakeRunner({})).compute(q({ measure: 'dividend' }), 'c')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it("reads each fund's close on or before a date from the catalog's columns, traded or adjusted", async () => {
    const runner = new FakeRunner({});
    const service = new MeasureQueryService(catalog, runner);
    await service.valuesOnOrBefore('price', ['HGLG11', 'KNRI11'], '2024-12-31');
    await service.valuesOnOrBefore('price', ['HGLG11'], '2024-12-31', 'adjusted');
    const [traded, adjusted] = runner.calls;
    expect(traded.sql).toContain('"close_price"');
    expect(traded.sql).not.toContain('"adj_close_price"');
    expect(adjusted.sql).toContain('"adj_close_price"');
    expect(traded.sql).not.toMatch(/HGLG11|2024-/);
    expect(traded.values).toEqual([['HGLG11', 'KNRI11'], '2024-12-31']);
    await expect(service.valuesOnOrBefore('index_points', ['IFIX'], '2024-12-31', 'adjusted')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(service.valuesOnOrBefore('received', ['HGLG11'], '2024-12-31')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it("reads the client's income by payment date, scoped to the client", async () => {
    const runner = new FakeRunner({});
    await new MeasureQueryService(catalog, runner).clientFlows('received', 'cliente-demo-1', '2023-12-31', '2024-12-31');
    const [call] = runner.calls;
    expect(call.sql).toContain('COALESCE("payment_date", "received_on")');
    expect(call.sql).toContain('"client_id" = $1');
    expect(call.values).toEqual(['cliente-demo-1', '2023-12-31', '2024-12-31']);
  });
});
