import { Column, CotaError, QueryParams } from '@cota/contracts';
import { EntityDef } from '@cota/catalog';
import { codeOf } from '@cota/text';

/** SQL text plus its positional values; the text depends only on the catalog and the query shape. */
export interface BuiltQuery {
  sql: string;
  values: unknown[];
  /** Columns of the reply (catalog columns, or the aggregate's columns). */
  columns: Column[];
  /** The parameters the query really used (ignored ones cleared), echoed in QueryResult.params. */
  params: QueryParams;
  /** Rows requested before the cap; the builder asks for one more row to detect truncation. */
  cap: number;
  /** Counts what a ranking left out as implausible (same filters, values outside the catalog's range). */
  leftOut?: { sql: string; values: unknown[]; column: string };
  /** Counts every row a list matched before its limit: run when the list was cut ("10 de 18"). */
  matched?: { sql: string; values: unknown[] };
}

const q = (ident: string) => `"${ident}"`;

const ACCENTED = 'áàâãäéèêëíìîïóòôõöúùûüçñ';
const NUMERIC = new Set<Column['type']>(['integer', 'number', 'money', 'percent', 'ratio']);
const PLAIN = 'aaaaaeeeeiiiiooooouuuucn';

/** Serialises a column for JSON: dates as ISO text in SQL, so no time zone can shift them. */
function selectExpr(col: Column, source = ''): string {
  const ref = `${source}${q(col.name)}`;
  if (col.type === 'date') return `to_char(${ref}, 'YYYY-MM-DD') AS ${q(col.name)}`;
  if (col.type === 'datetime') return `to_char(${ref}, 'YYYY-MM-DD"T"HH24:MI:SS') AS ${q(col.name)}`;
  return `${ref} AS ${q(col.name)}`;
}

/** Without an explicit order: the entity default for its default column, rank positions ascending (1st first), else descending. */
function naturalDirection(def: EntityDef, column: string): 'asc' | 'desc' {
  if (column === def.default_order.by) return def.default_order.dir;
  if (/^rank_|_rank_position$|^ticker$|_name$/.test(column)) return 'asc';
  return 'desc';
}

function bad(message: string): never {
  throw new CotaError('BAD_REQUEST', message);
}

/** Parses `kind:N` windows already shaped by the contract regex. */
function parseWindow(w: string): { kind: 'rows' | 'months' | 'days' | 'year'; n: number } {
  const [kind, n] = w.split(':');
  return { kind: kind as 'rows' | 'months' | 'days' | 'year', n: Number(n) };
}

function isIsoDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** Adds a value to the positional list and returns its `$n` placeholder (with an optional cast). */
type Param = (v: unknown, cast?: string) => string;

function placeholders(values: unknown[]): Param {
  return (v, cast = '') => {
    values.push(v);
    return `$${values.length}${cast}`;
  };
}

/**
 * "Quem administra os meus fiis?": the funds a `held` filter (catalog) stands for, the authenticated client's,
 * read before the entity's query so that it runs as a question about those funds. Null without such a filter.
 */
export function heldFundsQuery(def: EntityDef, filters: QueryParams['filters'], clientId: string): { key: string; sql: string; values: unknown[] } | null {
  const key = Object.keys(filters).find((k) => def.filters[k]?.match === 'held');
  if (!key) return null;
  const f = def.filters[key] as Extract<EntityDef['filters'][string], { match: 'held' }>;
  if (!clientId) bad('Cliente não identificado para consultar dados da carteira.');
  return { key, sql: `SELECT DISTINCT ${q('ticker')} AS ticker FROM ${q(f.table)} WHERE ${q(f.column)} = $1 ORDER BY 1`, values: [clientId] };
}

/** Client entities: always the authenticated client, whatever the request says. */
function clientScope(def: EntityDef, clientId: string, where: string[], param: Param): void {
  if (!def.identifiers.client) return;
  if (!clientId) bad('Cliente não identificado para consultar dados da carteira.');
  where.push(`${q('client_id')} = ${param(clientId)}`);
}

