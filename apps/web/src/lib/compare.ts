/**
 * Comparisons as side-by-side cards: one card per fund, one line per measure, and on each measure
 * the winner marked with the criterion that made it win ("maior DY", "menor P/VP"). Pure.
 */
import { capitalize, measureInfo, valueUnit } from './charts';
import { formatBRLCompact, formatDate, formatValue, Unit } from './format';
import { AskReply, EntityClasses, entityRows, MeasureCatalog, MeasureInfo, measureValues } from './types';

export interface CompareLine {
  key: string;
  label: string;
  text: string;
  /** This card wins this measure. */
  winner: boolean;
  /** How it wins ("maior", "menor"), on the winner's line only. */
  mark?: 'maior' | 'menor';
}

export interface CompareCard {
  id: string;
  subtitle: string | null;
  lines: CompareLine[];
  /** How many measures this card wins. */
  wins: number;
}

export interface Comparison {
  cards: CompareCard[];
  /** Per measure, the rule that picked its winner ("maior DY 12 meses"), for the legend. */
  criteria: Array<{ key: string; text: string; winner: string | null }>;
}

/** Which way the catalog says a measure is better, when that is not a matter of taste. */
function catalogDirection(info: MeasureInfo | undefined): 'max' | 'min' | undefined {
  return info?.better === 'higher' ? 'max' : info?.better === 'lower' ? 'min' : undefined;
}

interface FieldSpec {
  key: string;
  label: string;
  unit: Unit | 'brl_compact' | 'text';
  better?: 'max' | 'min';
}

/** Fund fields shown on the cards of an entity comparison (fii_overview and friends), in order. */
const FUND_FIELDS: FieldSpec[] = [
  { key: 'sector', label: 'Segmento', unit: 'text' },
  { key: 'last_price', label: 'Preço da cota', unit: 'brl' },
  { key: 'price_book_ratio', label: 'P/VP', unit: 'ratio', better: 'min' },
  { key: 'dy_12m_pct', label: 'DY 12 meses', unit: 'pct', better: 'max' },
  { key: 'dividends_12m_amt', label: 'Dividendos 12 meses', unit: 'brl', better: 'max' },
  { key: 'last_dividend_amt', label: 'Último dividendo', unit: 'brl', better: 'max' },
  { key: 'sharpe_ratio', label: 'Índice de Sharpe', unit: 'ratio', better: 'max' },
  { key: 'sortino_ratio', label: 'Índice de Sortino', unit: 'ratio', better: 'max' },
  { key: 'market_cap_value', label: 'Valor de mercado', unit: 'brl_compact' },
  { key: 'equity_value', label: 'Patrimônio líquido', unit: 'brl_compact' },
  { key: 'shareholders_count', label: 'Cotistas', unit: 'count' },
];

/** The comparison cards of an answer, or null when it does not compare two to four subjects. */
export function buildComparison(reply: AskReply, catalog: MeasureCatalog, classes: EntityClasses): Comparison | null {
  if (!reply || reply.status !== 'ok' || !reply.results) return null;
  return measureComparison(reply, catalog) ?? entityComparison(reply, classes);
}

function measureComparison(reply: AskReply, catalog: MeasureCatalog): Comparison | null {
  const values = measureValues(reply);
  if (!values) return null;
  const ids = values.map((v) => v.subject.id);
  if (values.length < 2 || values.length > 4 || new Set(ids).size !== ids.length) return null;
  const q = reply.meta?.planner?.question ?? null;
  const info = measureInfo(reply, catalog, values[0]);
  if (!info) return null;
  const unit = valueUnit(info, q?.agg);
  const measure = q?.measure ?? values[0].measure ?? '';
  const direction = q?.compare ?? (q?.agg === 'variation' || q?.agg === 'accumulated' ? 'max' : catalogDirection(catalog[measure]));
  const label = capitalize(q?.agg === 'variation' ? `variação do ${info.label}` : q?.agg === 'total' ? `${info.label} (soma)` : info.label);
  const winnerIdx = direction
    ? pick(
        values.map((v) => v.value),
        direction,
      )
    : null;
  const cards: CompareCard[] = values.map((v, i) => ({
    id: v.subject.id,
    subtitle: v.period ? `de ${formatDate(v.period.from)} a ${formatDate(v.period.to)}` : v.date ? `em ${formatDate(v.date)}` : null,
    lines: [{ key: measure || 'value', label, text: formatValue(unit, v.value), winner: winnerIdx === i, ...(winnerIdx === i && direction ? { mark: word(direction) } : {}) }],
    wins: winnerIdx === i ? 1 : 0,
  }));
  return {
    cards,
    criteria: [
      {
        key: measure || 'value',
        text: direction ? `${direction === 'max' ? 'maior' : 'menor'} ${lowerFirst(label)}` : label,
        winner: winnerIdx === null ? null : values[winnerIdx].subject.id,
      },
    ],
  };
}

