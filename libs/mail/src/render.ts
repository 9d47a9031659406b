import type { Row } from '@cota/contracts';
import { formatDate, formatTimeInBrazil } from '@cota/text';
import { todayInBrazil } from '@cota/periods';
import { formatCell, Report, ReportSection, stalenessLine } from '@cota/tools';

/** The two parts of a report e-mail: self-contained HTML (inline styles, no external assets) and plain text. */
export interface RenderedEmail {
  html: string;
  text: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and (double-quoted) attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Only absolute http(s) links become anchors; anything else (javascript:, data:...) stays text. */
export function safeHref(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!/^https?:\/\/\S+$/i.test(s)) return null;
  try {
    // Re-serialised: quotes and other unsafe characters come out percent-encoded.
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

const NUMERIC = new Set(['integer', 'number', 'money', 'percent', 'ratio']);

/** Inline styles only: mail clients drop <style> blocks and never load external CSS. */
const S = {
  body: 'margin:0;padding:0;background-color:#f4f5f7;',
  wrap: 'max-width:720px;margin:0 auto;padding:24px 16px;',
  card: 'background-color:#ffffff;border:1px solid #e1e4e8;border-radius:6px;padding:24px;font-family:Arial,Helvetica,sans-serif;color:#1f2933;font-size:14px;line-height:1.5;',
  h1: 'margin:0 0 8px 0;font-size:20px;line-height:1.3;color:#102a43;',
  meta: 'margin:0 0 16px 0;font-size:12px;color:#627d98;',
  h2: 'margin:24px 0 4px 0;font-size:16px;color:#102a43;border-bottom:1px solid #e1e4e8;padding-bottom:4px;',
  asOf: 'margin:0 0 8px 0;font-size:12px;color:#627d98;font-style:italic;',
  note: 'margin:0 0 8px 0;color:#52606d;',
  table: 'border-collapse:collapse;width:100%;font-size:13px;',
  th: 'text-align:left;padding:6px 8px;border-bottom:2px solid #d9e2ec;background-color:#f0f4f8;color:#334e68;',
  thNum: 'text-align:right;padding:6px 8px;border-bottom:2px solid #d9e2ec;background-color:#f0f4f8;color:#334e68;',
  td: 'text-align:left;padding:6px 8px;border-bottom:1px solid #eef2f6;vertical-align:top;',
  tdNum: 'text-align:right;padding:6px 8px;border-bottom:1px solid #eef2f6;vertical-align:top;white-space:nowrap;',
  ul: 'margin:0 0 8px 0;padding-left:20px;',
  li: 'margin:0 0 4px 0;',
  a: 'color:#1f6feb;text-decoration:underline;',
  pre: 'margin:0;white-space:pre-wrap;font-family:Arial,Helvetica,sans-serif;',
  footer: 'margin:24px 0 0 0;font-size:12px;color:#829ab1;',
};

const cell = (type: string, v: unknown) => formatCell(type, v).replace(/\s+/g, ' ').trim();
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v).replace(/\s+/g, ' ').trim());

function intro(report: Report): string {
  return `Relatório ${report.report_id}, gerado em ${formatTimeInBrazil(new Date(report.generated_at))}. Os dados vêm do warehouse do Cota; cada seção mostra até quando vão.`;
}

const FOOTER = 'Enviado pelo Cota a seu pedido. Este endereço não recebe respostas.';

function page(title: string, inner: string): string {
  return (
    '<!DOCTYPE html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(title)}</title>\n</head>\n<body style="${S.body}">\n<div style="${S.wrap}">\n<div style="${S.card}">\n` +
    inner +
    `\n<p style="${S.footer}">${escapeHtml(FOOTER)}</p>\n</div>\n</div>\n</body>\n</html>\n`
  );
}

function marketItem(r: Row): { html: string; text: string } {
  const variation = r.variacao_formatada ? ` (${str(r.variacao_formatada)} no dia)` : '';
  const when = r.data ? ` — ${formatDate(r.data)}` : '';
  const rest = `: ${str(r.valor_formatado)}${variation}${when}`;
  return { html: `<strong>${escapeHtml(str(r.indicador))}</strong>${escapeHtml(rest)}`, text: `${str(r.indicador)}${rest}` };
}

function newsItem(r: Row): { html: string; text: string } {
  const when = r.publicada_em ? `${formatDate(r.publicada_em)} · ` : '';
  const source = r.fonte ? ` — ${str(r.fonte)}` : '';
  const title = str(r.titulo);
  const href = safeHref(r.url);
  const titleHtml = href ? `<a href="${escapeHtml(href)}" style="${S.a}">${escapeHtml(title)}</a>` : escapeHtml(title);
  return {
    html: `${escapeHtml(when)}<strong>${escapeHtml(str(r.ticker))}</strong> · ${titleHtml}${escapeHtml(source)}`,
    text: `${when}${str(r.ticker)} · ${title}${source}${href ? `\n  ${href}` : ''}`,
  };
}

