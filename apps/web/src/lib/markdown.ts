/**
 * The answer text as HTML, rendered by marked (GitHub-flavoured markdown: the narrator's headings,
 * lists, block quotes, tables, bold, italic, code and links). Raw HTML in the text is shown as text,
 * links are kept only for http(s) and open apart from the page, headings start at h3 (the page's h1/h2
 * are its own) and tables scroll inside a labelled box. The browser sanitizes the result again with
 * DOMPurify before it reaches the page (ui/markdown-view.ts). Pure.
 */
import { Marked, Tokens } from 'marked';

export function escapeHtml(s: string): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const SAFE_HREF = /^https?:\/\/[^\s"'<>]+$/i;

const marked = new Marked({
  gfm: true,
  // A single line break inside a paragraph is kept (the narrator writes one fact per line).
  breaks: true,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Heading): string {
      const level = Math.max(3, Math.min(6, token.depth + 1));
      return `<h${level}>${this.parser.parseInline(token.tokens)}</h${level}>`;
    },
    link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Link): string {
      const text = this.parser.parseInline(token.tokens);
      if (!SAFE_HREF.test(token.href)) return text;
      return `<a href="${escapeHtml(token.href)}" target="_blank" rel="noopener noreferrer">${text}</a>`;
    },
    image(token: Tokens.Image): string {
      return escapeHtml(token.text);
    },
    table(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Table): string {
      const cell = (c: Tokens.TableCell, tag: 'th' | 'td') => `<${tag}${c.align === 'right' ? ' class="num"' : ''}>${this.parser.parseInline(c.tokens)}</${tag}>`;
      const head = `<thead><tr>${token.header.map((c) => cell(c, 'th')).join('')}</tr></thead>`;
      const body = `<tbody>${token.rows.map((r) => `<tr>${r.map((c) => cell(c, 'td')).join('')}</tr>`).join('')}</tbody>`;
      // Focusable, so a keyboard can scroll a table wider than the screen.
      return `<div class="table-wrap" tabindex="0" role="region" aria-label="Tabela (role para ver todas as colunas)"><table>${head}${body}</table></div>`;
    },
  },
});

export function renderMarkdown(text: string): string {
  return (marked.parse(String(text ?? '').replace(/\r\n?/g, '\n'), { async: false }) as string).trim();
}
