/**
 * Which chart (if any) an answer gets, decided from its rows alone (`results`) and what the planner
 * understood (`meta.planner.question`). Pure: the Chart.js drawing lives in ui/chart-view.ts.
 * The answer text stays the source of truth; a chart only adds a picture of the same rows.
 */
import { formatAxisLabel, formatMonthLong, formatDate, formatValue, Unit } from './format';
import { AskReply, entityRows, MeasureCatalog, MeasureInfo, MeasureValueLike, measureValues } from './types';

export type ChartType = 'line' | 'bar' | 'doughnut';
export type AxisKind = 'date' | 'month' | 'category';

export interface ChartSeries {
  label: string;
  values: Array<number | null>;
}

export interface ChartSpec {
  type: ChartType;
  title: string;
  unit: Unit;
  /** What the label keys are: ISO dates, YYYY-MM months, or plain categories (tickers, years). */
  x: AxisKind;
  /** Keys of the x axis (raw: ISO date, YYYY-MM, ticker); formatAxisLabel shows them. */
  labels: string[];
  series: ChartSeries[];
  /** Values drawn (not null), for tests and the figure's data-points attribute. */
  points: number;
  /** What a screen reader hears instead of the picture. */
  ariaLabel: string;
}

/** Units of entity columns (entity answers carry rows, not measures). */
const COLUMN_UNITS: Array<[RegExp, Unit]> = [
  [/_pct$/, 'pct'],
  [/_points$/, 'points'],
  [/(_amt|_price|_value)$/, 'brl'],
  [/^(selic|cdi)$/, 'pct_year'],
  [/^(ipca|igpm|igp_m|incc|inpc)$/, 'pct_month'],
];

/** Human names of entity columns that can be charted. */
const COLUMN_LABELS: Record<string, string> = {
  dividends_amt: 'proventos recebidos',
  ifix_points: 'IFIX (pontos)',
  ibov_points: 'Ibovespa (pontos)',
  selic: 'SELIC',
  cdi: 'CDI',
  ipca: 'IPCA',
  usd_buy_amt: 'dólar (compra)',
  eur_buy_amt: 'euro (compra)',
  close_price: 'preço de fechamento',
  dividend_amt: 'dividendo por cota',
  dy_monthly_pct: 'dividend yield mensal',
};

/** A measure the catalog does not list (older gateway, new measure): its unit by its entity. */
const ENTITY_FALLBACK: Record<string, MeasureInfo> = {
  fiis_precos: { unit: 'brl', label: 'preço de fechamento', kind: 'level' },
  fiis_dividendos: { unit: 'brl', label: 'dividendos por cota', kind: 'flow' },
  fiis_yield_history: { unit: 'pct', label: 'dividend yield', kind: 'level' },
  fiis_dividends_yields: { unit: 'pct', label: 'dividend yield', kind: 'level' },
  history_b3_indexes: { unit: 'points', label: 'pontos', kind: 'level' },
  history_currency_rates: { unit: 'brl', label: 'cotação', kind: 'level' },
  client_fiis_dividends_evolution: { unit: 'brl', label: 'dividendos recebidos', kind: 'flow' },
};

const MAX_SERIES = 4;

export function measureInfo(reply: Pick<AskReply, 'meta'>, catalog: MeasureCatalog, value?: MeasureValueLike): MeasureInfo | null {
  const name = value?.measure ?? reply.meta?.planner?.question?.measure ?? null;
  const known = name ? catalog[name] : undefined;
  const base = known ?? (reply.meta?.entity ? ENTITY_FALLBACK[reply.meta.entity] : undefined) ?? null;
  if (!base) return value?.unit ? { unit: value.unit, label: name ?? 'valor' } : null;
  return value?.unit ? { ...base, unit: value.unit } : base;
}

/** The unit a measure answer's value is in: a price's variation or a rate's accumulation is a percentage. */
export function valueUnit(info: MeasureInfo, agg: string | null | undefined): Unit {
  if (agg === 'variation' || agg === 'accumulated') return 'pct';
  if (agg === 'count') return 'count';
  return info.unit;
}

/** Up to two charts for an answer, most relevant first; none when its rows do not make a picture. */
export function chooseCharts(reply: AskReply, catalog: MeasureCatalog): ChartSpec[] {
  if (!reply || reply.status === 'error' || !reply.results) return [];
  const values = measureValues(reply);
  if (values) return measureCharts(reply, values, catalog);
  const rows = entityRows(reply);
  if (rows) return entityCharts(reply, rows.entity, rows.rows);
  return [];
}

// ----- measure answers ---------------------------------------------------------------------------

