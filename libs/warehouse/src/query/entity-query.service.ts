import type { DataSource } from 'typeorm';
import { ConstantBackoff, handleWhen, retry } from 'cockatiel';
import { isConnectionLost } from '@cota/messaging';
import { sqlFailure } from './sql-failure';
import { Column, CotaError, QueryParams, QueryResult } from '@cota/contracts';
import { EntityCatalog, EntityDef } from '@cota/catalog';
import { buildEntityQuery, heldFundsQuery } from './query-builder';

/** Runs one read-only statement; the only I/O of the query service (fakes in unit tests). */
export interface SqlRunner {
  run(sql: string, values: unknown[], timeoutMs: number): Promise<Array<Record<string, unknown>>>;
}

/** A read-only statement is safe to repeat: a connection the server dropped (restart, terminated backend) gets one more try on a fresh one. */
const ONCE_MORE_ON_A_DROPPED_CONNECTION = retry(handleWhen(isConnectionLost), { maxAttempts: 1, backoff: new ConstantBackoff(50) });

/** Postgres (real or PGlite) runner: a read-only transaction with its own statement timeout. */
export class PgSqlRunner implements SqlRunner {
  constructor(private readonly ds: DataSource) {}

  /**
   * A read-only transaction under its own statement timeout, in three round trips: BEGIN READ ONLY
   * and SET LOCAL travel in one simple-protocol message (a socket round trip was the executor's
   * largest CPU cost). Works on real Postgres and on PGlite.
   */
  async run(sql: string, values: unknown[], timeoutMs: number): Promise<Array<Record<string, unknown>>> {
    return ONCE_MORE_ON_A_DROPPED_CONNECTION.execute(() => this.runOnce(sql, values, timeoutMs));
  }

