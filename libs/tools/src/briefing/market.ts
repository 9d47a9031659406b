import { Column, QueryResult, Row } from '@cota/contracts';
import { formatDecimal, formatPercent } from '@cota/text';
import { formatCell, toNumeric } from '../format';
import { ReportSection } from '../report';
import { code, dateColumn, findColumn, newestFirst, NUMERIC_TYPES } from './columns';

/** Market entities the briefing reads, in the order a metric is looked for. */
export const MARKET_ENTITIES = ['macro_consolidada', 'history_b3_indexes', 'history_market_indicators', 'history_currency_rates'] as const;

interface MetricSpec {
  id: string;
  label: string;
  /** Column patterns in wide tables (one column per metric). */
  wide: RegExp[];
  /** Daily variation column patterns, when the metric has one. */
  variation?: RegExp[];
  /** Codes in long tables (one row per indicator). */
  codes: string[];
  /** Whole numbers (index points) are shown without decimals. */
  points?: boolean;
  /** Rates are percentages whatever the column type says; the suffix names their period. */
  percentSuffix?: string;
}

const METRICS: MetricSpec[] = [
  { id: 'IFIX', label: 'IFIX', wide: [/^ifix_?(points|pontos|close|fechamento|value|valor)/, /^ifix$/], variation: [/^ifix_?var/], codes: ['IFIX'], points: true },
  { id: 'SELIC', label: 'SELIC', wide: [/^selic$/, /^selic_?(pct|aa|rate|taxa|value|valor|anual)/], codes: ['SELIC'], percentSuffix: ' a.a.' },
  { id: 'CDI', label: 'CDI', wide: [/^cdi$/, /^cdi_?(pct|aa|rate|taxa|value|valor|anual)/], codes: ['CDI'], percentSuffix: ' a.a.' },
  { id: 'IPCA', label: 'IPCA', wide: [/^ipca$/, /^ipca_?(pct|mensal|month|value|valor)/], codes: ['IPCA'], percentSuffix: ' no mês' },
  { id: 'USD', label: 'Dólar', wide: [/^usd_?(sell|venda)/, /^usd_?(buy|compra)/, /^usd$/], variation: [/^usd_?var/], codes: ['USD'] },
];

interface Reading {
  value: unknown;
  column: Column;
  variation: { value: unknown; column: Column } | null;
  date: string | null;
  entity: string;
}

function fromWide(result: QueryResult, spec: MetricSpec): Reading | null {
  const col = findColumn(result, spec.wide, NUMERIC_TYPES);
  if (!col) return null;
  const varCol = spec.variation ? findColumn(result, spec.variation, NUMERIC_TYPES) : undefined;
  const d = dateColumn(result);
  // The newest row that has the metric (monthly indicators are blank on most daily rows).
  const row = newestFirst(result).find((r) => toNumeric(r[col.name]) !== null);
  if (!row) return null;
  return {
    value: row[col.name],
    column: col,
    variation: varCol && toNumeric(row[varCol.name]) !== null ? { value: row[varCol.name], column: varCol } : null,
    date: d ? String(row[d.name] ?? '').slice(0, 10) || null : null,
    entity: result.entity,
  };
}

function fromLong(result: QueryResult, spec: MetricSpec): Reading | null {
  const textCols = result.columns.filter((c) => c.type === 'text');
  const valueCol = result.columns.find((c) => NUMERIC_TYPES.includes(c.type) && !/var|change/.test(c.name));
  if (!valueCol || !textCols.length) return null;
  const d = dateColumn(result);
  const row = newestFirst(result).find((r) => textCols.some((c) => spec.codes.includes(code(r[c.name]))) && toNumeric(r[valueCol.name]) !== null);
  if (!row) return null;
  return { value: row[valueCol.name], column: valueCol, variation: null, date: d ? String(row[d.name] ?? '').slice(0, 10) || null : null, entity: result.entity };
}

function formatReading(spec: MetricSpec, r: Reading): string {
  const n = toNumeric(r.value);
  if (spec.points && n !== null) return `${formatDecimal(n, 0)} pontos`;
  if (spec.id === 'USD' && n !== null) return `R$ ${formatDecimal(n, 2)}`;
  if (spec.percentSuffix && n !== null) return `${formatPercent(n)}${spec.percentSuffix}`;
  return formatCell(r.column.type, r.value);
}

/**
 * The market section: latest IFIX, SELIC, CDI, IPCA and dollar, each from the first market
 * entity that has it, with its own date (the sources are not all updated on the same day).
 */
export function buildMarketSection(results: QueryResult[], failures: string[]): ReportSection {
  const rows: Row[] = [];
  const missing: string[] = [];
  for (const spec of METRICS) {
    let reading: Reading | null = null;
    for (const r of results) {
      reading = fromWide(r, spec) ?? fromLong(r, spec);
      if (reading) break;
    }
    if (!reading) {
      missing.push(spec.label);
      continue;
    }
    const variation = reading.variation ? toNumeric(reading.variation.value) : null;
    rows.push({
      indicador: spec.label,
      valor: toNumeric(reading.value) !== null ? String(toNumeric(reading.value)) : reading.value,
      valor_formatado: formatReading(spec, reading),
      descricao: reading.column.label,
      variacao_dia_pct: variation !== null ? String(variation) : null,
      variacao_formatada: variation !== null ? `${Number(variation) > 0 ? '+' : ''}${formatPercent(variation)}` : null,
      data: reading.date,
      fonte: reading.entity,
    });
  }
  const notes: string[] = [];
  if (missing.length) notes.push(`Sem dados no warehouse para: ${missing.join(', ')}.`);
  if (failures.length) notes.push(`Consultas indisponíveis: ${failures.join(', ')}.`);
  const dates = rows.map((r) => r.data).filter((d): d is string => typeof d === 'string' && d.length > 0);
  return {
    id: 'mercado',
    title: 'Mercado',
    columns: [
      { name: 'indicador', type: 'text', label: 'Indicador' },
      { name: 'valor_formatado', type: 'text', label: 'Valor' },
      { name: 'variacao_formatada', type: 'text', label: 'Variação no dia' },
      { name: 'data', type: 'date', label: 'Data' },
      { name: 'fonte', type: 'text', label: 'Fonte' },
    ],
    rows,
    as_of: dates.sort().at(-1) ?? null,
    note: notes.length ? notes.join(' ') : null,
  };
}
