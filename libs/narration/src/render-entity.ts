import Decimal from 'decimal.js';
import type { Column, QueryResult, Row } from '@cota/contracts';
import { foldWords, STOPWORDS } from '@cota/text';
import { displayLabel, formatColumnValue, formatDate, formatInteger, formatMoney, formatMonth, formatValue, isMissing, MISSING, capitalize, joinPt } from './format';
import { conditionsPhrase, fundsPhrase, mentions, windowPhrase } from './phrases';
import type { NarratorPolicy } from './policy';
import { markdownTable, shorten, TableColumn } from './render-table';
import { fillMessage } from './render-messages';
import { renderText, Resolver } from './template-text';
import { keptPhrase, type EntityTemplate, type WindowUnit } from './templates';

/**
 * Tells an entity's rows: one value becomes a sentence, many rows a lead line and a compact
 * table, rows of several requested funds are grouped by fund, aggregates are phrased as such.
 * Works for any entity from the column types alone; the template makes it read well.
 */

export interface EntityInput {
  question: string;
  nickname: string;
  data: QueryResult;
  template: EntityTemplate | null;
  policy: NarratorPolicy;
}

/** A field's own date and source, read from its row. */
export interface FieldDating {
  date: string;
  monthly: boolean;
  sources: string[];
}

const DEFAULT_UNIT: WindowUnit = { one: 'registro', many: 'registros', gender: 'm' };
const NUMERIC_TYPES = new Set<Column['type']>(['money', 'percent', 'ratio', 'number', 'integer']);
const MAX_CELL_CHARS = 90;
const MAX_DETAIL_CHARS = 320;

export class EntityRenderer {
  private readonly columns: Map<string, Column>;
  private readonly normalizedQuestion: string;
  private readonly tpl: EntityTemplate | null;
  private readonly key: string | null;

  constructor(private readonly input: EntityInput) {
    this.columns = new Map(input.data.columns.map((c) => [c.name, c]));
    this.normalizedQuestion = foldWords(input.question);
    this.tpl = input.template;
    const key = this.tpl ? this.tpl.key : 'ticker';
    this.key = key && (this.columns.has(key) || input.data.rows.some((r) => key in r)) ? key : null;
  }

  render(): string {
    const { data } = this.input;
    const agg = data.params.agg;
    if ((agg === 'avg' || agg === 'sum' || agg === 'count') && data.rows.length > 0) return this.renderAggregates(agg);

    const requested = requestedTickers(data);
    if (this.key && requested.length > 0) return this.renderByFund(requested);
    if (data.rows.length === 1) return this.renderOneRow(data.rows[0], data.rows);
    // (a list asked about one field leads with that field over the whole list: the portfolio's total result)
    const fieldLead = this.matchedFocus().find((f) => f.lead_all)?.lead_all;
    const lead =
      (fieldLead ? this.text(fieldLead, data.rows, data.rows[0]) : null) ??
      this.text(this.tpl?.many_rows.lead_all ?? '{subject}: {count} registros[ {window}].', data.rows, data.rows[0]);
    return [lead ?? '', this.table(data.rows, true)].filter(Boolean).join('\n\n');
  }

  /**
   * The one row's answer dates itself when every field the question asked carries its own date
   * (`dated_by`): "cotistas" is CVM's report of its month, not the registry snapshot's day.
   */
  ownDating(): FieldDating | null {
    const { rows } = this.input.data;
    const asked = this.matchedFocus();
    if (rows.length !== 1 || asked.length === 0 || !asked.every((f) => f.dated_by)) return null;
    const row = rows[0];
    const datings = asked.map((f) => f.dated_by!).filter((d) => !isMissing(row[d.date]));
    const dates = [...new Set(datings.map((d) => String(row[d.date]).slice(0, 10)))];
    if (datings.length !== asked.length || dates.length !== 1) return null;
    const sources = datings.map((d) => (d.source && !isMissing(row[d.source]) ? String(row[d.source]) : null)).filter((x): x is string => !!x);
    return { date: dates[0], monthly: datings.every((d) => d.grain === 'month'), sources: [...new Set(sources)] };
  }