  private async runOnce(sql: string, values: unknown[], timeoutMs: number): Promise<Array<Record<string, unknown>>> {
    // An integer we compute, never request input: safe to inline (SET takes no parameters).
    const timeout = Math.max(1, Math.floor(timeoutMs));
    const q = this.ds.createQueryRunner();
    await q.connect();
    let open = false;
    try {
      await q.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${timeout}`);
      open = true;
      const rows = (await q.query(sql, values)) as Array<Record<string, unknown>>;
      await q.query('COMMIT');
      open = false;
      return rows;
    } catch (e) {
      if (open) await q.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      await q.release();
    }
  }
}

export interface FundRef {
  ticker: string;
  name: string | null;
  cnpj: string | null;
}

const NUMERIC = new Set<Column['type']>(['integer', 'number', 'money', 'percent', 'ratio']);

/** JSON-safe values: numerics as JS numbers, dates already ISO text from SQL, booleans as booleans. */
export function toJsonValue(type: Column['type'], v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (NUMERIC.has(type)) {
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : null;
  }
  if (type === 'boolean') return typeof v === 'boolean' ? v : v === 't' || v === 'true';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v);
}

/**
 * The executor's domain service: validates a request against the catalog, runs the SQL the
 * builder made, and shapes the reply (columns, rows, as_of, sources, effective params).
 */
export class EntityQueryService {
  constructor(
    private readonly catalog: EntityCatalog,
    private readonly runner: SqlRunner,
    private readonly opts: { statementTimeoutMs: number; onSqlError?: (e: Error, entity: string) => void } = { statementTimeoutMs: 5000 },
  ) {}

  async query(req: { client_id: string; entity: string; params: QueryParams }): Promise<QueryResult> {
    const def = this.catalog[req.entity];
    if (!def) throw new CotaError('BAD_REQUEST', `Não conheço a consulta '${req.entity.slice(0, 64)}'.`);
    const built = buildEntityQuery(def, await this.withHeldFunds(def, req.params, req.client_id), req.client_id);
    let raw: Array<Record<string, unknown>>;
    let leftOut: number | null = null;
    try {
      const [rows, out] = await Promise.all([
        this.runner.run(built.sql, built.values, this.opts.statementTimeoutMs),
        built.leftOut ? this.runner.run(built.leftOut.sql, built.leftOut.values, this.opts.statementTimeoutMs) : Promise.resolve([]),
      ]);
      raw = rows;
      if (built.leftOut) leftOut = Number(out[0]?.n ?? 0);
    } catch (e) {
      throw this.failure(e, def.entity);
    }
    const truncated = raw.length > built.cap;
    // A list cut at its limit says how many rows it had ("10 de 18"): counted only then.
    const matched = truncated && built.matched ? await this.count(built.matched, def.entity) : null;
    const rows = raw.slice(0, built.cap).map((r) => Object.fromEntries(built.columns.map((c) => [c.name, toJsonValue(c.type, r[c.name])])));

    const has = (name: string | null): name is string => !!name && built.columns.some((c) => c.name === name);
    const dated = def.date_column ?? def.as_of_column;
    const dateCol = has(dated) ? dated : has('period_end') ? 'period_end' : null;
    const newest = (col: string) => {
      let d: string | null = null;
      for (const r of rows) if (typeof r[col] === 'string' && (d === null || (r[col] as string) > d)) d = r[col] as string;
      return d;
    };
    const asOf = dateCol ? newest(dateCol) : null;
    // Values dated otherwise (an overview's last price) are said next to the as-of date.
    const asOfNotes = def.other_dates
      .filter((o) => has(o.column))
      .map((o) => ({ label: o.label, date: newest(o.column) }))
      .filter((n): n is { label: string; date: string } => n.date !== null && n.date.slice(0, 10) !== asOf?.slice(0, 10));

    // Sources: what the rows say (provenance columns), else the catalog's list.
    const provenance = built.columns.some((c) => c.name === 'data_source')
      ? 'data_source'
      : built.columns.some((c) => c.name === 'source') && def.entity !== 'fiis_noticias'
        ? 'source'
        : null;
    const found = new Set<string>();
    if (provenance) {
      for (const r of rows) {
        for (const s of String(r[provenance] ?? '').split(',')) {
          const name = s.includes(':') ? s.split(':')[1] : s;
          if (name.trim()) found.add(name.trim());
        }
      }
    }
    return {
      entity: def.entity,
      columns: built.columns,
      rows,
      row_count: rows.length,
      truncated,
      as_of: asOf,
      ...(asOfNotes.length ? { as_of_notes: asOfNotes } : {}),
      sources: found.size ? [...found].sort() : def.sources,
      params: built.params,
      left_out: leftOut === null || !built.leftOut ? null : { count: leftOut, column: built.leftOut.column },
      matched,
    };
  }

  /** A failed statement as the caller sees it (TIMEOUT, UNAVAILABLE, INTERNAL without SQL text), an internal one logged. */
  private failure(e: unknown, entity: string): CotaError {
    const failure = sqlFailure(e);
    if (failure.code === 'INTERNAL') this.opts.onSqlError?.(e as Error, entity);
    return failure;
  }

  /** A `held` filter becomes the tickers the client holds (a question about those funds), or a clear refusal when it holds none. */
  private async withHeldFunds(def: EntityDef, params: QueryParams, clientId: string): Promise<QueryParams> {
    const held = heldFundsQuery(def, params.filters, clientId);
    if (!held) return params;
    const { [held.key]: _held, ...filters } = params.filters;
    let rows: Array<Record<string, unknown>>;
    try {
      rows = await this.runner.run(held.sql, held.values, this.opts.statementTimeoutMs);
    } catch (e) {
      throw this.failure(e, def.entity);
    }
    if (rows.length === 0) throw new CotaError('BAD_REQUEST', 'Sua carteira não tem fundos no momento.');
    const tickers = rows.map((r) => String(r.ticker)).slice(0, 20);
    return { ...params, ticker: tickers.length === 1 ? tickers[0] : null, tickers, filters };
  }

  /** How many rows a list matched; null (the note is not said, the failure is logged) when the count itself fails. */
  private async count(query: { sql: string; values: unknown[] }, entity: string): Promise<number | null> {
    try {
      const rows = await this.runner.run(query.sql, query.values, this.opts.statementTimeoutMs);
      return Number(rows[0]?.n ?? 0) || null;
    } catch (e) {
      this.opts.onSqlError?.(e as Error, entity);
      return null;
    }
  }

  /** Every known fund (the planner's ticker list). */
  async funds(): Promise<FundRef[]> {
    const rows = await this.runner.run('SELECT ticker, display_name, fii_cnpj FROM wh_funds ORDER BY ticker', [], this.opts.statementTimeoutMs);
    return rows.map((r) => ({ ticker: String(r.ticker), name: (r.display_name as string | null) ?? null, cnpj: (r.fii_cnpj as string | null) ?? null }));
  }
}