/**
 * Tickers: one, several (deduplicated) or none (whole list). Entities without tickers ignore them.
 * Echoes the tickers really used in `params` and returns them.
 */
function tickerScope(def: EntityDef, params: QueryParams, where: string[], param: Param): string[] {
  if (!def.identifiers.ticker) {
    params.ticker = null;
    params.tickers = [];
    return [];
  }
  const tickers = [...new Set([...(params.ticker ? [params.ticker] : []), ...params.tickers])];
  if (tickers.length === 1) {
    params.ticker = tickers[0];
    params.tickers = tickers;
    where.push(`${q('ticker')} = ${param(tickers[0])}`);
  } else if (tickers.length > 1) {
    params.ticker = null;
    params.tickers = tickers;
    where.push(`${q('ticker')} = ANY(${param(tickers, '::text[]')})`);
  }
  return tickers;
}

function checkAggregation(def: EntityDef, agg: QueryParams['agg']): void {
  if (!def.aggregations.includes(agg)) {
    bad(`A consulta de ${def.entity} não aceita a agregação '${agg}'. Use: ${def.aggregations.join(', ')}.`);
  }
}

/**
 * Filters declared in the catalog; `date` is implicit for dated entities.
 * Returns whether the request asked for the state as of a date.
 */
function filterScope(def: EntityDef, filters: QueryParams['filters'], where: string[], param: Param): boolean {
  let asOfDate = false;
  for (const [key, raw] of Object.entries(filters)) {
    const value = String(raw).trim();
    if (key === 'date') {
      where.push(asOfDateClause(def, value, param));
      asOfDate = true;
    } else {
      where.push(catalogFilterClause(def, key, value, param));
    }
  }
  return asOfDate;
}

/** `date` filter: the rows dated up to that day (the outer query then keeps the latest). */
function asOfDateClause(def: EntityDef, value: string, param: Param): string {
  if (!def.date_column) bad(`A consulta de ${def.entity} não tem data para filtrar.`);
  if (!isIsoDate(value)) bad(`Data inválida '${value.slice(0, 20)}': use o formato AAAA-MM-DD.`);
  return `${q(def.date_column)} <= ${param(value, '::date')}`;
}

/** One filter declared in the catalog, matched the way its `match` says. */
function catalogFilterClause(def: EntityDef, key: string, value: string, param: Param): string {
  const f = def.filters[key];
  if (!f) bad(`Filtro '${key.slice(0, 40)}' não é aceito para ${def.entity}.`);
  if (f.match === 'present') {
    const col = f.columns[codeOf(value)];
    if (!col) bad(`Valor '${value.slice(0, 40)}' não é aceito no filtro '${key}'. Use: ${Object.keys(f.columns).join(', ')}.`);
    return `${q(col)} IS NOT NULL`;
  }
  // (resolved into the client's tickers before the query is built: heldFundsQuery)
  if (f.match === 'held') throw new Error(`filter '${key}' of ${def.entity} must be resolved into tickers first`);
  if (f.match === 'registry') {
    return `${q('ticker')} IN (SELECT ${q('ticker')} FROM ${q(f.table)} WHERE translate(lower(${q(f.column)}), '${ACCENTED}', '${PLAIN}') = translate(lower(${param(value)}), '${ACCENTED}', '${PLAIN}'))`;
  }
  if (f.match === 'exact') {
    if (f.values && !f.values.includes(value)) bad(`Valor '${value.slice(0, 40)}' não é aceito no filtro '${key}'. Use: ${f.values.join(', ')}.`);
    return `${q(f.column)} = ${param(value)}`;
  }
  if (f.match === 'code') {
    const code = codeOf(value);
    if (f.values && !f.values.map(codeOf).includes(code)) {
      bad(`Valor '${value.slice(0, 40)}' não é aceito no filtro '${key}'. Use: ${f.values.join(', ')}.`);
    }
    return `regexp_replace(upper(${q(f.column)}), '[^A-Z0-9]', '', 'g') = ${param(code)}`;
  }
  // Free text: compared without case or accents.
  return `translate(lower(${q(f.column)}), '${ACCENTED}', '${PLAIN}') = translate(lower(${param(value)}), '${ACCENTED}', '${PLAIN}')`;
}