function measureCharts(reply: AskReply, values: MeasureValueLike[], catalog: MeasureCatalog): ChartSpec[] {
  const q = reply.meta?.planner?.question ?? null;
  const withRows = values.filter((v) => (v.rows?.length ?? 0) >= 2);
  if (withRows.length) {
    // Panels may mix units (IFIX points and CDI %): one chart per unit, the first two.
    const byUnit = new Map<Unit, { info: MeasureInfo; values: MeasureValueLike[] }>();
    for (const v of withRows.slice(0, MAX_SERIES * 2)) {
      const info = measureInfo(reply, catalog, v);
      if (!info) continue;
      const g = byUnit.get(info.unit) ?? { info, values: [] };
      g.values.push(v);
      byUnit.set(info.unit, g);
    }
    return [...byUnit.values()].slice(0, 2).map((g) => seriesChart(g.info, g.values.slice(0, MAX_SERIES), q?.group_by ?? null));
  }
  // Two or more subjects compared by one value each: bars side by side.
  const compared = values.filter((v) => v.value !== null && Number.isFinite(v.value));
  if (compared.length >= 2 && new Set(compared.map((v) => v.subject.id)).size === compared.length) {
    const info = measureInfo(reply, catalog, compared[0]);
    if (!info) return [];
    const unit = valueUnit(info, q?.agg);
    if (compared.some((v) => (measureInfo(reply, catalog, v)?.unit ?? info.unit) !== info.unit)) return [];
    const label = q?.agg === 'variation' ? `variação do ${info.label}` : info.label;
    return [
      finish({
        type: 'bar',
        title: `${capitalize(label)}: ${joinNames(compared.map((v) => v.subject.id))}`,
        unit,
        x: 'category',
        labels: compared.map((v) => v.subject.id),
        series: [{ label: capitalize(label), values: compared.map((v) => v.value) }],
      }),
    ];
  }
  return [];
}

function seriesChart(info: MeasureInfo, values: MeasureValueLike[], groupBy: 'day' | 'month' | 'year' | null): ChartSpec {
  const allRows = values.flatMap((v) => v.rows ?? []);
  const monthly =
    groupBy === 'month' || values.some((v) => v.grain === 'month') || info.kind === 'flow' || (allRows.length > 0 && allRows.every((r) => /^\d{4}-\d{2}-01$/.test(r.date)));
  const yearly = groupBy === 'year';
  const keyOf = (date: string) => (yearly ? date.slice(0, 4) : monthly ? date.slice(0, 7) : date.slice(0, 10));
  const keys = [...new Set(allRows.map((r) => keyOf(r.date)))].sort();
  const flow = info.kind === 'flow';
  const series = values.map((v) => {
    const byKey = new Map<string, number>();
    for (const r of v.rows ?? []) {
      if (!Number.isFinite(r.value)) continue;
      const k = keyOf(r.date);
      // Two payments in one month add up for flows; levels keep the month's last value.
      byKey.set(k, flow && byKey.has(k) ? (byKey.get(k) as number) + r.value : r.value);
    }
    return { label: v.subject.id === 'PORTFOLIO' ? 'Carteira' : v.subject.id, values: keys.map((k) => (byKey.has(k) ? (byKey.get(k) as number) : null)) };
  });
  const names = values.map((v) => (v.subject.id === 'PORTFOLIO' ? 'sua carteira' : v.subject.id));
  const title = `${capitalize(info.label)}${flow && monthly ? ' por mês' : ''}: ${joinNames(names)}`;
  return finish({
    type: flow || (groupBy === 'month' && keys.length <= 24 && info.unit === 'brl' && values.length > 1) ? 'bar' : 'line',
    title,
    unit: info.unit,
    x: yearly ? 'category' : monthly ? 'month' : 'date',
    labels: keys,
    series,
  });
}

// ----- entity answers ----------------------------------------------------------------------------

function entityCharts(reply: AskReply, entity: string, rows: Array<Record<string, unknown>>): ChartSpec[] {
  if (entity === 'client_fiis_enriched_portfolio' || entity === 'client_fiis_positions') return portfolioCharts(reply, rows);
  return timeSeriesCharts(reply, rows);
}

function portfolioCharts(reply: AskReply, rows: Array<Record<string, unknown>>): ChartSpec[] {
  const out: ChartSpec[] = [];
  const tickers = rows.map((r) => String(r.ticker ?? '?'));
  const weights = rows.map((r) => num(r.weight_pct));
  if (rows.length >= 1 && weights.every((w) => w !== null)) {
    out.push(
      finish({ type: 'doughnut', title: 'Peso de cada fundo na carteira', unit: 'pct', x: 'category', labels: tickers, series: [{ label: 'Peso na carteira', values: weights }] }),
    );
  }
  const income = rows.map((r) => num(r.expected_monthly_income_amt));
  if (rows.length >= 1 && income.every((v) => v !== null)) {
    out.push(
      finish({ type: 'bar', title: 'Renda mensal esperada por fundo', unit: 'brl', x: 'category', labels: tickers, series: [{ label: 'Renda mensal esperada', values: income }] }),
    );
  }
  // "quanto vou receber por mês?": the income first.
  const q = reply.meta?.planner?.question;
  if (out.length === 2 && (q?.measure === 'dividend' || q?.measure === 'received' || q?.group_by === 'month')) out.reverse();
  return out;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}/;

