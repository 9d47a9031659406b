/**
 * Puts an answer's markdown into an element: rendered by marked (lib/markdown.ts), sanitized by
 * DOMPurify. A table wider than the screen scrolls in its box, with a hint above it and shadows at
 * the edges where more columns wait.
 */
import DOMPurify from 'dompurify';
import { renderMarkdown } from '../lib/markdown';
import { h } from './dom';

const PURIFY = {
  ALLOWED_TAGS: [
    'p',
    'br',
    'strong',
    'em',
    'code',
    'pre',
    'a',
    'ul',
    'ol',
    'li',
    'blockquote',
    'h3',
    'h4',
    'h5',
    'h6',
    'div',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'hr',
    'del',
  ],
  ALLOWED_ATTR: ['href', 'target', 'rel', 'class', 'tabindex', 'role', 'aria-label'],
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
};

const HINT = '↔ Deslize a tabela para o lado para ver todas as colunas.';

const tables = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => entries.forEach((e) => markOverflow(e.target as HTMLElement))) : null;

/** Shows the hint and the edge shadows only while the table is wider than its box. */
function markOverflow(wrap: HTMLElement): void {
  const over = wrap.scrollWidth > wrap.clientWidth + 1;
  wrap.classList.toggle('overflowing', over);
  const hint = wrap.previousElementSibling;
  if (hint instanceof HTMLElement && hint.classList.contains('scroll-hint')) hint.hidden = !over;
}

export function setMarkdown(el: HTMLElement, text: string): void {
  el.innerHTML = DOMPurify.sanitize(renderMarkdown(text), PURIFY);
  for (const wrap of Array.from(el.querySelectorAll<HTMLElement>('.table-wrap'))) {
    wrap.tabIndex = 0; // a keyboard can scroll it (the sanitizer keeps no tabindex)
    wrap.before(h('p', { class: 'scroll-hint', hidden: true }, HINT));
    tables?.observe(wrap);
    markOverflow(wrap);
  }
}
