/** Compact markdown tables for the chat page (and readable as plain text). */

export interface TableColumn {
  label: string;
  /** Numbers read better right-aligned. */
  align: 'left' | 'right';
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function markdownTable(columns: TableColumn[], rows: string[][]): string {
  const head = `| ${columns.map((c) => escapeCell(c.label)).join(' | ')} |`;
  const rule = `|${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join('|')}|`;
  const body = rows.map((r) => `| ${r.map(escapeCell).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

/** Long texts (news summaries, legal facts) are cut at a word boundary inside tables. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