  // ---- funds ---------------------------------------------------------------------------------

  private renderByFund(requested: string[]): string {
    const groups = groupBy(this.input.data.rows, (r) => String(r[this.key!] ?? ''));
    const missing = requested.filter((t) => !groups.has(t));
    const body = this.renderGroups(requested, groups);
    if (missing.length === 0) return body;
    // A fund asked for but absent from the rows is said, never silently skipped: left out by the
    // screen's criterion ("desses, só os com p/vp abaixo de 0,8"), or without data.
    const params = this.input.data.params;
    const filters = Object.entries(params.filters)
      .filter(([k]) => k === 'sector' || k === 'fund_type')
      .map(([, v]) => v);
    const conditions = conditionsPhrase(params.conditions, this.input.data.columns);
    if (filters.length || conditions) {
      const outside = fillMessage(this.input.policy.messages.problems.outside_criterion, { funds: joinPt(missing), filters: filters.length ? joinPt(filters) : null, conditions });
      return `${body}\n\n${outside}`;
    }
    const note = fillMessage(this.input.policy.messages.problems.no_data, {
      subject: this.tpl?.subject ?? 'dados',
      funds: fundsPhrase(missing),
      window: windowPhrase(this.input.data.params.window, this.tpl?.window_unit ?? DEFAULT_UNIT),
    });
    return `${body}\n\n${note}`;
  }

  private renderGroups(requested: string[], groups: Map<string, Row[]>): string {
    const order = [...requested.filter((t) => groups.has(t)), ...[...groups.keys()].filter((t) => !requested.includes(t))];
    if (order.length === 1) return this.renderFund(groups.get(order[0])!);
    if (order.every((t) => groups.get(t)!.length === 1)) {
      const answers = order.map((t) => this.renderOneRow(groups.get(t)![0], groups.get(t)!));
      // One sentence per fund reads as a list; a summary with its own lines cannot sit in a bullet.
      if (answers.every((a) => !a.includes('\n'))) return answers.map((a) => `- ${a}`).join('\n');
      return order.map((t, i) => `**${t}**\n\n${answers[i]}`).join('\n\n');
    }
    return order
      .map((t) => {
        const rows = groups.get(t)!;
        const name = this.fundName(rows[0]);
        return `**${t}**${name ? ` (${name})` : ''}\n\n${this.renderFund(rows)}`;
      })
      .join('\n\n');
  }

  private renderFund(rows: Row[]): string {
    if (rows.length === 1) return this.renderOneRow(rows[0], rows);
    const named = this.namedRow(rows);
    if (named) return this.renderOneRow(named, [named]);
    if (rows.length < this.input.policy.tables.table_from_rows) {
      return rows.map((r) => `- ${this.renderOneRow(r, [r])}`).join('\n');
    }
    // (a fund's own figure for the field asked leads its rows: "a vacância do XPML11", then each property's)
    const fieldLead = this.matchedFocus().find((f) => f.lead)?.lead;
    const lead =
      (fieldLead ? this.text(fieldLead, rows, rows[0]) : null) ?? this.text(this.tpl?.many_rows.lead ?? '{subject} {fund}: {count} registros[ {window}].', rows, rows[0]);
    return [lead ?? '', this.table(rows, false)].filter(Boolean).join('\n\n');
  }