function sectionHtml(section: ReportSection): string {
  const out = [`<h2 style="${S.h2}">${escapeHtml(section.title)}</h2>`];
  if (section.as_of) out.push(`<p style="${S.asOf}">Dados até ${escapeHtml(formatDate(section.as_of))}.</p>`);
  if (section.note) out.push(`<p style="${S.note}">${escapeHtml(section.note)}</p>`);
  if (!section.rows.length) return out.join('\n');
  if (section.id === 'mercado' || section.id === 'noticias') {
    const item = section.id === 'mercado' ? marketItem : newsItem;
    out.push(`<ul style="${S.ul}">${section.rows.map((r) => `<li style="${S.li}">${item(r).html}</li>`).join('')}</ul>`);
    return out.join('\n');
  }
  const cols = section.columns;
  const head = cols.map((c) => `<th style="${NUMERIC.has(c.type) ? S.thNum : S.th}">${escapeHtml(c.label)}</th>`).join('');
  const body = section.rows
    .map((r) => `<tr>${cols.map((c) => `<td style="${NUMERIC.has(c.type) ? S.tdNum : S.td}">${escapeHtml(cell(c.type, r[c.name]))}</td>`).join('')}</tr>`)
    .join('\n');
  out.push(`<table role="presentation" cellpadding="0" cellspacing="0" style="${S.table}">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`);
  return out.join('\n');
}

function sectionText(section: ReportSection): string {
  const out = [section.title, '-'.repeat(Math.min(section.title.length, 60))];
  if (section.as_of) out.push(`Dados até ${formatDate(section.as_of)}.`);
  if (section.note) out.push(section.note);
  if (section.id === 'mercado' || section.id === 'noticias') {
    const item = section.id === 'mercado' ? marketItem : newsItem;
    for (const r of section.rows) out.push(`- ${item(r).text}`);
  } else {
    // One line per row: the first column, then "Label: value" for the others.
    const [first, ...rest] = section.columns;
    for (const r of section.rows) {
      if (!first) continue;
      const parts = rest.map((c) => `${c.label}: ${cell(c.type, r[c.name])}`);
      out.push(`- ${[cell(first.type, r[first.name]), ...parts].join(' · ')}`);
    }
  }
  return out.join('\n');
}

const EMPTY = 'Nenhum item do relatório corresponde ao filtro.';

/** HTML and text parts of a stored report (`tool_reports.content`); every value is escaped. */
export function renderReportEmail(report: Report): RenderedEmail {
  const sources = report.sources.length ? `Fontes: ${report.sources.join(', ')}.` : null;
  // Data older than a few days is said right under the title (the e-mail may be read long after).
  const stale = stalenessLine(report.sections, todayInBrazil(new Date(report.generated_at)));
  const htmlParts = [`<h1 style="${S.h1}">${escapeHtml(report.title)}</h1>`];
  if (stale) htmlParts.push(`<p style="${S.note}"><strong>${escapeHtml(stale)}</strong></p>`);
  htmlParts.push(`<p style="${S.meta}">${escapeHtml(intro(report))}</p>`);
  htmlParts.push(...(report.sections.length ? report.sections.map(sectionHtml) : [`<p style="${S.note}">${escapeHtml(EMPTY)}</p>`]));
  if (sources) htmlParts.push(`<p style="${S.footer}">${escapeHtml(sources)}</p>`);

  const textParts = [`${report.title}\n${'='.repeat(Math.min(report.title.length, 60))}`, ...(stale ? [stale] : []), intro(report)];
  textParts.push(...(report.sections.length ? report.sections.map(sectionText) : [EMPTY]));
  if (sources) textParts.push(sources);
  textParts.push(`--\n${FOOTER}`);

  return { html: page(report.title, htmlParts.join('\n')), text: textParts.join('\n\n') + '\n' };
}

/** Fallback when the report itself cannot be read: the stored body (`email_outbox.body`) as is, escaped. */
export function renderPlainEmail(subject: string, body: string): RenderedEmail {
  const html = page(subject, `<h1 style="${S.h1}">${escapeHtml(subject)}</h1>\n<div style="${S.pre}">${escapeHtml(body)}</div>`);
  return { html, text: `${body.trim()}\n\n--\n${FOOTER}\n` };
}