function timeSeriesCharts(reply: AskReply, rows: Array<Record<string, unknown>>): ChartSpec[] {
  if (rows.length < 2) return [];
  const first = rows[0];
  const dateKey = Object.keys(first).find((k) => /(date|month|_at$|^ref_)/.test(k) && typeof first[k] === 'string' && DATE_RE.test(first[k] as string));
  if (!dateKey) return [];
  const monthly = dateKey.includes('month') || rows.every((r) => typeof r[dateKey] === 'string' && /^\d{4}-\d{2}-01/.test(r[dateKey] as string));
  const numeric = Object.keys(first).filter((k) => k !== dateKey && unitOfColumn(k) && rows.filter((r) => num(r[k]) !== null).length >= 2);
  if (!numeric.length) return [];
  // Which columns the question is about (IFIX, CDI...), else all that chart.
  const asked = (reply.meta?.planner?.question?.subjects ?? []).map((s) => s.id.toLowerCase().replace(/[^a-z]/g, ''));
  const wanted = asked.length ? numeric.filter((k) => asked.some((a) => k.startsWith(a))) : [];
  const columns = wanted.length ? wanted : numeric;
  const sorted = [...rows].filter((r) => typeof r[dateKey] === 'string').sort((a, b) => String(a[dateKey]).localeCompare(String(b[dateKey])));
  const keys = sorted.map((r) => String(r[dateKey]).slice(0, monthly ? 7 : 10));
  // A time series has one row per date (several funds on one snapshot date are not one).
  if (new Set(keys).size !== keys.length || new Set(rows.map((r) => r.ticker ?? null)).size > 1) return [];
  const byUnit = new Map<Unit, string[]>();
  for (const c of columns.slice(0, MAX_SERIES * 2)) {
    const u = unitOfColumn(c) as Unit;
    byUnit.set(u, [...(byUnit.get(u) ?? []), c]);
  }
  const flowEntity = reply.meta?.entity === 'client_fiis_dividends_evolution';
  return [...byUnit.entries()].slice(0, 2).map(([unit, cols]) =>
    finish({
      type: flowEntity ? 'bar' : 'line',
      title: flowEntity ? 'Proventos recebidos por mês' : capitalize(joinNames(cols.map(columnLabel))),
      unit,
      x: monthly ? 'month' : 'date',
      labels: keys,
      series: cols.slice(0, MAX_SERIES).map((c) => ({ label: capitalize(columnLabel(c)), values: sorted.map((r) => num(r[c])) })),
    }),
  );
}

function unitOfColumn(column: string): Unit | null {
  if (/(^|_)(id|rank|position|count|quantity|tickers)(_|$)/.test(column) || /_var_pct$/.test(column)) return null;
  for (const [re, unit] of COLUMN_UNITS) if (re.test(column)) return unit;
  return null;
}

function columnLabel(column: string): string {
  return COLUMN_LABELS[column] ?? column.replace(/_(amt|pct|points|value)$/, '').replace(/_/g, ' ');
}

// ----- shared ------------------------------------------------------------------------------------

function finish(spec: Omit<ChartSpec, 'points' | 'ariaLabel'>): ChartSpec {
  const points = spec.series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
  return { ...spec, points, ariaLabel: describeChart({ ...spec, points }) };
}

/** The chart in words: type, title, range of the x axis and of the values. */
export function describeChart(spec: Omit<ChartSpec, 'ariaLabel'>): string {
  const kind = spec.type === 'line' ? 'Gráfico de linha' : spec.type === 'bar' ? 'Gráfico de barras' : 'Gráfico de rosca';
  const all = spec.series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  const label = (k: string) => (spec.x === 'month' ? formatMonthLong(k) : spec.x === 'date' ? formatDate(k) : k);
  const parts = [`${kind}: ${spec.title}.`];
  if (spec.type === 'doughnut') {
    parts.push(spec.labels.map((l, i) => `${l} ${formatValue(spec.unit, spec.series[0]?.values[i] ?? null)}`).join('; ') + '.');
    return parts.join(' ');
  }
  if (spec.labels.length && spec.x !== 'category') parts.push(`De ${label(spec.labels[0])} a ${label(spec.labels[spec.labels.length - 1])}, ${spec.points} valores.`);
  else if (spec.labels.length) parts.push(spec.labels.map((l, i) => `${l} ${formatValue(spec.unit, spec.series[0]?.values[i] ?? null)}`).join('; ') + '.');
  if (all.length && spec.x !== 'category') parts.push(`Mínimo ${formatValue(spec.unit, Math.min(...all))}, máximo ${formatValue(spec.unit, Math.max(...all))}.`);
  return parts.join(' ');
}

export function axisLabel(spec: Pick<ChartSpec, 'x'>, key: string): string {
  return formatAxisLabel(spec.x, key);
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** ["A"] → "A"; ["A","B"] → "A e B"; ["A","B","C"] → "A, B e C". */
export function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} e ${names[names.length - 1]}`;
}