  /**
   * The one row of a fund's list the question names ("a ocupação do Condomínio SJC do HGLG11"): the row whose own
   * name words (those no other row's name has) the question says, at least half of them; null when none or a tie.
   */
  private namedRow(rows: Row[]): Row | null {
    const col = this.tpl?.row_name_column;
    if (!col) return null;
    const names = rows.map(
      (r) =>
        new Set(
          foldWords(String(r[col] ?? ''))
            .split(' ')
            .filter((w) => w.length >= 3 && !/\d/.test(w) && !STOPWORDS.has(w)),
        ),
    );
    const count = new Map<string, number>();
    for (const n of names) for (const w of n) count.set(w, (count.get(w) ?? 0) + 1);
    const asked = new Set(this.normalizedQuestion.split(' '));
    const hits = names.map((n) => {
      const own = [...n].filter((w) => count.get(w) === 1);
      const said = own.filter((w) => asked.has(w)).length;
      return said > 0 && said * 2 >= own.length ? said : 0;
    });
    const best = Math.max(...hits);
    return best > 0 && hits.filter((h) => h === best).length === 1 ? rows[hits.indexOf(best)] : null;
  }

  private fundName(row: Row): string | null {
    const col = this.tpl?.name_column;
    if (!col || isMissing(row[col])) return null;
    return formatValue(row[col], 'text');
  }

  // ---- one row -------------------------------------------------------------------------------

  private renderOneRow(row: Row, scope: Row[]): string {
    const parts: string[] = [];
    const unanswered: EntityTemplate['focus'] = [];
    for (const f of this.matchedFocus()) {
      const s = this.text(f.sentence, scope, row) ?? (f.fallback ? this.text(f.fallback, scope, row) : null);
      if (s && !parts.includes(s)) parts.push(s);
      if (!s) unanswered.push(f);
    }
    const focusAnswered = parts.length > 0;
    if (parts.length === 0 && this.tpl) {
      for (const sentence of this.tpl.one_row.sentences) {
        if (parts.length >= this.tpl.one_row.max_sentences) break;
        const s = this.text(sentence, scope, row);
        if (s) parts.push(s);
      }
    }
    const focused = focusAnswered;
    // The field asked for is missing ("cap rate do HGLG11"): say so before what the row does have.
    const missingNote = unanswered.length > 0 ? this.missingFieldNote(row, unanswered) : null;
    const detailColumns = focused ? [] : (this.tpl?.one_row.details ?? []);
    const details = this.detailLines(row, detailColumns);
    if (!focused && detailColumns.length > 0 && details.length === 0 && this.tpl?.one_row.empty) {
      // A lead like "Indicadores de risco do X:" with nothing after it would read as broken.
      return this.text(this.tpl.one_row.empty, scope, row) ?? this.genericRow(row);
    }
    if (parts.length === 0 && details.length === 0) return [missingNote, this.genericRow(row)].filter(Boolean).join('\n\n');
    return [missingNote, parts.join(' '), details.join('\n')].filter(Boolean).join('\n\n');
  }

  private missingFieldNote(row: Row, asked: EntityTemplate['focus']): string | null {
    const labels = [...new Set(asked.flatMap((f) => f.columns))]
      .filter((c) => c !== this.key && this.columns.has(c) && isMissing(row[c]))
      .map((c) => `"${displayLabel(this.columns.get(c)!.label)}"`);
    if (labels.length === 0) return null;
    const ticker = this.key && !isMissing(row[this.key]) ? [String(row[this.key])] : [];
    return fillMessage(this.input.policy.messages.problems.no_data, {
      subject: labels.length === 1 ? `o dado ${labels[0]}` : `os dados ${joinPt(labels)}`,
      funds: ticker.length ? fundsPhrase(ticker) : null,
      window: null,
    });
  }

  private matchedFocus(): EntityTemplate['focus'] {
    return (this.tpl?.focus ?? []).filter((f) => f.keywords.some((k) => mentions(this.normalizedQuestion, k)));
  }

  private detailLines(row: Row, columns: string[]): string[] {
    return columns.filter((c) => this.columns.has(c) && !isMissing(row[c])).map((c) => `- ${displayLabel(this.columns.get(c)!.label)}: ${this.cell(row, c, MAX_DETAIL_CHARS)}`);
  }

