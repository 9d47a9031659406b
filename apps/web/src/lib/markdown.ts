/**
 * The answer text as HTML: the small markdown subset the narrator writes (headings, paragraphs,
 * lists, block quotes, tables, **bold**, _italic_, `code`, [links](https://...)). Everything is
 * escaped first, so the only markup in the output is the one made here (attributes: class names and
 * the href of http(s) links). Pure.
 */

export function escapeHtml(s: string): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function inline(escaped: string): string {
  return (
    escaped
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      // [text](https://...): only http(s) links, opened apart from the page.
      .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()<>]+)\)/g, '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,;:!?])/g, '$1<em>$2</em>')
  );
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEP = /^\s*\|(\s*:?-{2,}:?\s*\|)+\s*$/;
const LIST_ITEM = /^\s*([-*•]|\d+[.)])\s+/;

function cells(line: string): string[] {
  return line
    .trim()
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());
}

export function renderMarkdown(text: string): string {
  const lines = escapeHtml(text ?? '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const out: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(`<p>${para.map(inline).join('<br>')}</p>`);
    para = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      flush();
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.max(3, Math.min(6, heading[1].length + 1)); // the page's h1/h2 are its own
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
      i++;
      continue;
    }
    if (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1])) {
      flush();
      const head = cells(line);
      const align = cells(lines[i + 1]).map((c) => (/^:?-+:$/.test(c) ? ' class="num"' : ''));
      i += 2;
      const body: string[][] = [];
      while (i < lines.length && TABLE_ROW.test(lines[i])) body.push(cells(lines[i++]));
      out.push(
        '<div class="table-wrap"><table><thead><tr>' +
          head.map((h, j) => `<th${align[j] ?? ''}>${inline(h)}</th>`).join('') +
          '</tr></thead><tbody>' +
          body.map((r) => '<tr>' + r.map((c, j) => `<td${align[j] ?? ''}>${inline(c)}</td>`).join('') + '</tr>').join('') +
          '</tbody></table></div>',
      );
      continue;
    }
    if (/^\s*&gt;\s?/.test(line)) {
      flush();
      const quoted: string[] = [];
      while (i < lines.length && /^\s*&gt;\s?/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*&gt;\s?/, ''));
      out.push(`<blockquote>${quoted.map((q) => (LIST_ITEM.test(q) ? `• ${inline(q.replace(LIST_ITEM, ''))}` : inline(q))).join('<br>')}</blockquote>`);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      flush();
      const ordered = /^\s*\d+[.)]\s+/.test(line);
      const items: string[] = [];
      while (i < lines.length && LIST_ITEM.test(lines[i])) items.push(lines[i++].replace(LIST_ITEM, ''));
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((it) => `<li>${inline(it)}</li>`).join('')}</${tag}>`);
      continue;
    }
    para.push(line);
    i++;
  }
  flush();
  return out.join('');
}