/** Numeric conditions, on the entity's numeric columns only ("DY acima de 15%"). */
function conditionScope(def: EntityDef, conditions: QueryParams['conditions'], where: string[], param: Param): void {
  for (const c of conditions ?? []) {
    const col = def.columns.find((x) => x.name === c.column);
    if (!col || !NUMERIC.has(col.type)) bad(`A consulta de ${def.entity} não compara a coluna '${c.column.slice(0, 40)}'.`);
    where.push(`${q(col.name)} ${c.op === 'gt' ? '>' : '<'} ${param(c.value, '::numeric')}`);
  }
}

type Win = ReturnType<typeof parseWindow>;

/**
 * Window: null means the entity default; windows an entity does not declare are ignored.
 * Echoes the window really used in `params`; a year window is a date range in the inner WHERE.
 */
function windowScope(def: EntityDef, params: QueryParams, where: string[], param: Param): Win | null {
  let window = params.window ?? def.default_window;
  if (window && !def.windows.includes(parseWindow(window).kind)) window = null;
  params.window = window;
  const win = window ? parseWindow(window) : null;
  if (win?.kind === 'year' && def.date_column) {
    where.push(`${q(def.date_column)} >= make_date(${param(win.n, '::int')}, 1, 1)`);
    where.push(`${q(def.date_column)} < make_date(${param(win.n + 1, '::int')}, 1, 1)`);
  }
  return win;
}

function checkOrdering(def: EntityDef, orderBy: string | null): void {
  if (orderBy && !def.orderings.includes(orderBy)) {
    bad(`Não é possível ordenar ${def.entity} por '${orderBy.slice(0, 40)}'. Use: ${def.orderings.join(', ')}.`);
  }
}

/**
 * A ranking never lists an implausible value of the column it ranks by (the catalog says which):
 * adds the bounds to `where` and returns the query that counts what they left out.
 */
function plausibleScope(def: EntityDef, orderBy: string, tickers: string[], where: string[], values: unknown[], param: Param): BuiltQuery['leftOut'] {
  // A rank column ("Ranking por DY 12 meses") keeps the bounds of the values it ranks: the DY list says what it left out.
  const ordered = def.columns.find((c) => c.name === orderBy);
  const rankCol = ordered?.ranks ? def.columns.find((c) => c.name === ordered.ranks) : ordered;
  if (!rankCol?.plausible || tickers.length) return undefined;
  const scope = [...where];
  const bounds: string[] = [];
  if (rankCol.plausible.above !== undefined) bounds.push(`${q(rankCol.name)} > ${param(rankCol.plausible.above, '::numeric')}`);
  if (rankCol.plausible.below !== undefined) bounds.push(`${q(rankCol.name)} < ${param(rankCol.plausible.below, '::numeric')}`);
  where.push(...bounds);
  // The same scope and parameters, the values outside the bounds: said with the answer.
  const n = values.length;
  return {
    sql: `SELECT count(*)::int AS n FROM ${q(def.view)} WHERE ${[...scope, `${q(rankCol.name)} IS NOT NULL`, `NOT (${bounds.join(' AND ')})`].join(' AND ')}`,
    values: values.slice(0, n),
    column: rankCol.label,
  };
}

/** The filtered view, each row numbered newest first within its series, with the series' last date. */
function baseSelect(def: EntityDef, partition: string, where: string[]): string {
  const dateCol = def.date_column;
  const inner: string[] = def.columns.map((c) => q(c.name));
  if (dateCol) {
    inner.push(`ROW_NUMBER() OVER (${partition}ORDER BY ${q(dateCol)} DESC NULLS LAST) AS __rn`);
    inner.push(`MAX(${q(dateCol)}) OVER (${partition.trim()}) AS __max`);
  }
  const whereSql = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  return `SELECT ${inner.join(', ')} FROM ${q(def.view)}${whereSql}`;
}