  /** Any entity, no template: a lead and "Label: value" lines of what the row has. */
  private genericRow(row: Row): string {
    const subject = this.tpl?.subject ?? 'Dados';
    const ticker = this.key && !isMissing(row[this.key]) ? ` ${fundsPhrase([String(row[this.key])])}` : '';
    const lines = this.visibleColumns()
      .filter((c) => c.name !== this.key && !isMissing(row[c.name]))
      .map((c) => `- ${displayLabel(c.label)}: ${this.cell(row, c.name, MAX_DETAIL_CHARS)}`);
    return `${capitalize(subject)}${ticker}:\n\n${lines.join('\n')}`;
  }

  // ---- many rows -----------------------------------------------------------------------------

  private table(rows: Row[], withKey: boolean): string {
    const { tables } = this.input.policy;
    let names = this.tableColumnNames();
    // The column the rows are ordered by is what the person asked about ("maiores DY").
    const orderBy = this.input.data.params.order_by;
    const hiddenColumns = new Set(tables.hidden_columns);
    if (orderBy && this.columns.has(orderBy) && orderBy !== this.tpl?.date_column && !names.includes(orderBy) && !hiddenColumns.has(orderBy)) {
      names = [...names.slice(0, 1), orderBy, ...names.slice(1)];
    }
    if (withKey && this.key && !names.includes(this.key)) names = [this.key, ...names];
    if (!withKey && this.key) names = names.filter((n) => n !== this.key);
    // A column with no value in any shown row ("Data de pagamento: —" all the way down) is noise.
    const shown = rows.slice(0, tables.max_rows);
    const filled = names.filter((n) => shown.some((r) => !isMissing(r[n])));
    if (filled.length > 0) names = filled;
    // Nor is one that repeats an earlier column row by row (adjusted close = close in recent sessions).
    names = names.filter((n, i) => !names.slice(0, i).some((m) => shown.every((r) => String(r[n] ?? '') === String(r[m] ?? ''))));
    names = names.slice(0, tables.max_columns);
    const cols: TableColumn[] = names.map((n) => {
      const c = this.columns.get(n);
      return { label: c ? displayLabel(c.label) : n, align: c && NUMERIC_TYPES.has(c.type) ? 'right' : 'left' };
    });
    const body = shown.map((r) => names.map((n) => this.cell(r, n, MAX_CELL_CHARS)));
    const out = [markdownTable(cols, body)];
    const hidden = rows.length - shown.length;
    if (hidden > 0) out.push(this.input.policy.messages.more_rows.replace('{count}', formatInteger(hidden)));
    else if (this.input.data.truncated && /^(year|months|days):/.test(this.input.data.params.window ?? '')) {
      // The query stopped at its row limit: the table is not the whole period the lead names.
      const note = fillMessage(this.input.policy.messages.truncated_rows, {
        count: formatInteger(this.input.data.rows.length),
        window: windowPhrase(this.input.data.params.window, this.tpl?.window_unit ?? DEFAULT_UNIT),
      });
      if (note) out.push(note);
    }
    return out.join('\n\n');
  }

  private tableColumnNames(): string[] {
    const focus = this.matchedFocus().flatMap((f) => f.columns);
    const base = focus.length > 0 ? focus : (this.tpl?.many_rows.columns ?? []);
    // The values behind the list's order come with it, after the fund's name.
    const orderBy = this.input.data.params.order_by;
    const byOrder = orderBy ? (this.tpl?.many_rows.by_order[orderBy] ?? []) : [];
    const lead: string[] = base.filter((n) => n === 'ticker' || n === 'display_name');
    const fromTemplate = byOrder.length ? [...lead, ...byOrder, ...base.filter((n) => !lead.includes(n))] : base;
    const present = fromTemplate.filter((n) => this.columns.has(n));
    if (present.length > 0) return [...new Set(present)];
    return this.visibleColumns().map((c) => c.name);
  }

