import { escapeHtml, renderMarkdown } from './markdown';

const strip = (html: string) => html.replace(/\n/g, '');
const wrap = '<div class="table-wrap" tabindex="0" role="region" aria-label="Tabela (role para ver todas as colunas)">';

describe('renderMarkdown', () => {
  it('shows raw HTML in the answer as text', () => {
    const html = renderMarkdown('<script>alert(1)</script> & "x" <img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;');
    expect(escapeHtml(`a'b`)).toBe('a&#39;b');
  });

  it('renders the tables the narrator writes in a scrolling box, right-aligning number columns', () => {
    const html = strip(renderMarkdown('Veja:\n\n| Ticker | Peso |\n|---|---:|\n| HGLG11 | 36,00% |\n| KNRI11 | 32,74% |'));
    expect(html).toBe(
      `<p>Veja:</p>${wrap}<table><thead><tr><th>Ticker</th><th class="num">Peso</th></tr></thead><tbody><tr><td>HGLG11</td><td class="num">36,00%</td></tr><tr><td>KNRI11</td><td class="num">32,74%</td></tr></tbody></table></div>`,
    );
  });

  it('renders headings from h3, lists, bold, italic and quotes', () => {
    expect(strip(renderMarkdown('## Briefing\n### Mercado\n_Dados até 14/11/2025._\n- **IFIX**: 3.617 pontos\n- **SELIC**: 14,90% a.a.'))).toBe(
      '<h3>Briefing</h3><h4>Mercado</h4><p><em>Dados até 14/11/2025.</em></p><ul><li><strong>IFIX</strong>: 3.617 pontos</li><li><strong>SELIC</strong>: 14,90% a.a.</li></ul>',
    );
    expect(strip(renderMarkdown('> P/VP\n> **P/VP = 1**: igual'))).toBe('<blockquote><p>P/VP<br><strong>P/VP = 1</strong>: igual</p></blockquote>');
  });

  it('keeps line breaks inside a paragraph and splits paragraphs on blank lines', () => {
    expect(strip(renderMarkdown('Linha 1\nLinha 2\n\nFonte: CVM.'))).toBe('<p>Linha 1<br>Linha 2</p><p>Fonte: CVM.</p>');
  });

  it('does not italicize snake_case identifiers', () => {
    expect(renderMarkdown('relatório rel_20261123_030310_dde4c5')).toBe('<p>relatório rel_20261123_030310_dde4c5</p>');
  });

  it('links only http(s) addresses, opened apart from the page', () => {
    expect(renderMarkdown('[Notícia](https://www.exemplo.com.br/a?b=1&c=2) — Fonte')).toBe(
      '<p><a href="https://www.exemplo.com.br/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">Notícia</a> — Fonte</p>',
    );
    expect(renderMarkdown('[x](javascript:alert(1)) [y](data:text/html,oi)')).not.toContain('<a');
    expect(renderMarkdown('[x](https://a.com/"onmouseover="alert(1))')).not.toMatch(/<a[^>]+onmouseover=/);
    expect(renderMarkdown('![x](https://a.com/i.png)')).not.toContain('<img');
  });
});
