import type { Report } from '@cota/tools';
import { escapeHtml, renderPlainEmail, renderReportEmail, safeHref } from './render';

const report: Report = {
  report_id: 'rel_20300115_120000_000001',
  kind: 'daily_briefing',
  title: 'Briefing diário de 15/01/2030',
  generated_at: '2030-01-15T12:00:00.000Z',
  parent_report_id: null,
  filters: null,
  sources: ['B3', 'CVM'],
  text: '## Briefing diário de 15/01/2030',
  sections: [
    {
      id: 'mercado',
      title: 'Mercado',
      columns: [],
      rows: [
        { indicador: 'IFIX', valor_formatado: '3.210,55 pts', variacao_formatada: '+0,42%', data: '2030-01-14' },
        { indicador: 'SELIC', valor_formatado: '10,50% a.a.', variacao_formatada: null, data: '2030-01-14' },
      ],
      as_of: '2030-01-14',
      note: null,
    },
    {
      id: 'carteira',
      title: 'Sua carteira',
      columns: [
        { name: 'ticker', type: 'text', label: 'Fundo' },
        { name: 'segmento', type: 'text', label: 'Segmento' },
        { name: 'quantidade', type: 'integer', label: 'Cotas' },
        { name: 'valor', type: 'money', label: 'Valor <atual>' },
      ],
      rows: [
        { ticker: 'HGLG11', segmento: 'Logística', quantidade: 1200, valor: '198765.4' },
        { ticker: 'XPML11', segmento: 'Shoppings & "varejo"', quantidade: 30, valor: null },
      ],
      as_of: '2030-01-14',
      note: null,
    },
    { id: 'proventos', title: 'Proventos', columns: [], rows: [], as_of: null, note: 'Sem proventos anunciados <ainda>.' },
    {
      id: 'noticias',
      title: 'Notícias',
      columns: [],
      rows: [
        { publicada_em: '2030-01-05', ticker: 'HGLG11', titulo: 'Fundo <script>alert(1)</script> renova contrato', fonte: 'Fonte X', url: 'https://exemplo.com/a?x=1&y="2"' },
        { publicada_em: '2030-01-06', ticker: 'XPML11', titulo: 'Link perigoso', fonte: null, url: 'javascript:alert(1)' },
      ],
      as_of: null,
      note: null,
    },
  ],
};

describe('escapeHtml / safeHref', () => {
  it('escapes the five HTML metacharacters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('keeps only absolute http(s) links', () => {
    expect(safeHref('https://exemplo.com/a')).toBe('https://exemplo.com/a');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<b>x</b>')).toBeNull();
    expect(safeHref('//exemplo.com')).toBeNull();
    expect(safeHref(42)).toBeNull();
  });
});

describe('renderReportEmail', () => {
  const { html, text } = renderReportEmail(report);

  it('is a complete pt-BR HTML page with inline styles and no external assets', () => {
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="pt-BR">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Briefing diário de 15/01/2030</title>');
    expect(html).not.toMatch(/<style|<link|<script|<img|\ssrc=|url\(/i);
    // The only URL is the news link.
    expect(html.match(/https?:\/\//g)).toHaveLength(1);
  });

  it('renders the header, market list, portfolio table and notes', () => {
    expect(html).toContain('<h1 style="');
    expect(html).toContain('Relatório rel_20300115_120000_000001, gerado em 15/01/2030');
    expect(html).toContain('<strong>IFIX</strong>: 3.210,55 pts (+0,42% no dia) — 14/01/2030');
    expect(html).toContain('<strong>SELIC</strong>: 10,50% a.a. — 14/01/2030');
    expect(html).toContain('Dados até 14/01/2030.');
    expect(html).toMatch(/<th style="[^"]*text-align:left[^"]*">Fundo<\/th>/);
    expect(html).toMatch(/<th style="[^"]*text-align:right[^"]*">Cotas<\/th>/);
    expect(html).toContain('>Valor &lt;atual&gt;</th>');
    expect(html).toMatch(/<td style="[^"]*text-align:right[^"]*">1\.200<\/td>/);
    expect(html).toContain('>R$ 198.765,40</td>');
    expect(html).toContain('>Shoppings &amp; &quot;varejo&quot;</td>');
    expect(html).toContain('>—</td>');
    expect(html).toContain('Sem proventos anunciados &lt;ainda&gt;.');
    expect(html).toContain('Fontes: B3, CVM.');
  });

  it('escapes report values and links only safe URLs', () => {
    expect(html).not.toContain('<script>');
    expect(html).toContain('Fundo &lt;script&gt;alert(1)&lt;/script&gt; renova contrato');
    expect(html).toContain('<a href="https://exemplo.com/a?x=1&amp;y=%222%22" style="');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<strong>XPML11</strong> · Link perigoso');
  });

  it('has a plain-text part with the same content and no markup', () => {
    expect(text).toContain('Briefing diário de 15/01/2030\n=============================');
    expect(text).toContain('Mercado\n-------\nDados até 14/01/2030.\n- IFIX: 3.210,55 pts (+0,42% no dia) — 14/01/2030');
    expect(text).toContain('- HGLG11 · Segmento: Logística · Cotas: 1.200 · Valor <atual>: R$ 198.765,40');
    expect(text).toContain('- XPML11 · Segmento: Shoppings & "varejo" · Cotas: 30 · Valor <atual>: —');
    expect(text).toContain('Proventos\n---------\nSem proventos anunciados <ainda>.');
    expect(text).toContain('- 05/01/2030 · HGLG11 · Fundo <script>alert(1)</script> renova contrato — Fonte X\n  https://exemplo.com/a?x=1&y=%222%22');
    expect(text).toContain('- 06/01/2030 · XPML11 · Link perigoso\n');
    expect(text).not.toMatch(/\*\*|<\/?(p|td|h\d|strong)\b/);
    expect(text).toMatch(/Enviado pelo Cota a seu pedido\. Este endereço não recebe respostas\.\n$/);
  });

  it('says under the title when the data is more than a few days older than the report', () => {
    expect(text).not.toContain('hoje é');
    const late = renderReportEmail({ ...report, generated_at: '2031-01-20T12:00:00.000Z' });
    expect(late.text.split('\n\n')[1]).toBe('Dados de mercado até 14/01/2030; carteira até 14/01/2030 — hoje é 20/01/2031.');
    expect(late.html).toContain('<strong>Dados de mercado até 14/01/2030; carteira até 14/01/2030 — hoje é 20/01/2031.</strong>');
  });

  it('says so when a filtered report has no sections', () => {
    const empty = renderReportEmail({ ...report, kind: 'filtered', sections: [], sources: [] });
    expect(empty.html).toContain('Nenhum item do relatório corresponde ao filtro.');
    expect(empty.text).toContain('Nenhum item do relatório corresponde ao filtro.');
    expect(empty.html).not.toContain('Fontes:');
  });
});

describe('renderPlainEmail', () => {
  it('sends the stored body as text and escaped in the HTML part', () => {
    const { html, text } = renderPlainEmail('Cota — <Relatório>', '## Título\n\n<b>corpo</b> & mais');
    expect(text).toBe('## Título\n\n<b>corpo</b> & mais\n\n--\nEnviado pelo Cota a seu pedido. Este endereço não recebe respostas.\n');
    expect(html).toContain('<title>Cota — &lt;Relatório&gt;</title>');
    expect(html).toContain('&lt;b&gt;corpo&lt;/b&gt; &amp; mais');
    expect(html).not.toContain('<b>');
  });
});