  private visibleColumns(): Column[] {
    const hidden = new Set(this.input.policy.tables.hidden_columns);
    return this.input.data.columns.filter((c) => !hidden.has(c.name));
  }

  /** Monthly series show their month columns as "dezembro de 2024", never "01/12/2024". */
  private isMonthColumn(name: string): boolean {
    if (!this.tpl) return false;
    return (this.tpl.monthly && name === this.tpl.date_column) || this.tpl.month_columns.includes(name);
  }

  private cell(row: Row, name: string, max: number): string {
    const col = this.columns.get(name);
    const value = row[name];
    if (isMissing(value)) return MISSING;
    const text = this.isMonthColumn(name) ? formatMonth(value) : formatColumnValue(value, col);
    // A cut URL is a broken link.
    return col?.type === 'url' ? text : shorten(text, max);
  }

  // ---- aggregates ----------------------------------------------------------------------------

  private renderAggregates(agg: 'avg' | 'sum' | 'count'): string {
    const rows = this.input.data.rows;
    const lines = rows.map((row) => {
      const valueCol = this.aggregateColumn(agg, row);
      const phrase = this.tpl?.aggregates?.[agg];
      if (valueCol && phrase) {
        const value = this.aggregateValue(agg, row, valueCol);
        const s = this.text(phrase, [row], row, { value });
        if (s) return s;
      }
      return this.genericRow(row);
    });
    return lines.length === 1 ? lines[0] : lines.map((l) => `- ${l}`).join('\n');
  }

  /**
   * The column holding the aggregate (libs/warehouse buildAggregate: key columns, period_start,
   * period_end, row_count, then each aggregatable column under its own name).
   */
  private aggregateColumn(agg: string, row: Row): string | null {
    // The executor names an avg/sum after the column it aggregates and a count `row_count`.
    if (agg === 'count') return 'row_count' in row ? 'row_count' : null;
    const measure = this.tpl?.aggregates?.measure ?? '';
    return measure && measure in row ? measure : null;
  }

  private aggregateValue(agg: string, row: Row, column: string): string | null {
    const value = row[column];
    if (isMissing(value)) return null;
    if (agg === 'count') return formatInteger(value);
    const measure = this.tpl?.aggregates?.measure;
    const col = this.columns.get(column) ?? (measure ? this.columns.get(measure) : undefined);
    const type = col?.type ?? 'number';
    if (col && type !== 'integer') return formatColumnValue(value, col);
    return formatValue(value, type === 'integer' ? 'number' : type);
  }

  // ---- values --------------------------------------------------------------------------------

  /** `{col|sum}`: total of a numeric column; `{col|max}`: greatest value (newest date). Null when none. */
  private overRows(scope: Row[], name: string, modifier: 'sum' | 'max'): string | null {
    const col = this.columns.get(name);
    const values = scope.map((r) => r[name]).filter((v) => !isMissing(v));
    if (!col || values.length === 0) return null;
    if (modifier === 'max') {
      const numeric = NUMERIC_TYPES.has(col.type);
      const best = values.reduce((a, b) => (numeric ? (Number(b) > Number(a) ? b : a) : String(b) > String(a) ? b : a));
      return formatColumnValue(best, col);
    }
    if (!NUMERIC_TYPES.has(col.type)) return null;
    const total = values.reduce((acc: Decimal, v) => acc.plus(new Decimal(String(v))), new Decimal(0));
    return formatColumnValue(total.toString(), col);
  }

  private text(template: string, scope: Row[], row: Row, extra: Record<string, string | null> = {}): string | null {
    const s = renderText(template, this.resolver(scope, row, extra));
    // A sentence made only of optional segments that all dropped out says nothing.
    return s === null || !/\p{L}/u.test(s) ? null : capitalize(s);
  }