/** Outer WHERE over the base: "latest" (or as of a date) keeps each series' newest row, else the window's rows. */
function outerWindowWhere(def: EntityDef, agg: QueryParams['agg'], asOfDate: boolean, win: Win | null, param: Param): string {
  const dateCol = def.date_column;
  const outer: string[] = [];
  if (dateCol) {
    if (agg === 'latest' || (asOfDate && agg === 'list')) outer.push('__rn = 1');
    else if (win?.kind === 'rows') outer.push(`__rn <= ${param(win.n, '::int')}`);
    else if (win?.kind === 'months') outer.push(`${q(dateCol)} > __max - make_interval(months => ${param(win.n, '::int')})`);
    else if (win?.kind === 'days') outer.push(`${q(dateCol)} > __max - make_interval(days => ${param(win.n, '::int')})`);
  }
  return outer.length ? ` WHERE ${outer.join(' AND ')}` : '';
}

/** The request's ordering as SQL pieces; the tie-breakers make the row order deterministic. */
interface ListOrder {
  orderSql: string;
  tie: string;
  dateTie: string;
}

function listOrder(def: EntityDef, orderBy: string, dir: 'ASC' | 'DESC'): ListOrder {
  const dateCol = def.date_column;
  return {
    orderSql: `${q(orderBy)} ${dir} NULLS LAST`,
    tie: def.columns.some((c) => c.name === 'ticker') && orderBy !== 'ticker' ? `, ${q('ticker')} ASC` : '',
    dateTie: dateCol && orderBy !== dateCol ? `, ${q(dateCol)} DESC` : '',
  };
}

/** Several tickers come grouped per ticker, each with at most `limit` rows; the cap is the entity's. */
function multiTickerListSql(def: EntityDef, base: string, outerWhere: string, order: ListOrder, limit: number, param: Param): string {
  const { orderSql, dateTie } = order;
  const ranked = `SELECT *, ROW_NUMBER() OVER (PARTITION BY ${q('ticker')} ORDER BY ${orderSql}${dateTie}) AS __pos FROM (${base}) b${outerWhere}`;
  return (
    `SELECT ${def.columns.map((c) => selectExpr(c, 'r.')).join(', ')} FROM (${ranked}) r` +
    ` WHERE __pos <= ${param(limit, '::int')} ORDER BY r.${q('ticker')} ASC, r.${orderSql}${dateTie ? `, r.${q(def.date_column!)} DESC` : ''}` +
    ` LIMIT ${param(def.max_rows + 1, '::int')}`
  );
}

/** One list, ordered as asked; one row more than the limit tells truncation. */
function listSql(def: EntityDef, base: string, outerWhere: string, order: ListOrder, limit: number, param: Param): string {
  const { orderSql, tie, dateTie } = order;
  return (
    `SELECT ${def.columns.map((c) => selectExpr(c, 'b.')).join(', ')} FROM (${base}) b${outerWhere}` +
    ` ORDER BY b.${orderSql}${tie ? `, b.${q('ticker')} ASC` : ''}${dateTie ? `, b.${q(def.date_column!)} DESC` : ''}` +
    ` LIMIT ${param(limit + 1, '::int')}`
  );
}

/**
 * Builds the parameterised SQL of one entity query.
 *
 * Safety: every identifier in the text comes from the validated catalog; every value from the
 * request (tickers, client id, filter values, window sizes, limits) travels as a `$n` parameter.
 * The text therefore depends only on the *shape* of the request, never on its values.
 *
 * The steps run in a fixed order: it decides both the `$n` numbering and which error is reported first.
 */
