import { todayInBrazil } from '@cota/periods';
import { formatDate } from '@cota/text';
import { formatCell } from './format';
import { formatTimeInBrazil } from '@cota/text';
import { Report, ReportSection } from './report';

const cellText = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();

function renderTable(section: ReportSection): string[] {
  const cols = section.columns;
  const lines = [`| ${cols.map((c) => c.label).join(' | ')} |`, `| ${cols.map(() => '---').join(' | ')} |`];
  for (const r of section.rows) lines.push(`| ${cols.map((c) => cellText(formatCell(c.type, r[c.name]))).join(' | ')} |`);
  return lines;
}

function renderMarket(section: ReportSection): string[] {
  return section.rows.map((r) => {
    const variation = r.variacao_formatada ? ` (${r.variacao_formatada} no dia)` : '';
    const when = r.data ? ` — ${formatDate(r.data)}` : '';
    return `- **${r.indicador}**: ${r.valor_formatado}${variation}${when}`;
  });
}

function renderNews(section: ReportSection): string[] {
  return section.rows.map((r) => {
    const title = r.url ? `[${cellText(String(r.titulo))}](${r.url})` : cellText(String(r.titulo));
    const source = r.fonte ? ` — ${r.fonte}` : '';
    return `- ${r.publicada_em ? `${formatDate(r.publicada_em)} · ` : ''}**${r.ticker}** · ${title}${source}`;
  });
}

export function renderSection(section: ReportSection): string {
  const out = [`### ${section.title}`];
  if (section.as_of) out.push(`_Dados até ${formatDate(section.as_of)}._`);
  if (section.note) out.push(section.note);
  if (section.rows.length) {
    if (section.id === 'mercado') out.push(...renderMarket(section));
    else if (section.id === 'noticias') out.push(...renderNews(section));
    else out.push(...renderTable(section));
  }
  return out.join('\n');
}

/** Data older than this many days before the report's day is said at its top, not only in its sections. */
export const STALE_AFTER_DAYS = 5;

const SECTION_DATA: Record<string, string> = { mercado: 'Dados de mercado', carteira: 'carteira', proventos: 'proventos', noticias: 'notícias' };

/**
 * The report's data dates, at its top when any is more than a few days before the day it was made:
 * "Dados de mercado até 14/11/2025; carteira até 25/06/2025 — hoje é 27/11/2026." (null when all are recent).
 */
export function stalenessLine(sections: ReportSection[], today: string): string | null {
  const days = (iso: string) => Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${iso.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
  const stale = sections.filter((s) => s.as_of && days(s.as_of) > STALE_AFTER_DAYS);
  if (!stale.length) return null;
  const parts = stale.map((s, i) => {
    const what = SECTION_DATA[s.id] ?? s.title.toLowerCase();
    return `${i === 0 ? what.charAt(0).toUpperCase() + what.slice(1) : what.charAt(0).toLowerCase() + what.slice(1)} até ${formatDate(s.as_of!)}`;
  });
  return `${parts.join('; ')} — hoje é ${formatDate(today)}.`;
}

/** The pt-BR markdown rendering stored with the report and returned as `result.text`. */
export function renderReport(report: Omit<Report, 'text'>): string {
  const stale = stalenessLine(report.sections, todayInBrazil(new Date(report.generated_at)));
  const head = [
    `## ${report.title}`,
    ...(stale ? [`**${stale}**`] : []),
    `_Relatório ${report.report_id}, gerado em ${formatTimeInBrazil(new Date(report.generated_at))}. Os dados vêm do warehouse do Cota; cada seção mostra até quando vão._`,
  ];
  const body = report.sections.length ? report.sections.map(renderSection) : ['Nenhum item do relatório corresponde ao filtro.'];
  const tail = report.kind === 'daily_briefing' ? ['_Você pode filtrar (ex.: "filtre só os de logística") ou pedir "manda por e-mail"._'] : [];
  return [...head, ...body, ...tail].join('\n\n');
}
