import { CotaError, QueryParams } from '@cota/contracts';
import { loadEntityCatalog } from '@cota/catalog';
import type { DataSource } from 'typeorm';
import { EntityQueryService, PgSqlRunner, SqlRunner, toJsonValue } from './entity-query.service';

const catalog = loadEntityCatalog();
const P = (over: Partial<QueryParams> = {}): QueryParams => ({
  ticker: null,
  tickers: [],
  agg: 'list',
  window: null,
  limit: null,
  order: null,
  order_by: null,
  filters: {},
  ...over,
});

/** In-memory runner: records what it was asked and returns canned rows (pg returns numerics as text). */
class FakeRunner implements SqlRunner {
  calls: Array<{ sql: string; values: unknown[]; timeoutMs: number }> = [];
  constructor(private readonly rows: Array<Record<string, unknown>> | Error) {}
  async run(sql: string, values: unknown[], timeoutMs: number) {
    this.calls.push({ sql, values, timeoutMs });
    if (this.rows instanceof Error) throw this.rows;
    return this.rows;
  }
}

describe('EntityQueryService', () => {
  it('shapes rows: numerics as numbers, as_of from the date column, sources from provenance, truncation', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({
      ticker: 'KNRI11',
      traded_until_date: `2025-0${5 - i}-30`,
      payment_date: null,
      dividend_amt: '1.00',
      source: i === 2 ? 'market16' : 'dashbord',
    }));
    const runner = new FakeRunner(rows);
    const svc = new EntityQueryService(catalog, runner, { statementTimeoutMs: 1234 });
    const r = await svc.query({ client_id: 'c', entity: 'fiis_dividendos', params: P({ ticker: 'KNRI11', limit: 2 }) });
    expect(runner.calls[0].timeoutMs).toBe(1234);
    expect(r.truncated).toBe(true);
    expect(r.row_count).toBe(2);
    expect(r.rows[0]).toEqual({ ticker: 'KNRI11', traded_until_date: '2025-05-30', payment_date: null, dividend_amt: 1, source: 'dashbord' });
    expect(r.as_of).toBe('2025-05-30');
    expect(r.sources).toEqual(['dashbord']);
    expect(r.params).toMatchObject({ ticker: 'KNRI11', limit: 2, order_by: 'traded_until_date', order: 'desc' });
  });

  it('a list cut at its limit counts what it matched, with the same filters; a list not cut is not counted', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ ticker: 'KNRI11', traded_until_date: `2025-0${5 - i}-30`, payment_date: null, dividend_amt: '1.00', source: 'dashbord' }));
    const runner = new (class extends FakeRunner {
      override async run(sql: string, values: unknown[], timeoutMs: number) {
        return sql.startsWith('SELECT count(*)') ? (this.calls.push({ sql, values, timeoutMs }), [{ n: 18 }]) : super.run(sql, values, timeoutMs);
      }
    })(rows);
    const svc = new EntityQueryService(catalog, runner, { statementTimeoutMs: 10 });
    const cut = await svc.query({ client_id: 'c', entity: 'fiis_dividendos', params: P({ ticker: 'KNRI11', limit: 2 }) });
    expect(cut.matched).toBe(18);
    const count = runner.calls[1];
    expect(count.sql).not.toContain('LIMIT');
    expect(count.values).toEqual(runner.calls[0].values.slice(0, count.values.length));
    const whole = await svc.query({ client_id: 'c', entity: 'fiis_dividendos', params: P({ ticker: 'KNRI11', limit: 5 }) });
    expect(whole.matched).toBeNull();
    expect(runner.calls).toHaveLength(3);
  });

  it("a question about the client's funds runs over the funds the authenticated client holds, or says it holds none", async () => {
    const runner = new (class extends FakeRunner {
      override async run(sql: string, values: unknown[], timeoutMs: number) {
        this.calls.push({ sql, values, timeoutMs });
        if (sql.includes('"client_fiis_positions"')) return values[0] === 'cliente-a' ? [{ ticker: 'HGLG11' }, { ticker: 'KNRI11' }] : [];
        return [{ ticker: 'HGLG11', fii_cnpj: '11.728.688/0001-47' }];
      }
    })([]);
    const svc = new EntityQueryService(catalog, runner, { statementTimeoutMs: 10 });
    const r = await svc.query({ client_id: 'cliente-a', entity: 'fiis_cadastro', params: P({ agg: 'latest', filters: { held: 'someone-else' } }) });
    // The client is the authenticated one, whatever the filter's value says.
    expect(runner.calls[0].values).toEqual(['cliente-a']);
    expect(runner.calls[1].values).toContainEqual(['HGLG11', 'KNRI11']);
    expect(r.params).toMatchObject({ ticker: null, tickers: ['HGLG11', 'KNRI11'], filters: {} });
    await expect(svc.query({ client_id: 'cliente-b', entity: 'fiis_cadastro', params: P({ agg: 'latest', filters: { held: 'client' } }) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Sua carteira não tem fundos no momento.',
    });
  });

  it('a statement timeout becomes TIMEOUT, other SQL failures INTERNAL without SQL text', async () => {
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const svc = new EntityQueryService(catalog, new FakeRunner(timeout), { statementTimeoutMs: 10 });
    await expect(svc.query({ client_id: 'c', entity: 'fiis_precos', params: P() })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const seen: string[] = [];
    const broken = new EntityQueryService(catalog, new FakeRunner(new Error('relation "fiis_precos" does not exist')), {
      statementTimeoutMs: 10,
      onSqlError: (e) => seen.push(e.message),
    });
    const err = await broken.query({ client_id: 'c', entity: 'fiis_precos', params: P() }).catch((e: CotaError) => e);
    expect(err).toMatchObject({ code: 'INTERNAL', message: 'Não foi possível consultar a base de dados agora.' });
    expect(seen).toHaveLength(1);
  });

  it('a database that dropped the connection is UNAVAILABLE (a passing outage), not an internal error', async () => {
    const dropped = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const seen: string[] = [];
    const svc = new EntityQueryService(catalog, new FakeRunner(dropped), { statementTimeoutMs: 10, onSqlError: (e) => seen.push(e.message) });
    await expect(svc.query({ client_id: 'c', entity: 'fiis_precos', params: P() })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(seen).toEqual([]);
  });

  it('the Postgres runner repeats a read-only statement once when the server dropped its connection', async () => {
    let attempts = 0;
    const queries: string[] = [];
    const ds = {
      createQueryRunner: () => ({
        connect: async () => undefined,
        release: async () => undefined,
        query: async (sql: string) => {
          queries.push(sql);
          if (sql.startsWith('BEGIN') && ++attempts === 1) throw new Error('Connection terminated unexpectedly');
          return sql === 'SELECT 1' ? [{ n: 1 }] : [];
        },
      }),
    } as unknown as DataSource;
    await expect(new PgSqlRunner(ds).run('SELECT 1', [], 100)).resolves.toEqual([{ n: 1 }]);
    expect(attempts).toBe(2);
    const failing = {
      createQueryRunner: () => ({
        connect: async () => undefined,
        release: async () => undefined,
        query: async () => {
          throw new Error('syntax error');
        },
      }),
    } as unknown as DataSource;
    await expect(new PgSqlRunner(failing).run('SELECT 1', [], 100)).rejects.toThrow('syntax error');
  });

  it('unknown entities are rejected in Portuguese', async () => {
    const svc = new EntityQueryService(catalog, new FakeRunner([]), { statementTimeoutMs: 10 });
    await expect(svc.query({ client_id: 'c', entity: 'usuarios', params: P() })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: "Não conheço a consulta 'usuarios'." });
  });

  it('JSON conversion by column type', () => {
    expect(toJsonValue('money', '12.50')).toBe(12.5);
    expect(toJsonValue('integer', '33787575')).toBe(33787575);
    expect(toJsonValue('boolean', true)).toBe(true);
    expect(toJsonValue('text', null)).toBeNull();
    expect(toJsonValue('percent', 'abc')).toBeNull();
  });
});