export function buildEntityQuery(def: EntityDef, input: QueryParams, clientId: string): BuiltQuery {
  const values: unknown[] = [];
  const param = placeholders(values);
  const params: QueryParams = { ...input, tickers: [...input.tickers], filters: { ...input.filters } };
  const where: string[] = [];

  clientScope(def, clientId, where, param);
  const tickers = tickerScope(def, params, where, param);
  const agg = params.agg;
  checkAggregation(def, agg);
  const asOfDate = filterScope(def, params.filters, where, param);
  conditionScope(def, params.conditions, where, param);
  const win = windowScope(def, params, where, param);

  checkOrdering(def, params.order_by);
  const orderBy = params.order_by ?? def.default_order.by;
  const leftOut = plausibleScope(def, orderBy, tickers, where, values, param);
  const dir = (params.order ?? naturalDirection(def, orderBy)) === 'asc' ? 'ASC' : 'DESC';
  params.order_by = orderBy;
  params.order = dir === 'ASC' ? 'asc' : 'desc';

  const limit = Math.min(params.limit ?? def.default_limit, def.max_rows);
  params.limit = limit;

  // Series: what "latest" and row windows are per (ticker, indicator, benchmark...).
  const series = [...(def.identifiers.ticker ? ['ticker'] : []), ...def.series];
  const partition = series.length ? `PARTITION BY ${series.map(q).join(', ')} ` : '';
  const base = baseSelect(def, partition, where);
  const outerWhere = outerWindowWhere(def, agg, asOfDate, win, param);

  if (agg === 'avg' || agg === 'sum' || agg === 'count') {
    return buildAggregate(def, agg, series, base, outerWhere, values, params, limit);
  }

  // list / latest
  const order = listOrder(def, orderBy, dir);
  if (def.identifiers.ticker && tickers.length > 1) {
    const sql = multiTickerListSql(def, base, outerWhere, order, limit, param);
    return { sql, values, columns: def.columns, params, cap: def.max_rows };
  }
  // Taken before the list adds its limit: the count has the same parameters as the list's filters.
  const matched = { sql: `SELECT count(*)::int AS n FROM (${base}) b${outerWhere}`, values: [...values] };
  const sql = listSql(def, base, outerWhere, order, limit, param);
  return { sql, values, columns: def.columns, params, cap: limit, matched, ...(leftOut ? { leftOut } : {}) };
}

const AGG_LABEL: Record<'avg' | 'sum', string> = { avg: 'Média de', sum: 'Soma de' };

function buildAggregate(
  def: EntityDef,
  agg: 'avg' | 'sum' | 'count',
  series: string[],
  base: string,
  outerWhere: string,
  values: unknown[],
  params: QueryParams,
  limit: number,
): BuiltQuery {
  const param = placeholders(values);
  const keyCols = series.map((s) => def.columns.find((c) => c.name === s)!);
  const columns: Column[] = [...keyCols];
  const select: string[] = keyCols.map((c) => `b.${q(c.name)} AS ${q(c.name)}`);
  if (def.date_column) {
    columns.push({ name: 'period_start', type: 'date', label: 'Início do período' }, { name: 'period_end', type: 'date', label: 'Fim do período' });
    select.push(`to_char(MIN(b.${q(def.date_column)}), 'YYYY-MM-DD') AS "period_start"`, `to_char(MAX(b.${q(def.date_column)}), 'YYYY-MM-DD') AS "period_end"`);
  }
  columns.push({ name: 'row_count', type: 'integer', label: 'Quantidade de registros' });
  select.push('COUNT(*)::int AS "row_count"');
  if (agg !== 'count') {
    for (const name of def.aggregatable) {
      const col = def.columns.find((c) => c.name === name)!;
      columns.push({ name: col.name, type: col.type === 'integer' ? 'number' : col.type, label: `${AGG_LABEL[agg]} ${col.label.toLowerCase()}` });
      select.push(`${agg.toUpperCase()}(b.${q(name)}) AS ${q(name)}`);
    }
  }
  const group = keyCols.length ? ` GROUP BY ${keyCols.map((c) => `b.${q(c.name)}`).join(', ')}` : '';
  const order = keyCols.length ? ` ORDER BY ${keyCols.map((c) => `b.${q(c.name)} ASC`).join(', ')}` : '';
  const sql = `SELECT ${select.join(', ')} FROM (${base}) b${outerWhere}${group}${order} LIMIT ${param(limit + 1, '::int')}`;
  return { sql, values, columns, params, cap: limit };
}