/** Funds side by side from the rows of a fund entity (an overview, a snapshot): the fields they carry. */
function entityComparison(reply: AskReply, classes: EntityClasses): Comparison | null {
  const found = entityRows(reply);
  if (!found || classes[found.entity] !== 'fund') return null;
  const rows = found.rows.filter((r) => typeof r.ticker === 'string');
  const tickers = [...new Set(rows.map((r) => r.ticker as string))];
  if (tickers.length < 2 || tickers.length > 4 || tickers.length !== rows.length) return null;
  const fields = FUND_FIELDS.filter((f) => rows.some((r) => r[f.key] !== null && r[f.key] !== undefined && r[f.key] !== ''));
  if (fields.length < 2) return null;
  const winners = new Map<string, number | null>();
  for (const f of fields)
    winners.set(
      f.key,
      f.better
        ? pick(
            rows.map((r) => (typeof r[f.key] === 'number' ? (r[f.key] as number) : null)),
            f.better,
          )
        : null,
    );
  const cards: CompareCard[] = rows.map((r, i) => {
    const lines = fields.map((f) => {
      const winner = winners.get(f.key) === i;
      return { key: f.key, label: f.label, text: show(f, r[f.key]), winner, ...(winner && f.better ? { mark: word(f.better) } : {}) };
    });
    return { id: r.ticker as string, subtitle: typeof r.display_name === 'string' ? r.display_name : null, lines, wins: lines.filter((l) => l.winner).length };
  });
  const criteria = fields
    .filter((f) => f.better)
    .map((f) => ({
      key: f.key,
      text: `${f.better === 'max' ? 'maior' : 'menor'} ${lowerFirst(f.label)}`,
      winner: winners.get(f.key) == null ? null : (rows[winners.get(f.key) as number].ticker as string),
    }));
  return { cards, criteria };
}

/** Index of the single best value; null when missing values or a tie leave no clear winner. */
export function pick(values: Array<number | null>, direction: 'max' | 'min'): number | null {
  const present = values.map((v, i) => ({ v, i })).filter((x): x is { v: number; i: number } => typeof x.v === 'number' && Number.isFinite(x.v));
  if (present.length < 2) return null;
  const best = direction === 'max' ? Math.max(...present.map((x) => x.v)) : Math.min(...present.map((x) => x.v));
  const at = present.filter((x) => x.v === best);
  return at.length === 1 ? at[0].i : null;
}

function word(direction: 'max' | 'min'): 'maior' | 'menor' {
  return direction === 'max' ? 'maior' : 'menor';
}

/** "Dividend yield" → "dividend yield"; acronyms stay ("DY 12 meses", "P/VP"). */
function lowerFirst(s: string): string {
  return /^[A-Z][A-Z/]/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1);
}

function show(f: FieldSpec, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (f.unit === 'text') return String(v);
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) return String(v);
  if (f.unit === 'brl_compact') return formatBRLCompact(n);
  return formatValue(f.unit, n);
}

/**
 * What the comparison found, in one sentence that leads the answer: which fund wins which measures
 * ("HGLG11 leva 3 de 5 medidas: maior DY 12 meses, ...; KNRI11 leva 1: menor P/VP."), or null when
 * no measure has a winner.
 */
export function comparisonFinding(c: Comparison): string | null {
  const decided = c.criteria.filter((k) => k.winner);
  if (!decided.length) return null;
  const byWinner = new Map<string, string[]>();
  for (const k of decided) byWinner.set(k.winner as string, [...(byWinner.get(k.winner as string) ?? []), k.text]);
  const ranked = [...byWinner.entries()].sort((a, b) => b[1].length - a[1].length);
  const total = c.criteria.length;
  const measures = (n: number) => (n === 1 ? 'medida' : 'medidas');
  const [lead, ...rest] = ranked;
  const others = rest.map(([who, wins]) => `${who}: ${wins.join(', ')}`).join('; ');
  if (!rest.length) return `${lead[0]} leva ${lead[1].length} de ${total} ${measures(total)}: ${lead[1].join(', ')}.`;
  if (lead[1].length > rest[0][1].length) return `${lead[0]} leva ${lead[1].length} de ${total} ${measures(total)} (${lead[1].join(', ')}); ${others}.`;
  return `Cada fundo vence em uma parte: ${ranked.map(([who, wins]) => `${who}: ${wins.join(', ')}`).join('; ')}.`;
}