  private resolver(scope: Row[], row: Row, extra: Record<string, string | null>): Resolver {
    const data = this.input.data;
    const dateCol = this.tpl?.date_column ?? null;
    const dates = () =>
      dateCol
        ? scope
            .map((r) => r[dateCol])
            .filter((v) => !isMissing(v))
            .map((v) => String(v))
            .sort()
        : [];
    const fmtDate = (v: string | undefined) => (v === undefined ? null : this.tpl?.monthly ? formatMonth(v) : formatDate(v));
    return (name, modifier) => {
      if (name in extra) return extra[name];
      switch (name) {
        case 'fund': {
          if (!this.key || isMissing(row[this.key])) return null;
          const fundName = this.fundName(row);
          return fundName ? `${row[this.key]} (${fundName})` : String(row[this.key]);
        }
        case 'count':
          return formatInteger(scope.length);
        case 'window':
          return windowPhrase(data.params.window, this.tpl?.window_unit ?? DEFAULT_UNIT);
        case 'first_date':
          return fmtDate(dates()[0]);
        case 'last_date':
          return fmtDate(dates().at(-1));
        case 'subject':
          return this.tpl?.subject ?? 'os dados';
        case 'nickname':
          return this.input.nickname.trim() || null;
        case 'funds': {
          const tickers = this.key
            ? [
                ...new Set(
                  scope
                    .map((r) => r[this.key!])
                    .filter((v) => !isMissing(v))
                    .map(String),
                ),
              ]
            : [];
          return tickers.length ? joinPt(tickers) : null;
        }
        case 'order': {
          const by = data.params.order_by;
          const col = by && by !== dateCol ? this.columns.get(by) : undefined;
          return col ? orderPhrase(col.label) : null;
        }
        case 'filters': {
          const values = Object.values(data.params.filters ?? {});
          return values.length ? joinPt(values) : null;
        }
        case 'kept':
          return keptPhrase(this.tpl, data.params.filters);
        case 'conditions':
          // "P/VP abaixo de 1,00", "valor de mercado acima de R$ 1,00 bilhão": the screen said as asked.
          return conditionsPhrase(data.params.conditions, data.columns);
        default: {
          if (modifier === 'sum' || modifier === 'max') return this.overRows(scope, name, modifier);
          if (!(name in row) || isMissing(row[name])) return null;
          if (modifier === 'month' || this.isMonthColumn(name)) return formatMonth(row[name]);
          // A value's own source (a column holding a source id): the publisher a person knows, never a nickname.
          if (modifier === 'source') return this.input.policy.sources[String(row[name])] ?? null;
          if (modifier === 'vs_one') {
            // Read at the precision shown: a P/VP of 0,999 is shown as 1,00 and so is "igual".
            const r = Math.round(Number(row[name]) * 100);
            return Number.isFinite(r) ? (r < 100 ? 'abaixo' : r > 100 ? 'acima' : 'igual') : null;
          }
          const col = this.columns.get(name);
          const text = formatColumnValue(row[name], col);
          // (in a sentence a large amount also says its exact figure, as measure answers do: "R$ 7,97 milhões (R$ 7.965.830,56)")
          const exact = col?.type === 'money' && Math.abs(Number(row[name])) >= 1e6 ? ` (${formatMoney(row[name])})` : '';
          return modifier === 'lower' ? text.toLowerCase() : `${text}${exact}`;
        }
      }
    };
  }
}

/** Tickers the query asked for, in the order the person wrote them. */
export function requestedTickers(data: QueryResult): string[] {
  const list = data.params.tickers.length ? data.params.tickers : data.params.ticker ? [data.params.ticker] : [];
  return [...new Set(list)];
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** "Ranking por DY 12 meses" -> "DY 12 meses"; "Valor de mercado (R$)" -> "valor de mercado". */
function orderPhrase(label: string): string {
  const bare = displayLabel(label).replace(/^(ranking|posição|posicao)\s+(por|de|no|na)\s+/i, '');
  return /^\p{Lu}\p{Ll}/u.test(bare) ? bare.charAt(0).toLowerCase() + bare.slice(1) : bare;
}
