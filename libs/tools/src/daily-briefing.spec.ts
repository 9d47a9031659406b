import { withStaleNote } from './daily-briefing';
import { renderReport, stalenessLine } from './render';

describe('the briefing is honest about the calendar', () => {
  const section = { id: 'mercado', title: 'Mercado', columns: [], rows: [], as_of: '2025-11-14', note: null };

  it('says plainly when a section is older than a few days', () => {
    expect(withStaleNote(section, '2026-11-27').note).toBe('Atenção: os dados desta seção vão até 14/11/2025, 378 dias antes de hoje (27/11/2026).');
    expect(withStaleNote({ ...section, note: 'Sem IBOV.' }, '2026-11-27').note).toMatch(/hoje \(27\/11\/2026\)\. Sem IBOV\.$/);
  });

  it('adds nothing to recent data or to a section without a date', () => {
    expect(withStaleNote(section, '2025-11-17').note).toBeNull();
    expect(withStaleNote({ ...section, as_of: null }, '2026-11-27').note).toBeNull();
  });
});

describe("the report's data dates at its top", () => {
  // The briefing of 27/11/2026 over araquem's market rows of 14/11/2025 and the demo portfolio's last prices of 25/06/2025.
  const market = { id: 'mercado', title: 'Mercado', columns: [], rows: [], as_of: '2025-11-14', note: null };
  const portfolio = { id: 'carteira', title: 'Sua carteira', columns: [], rows: [], as_of: '2025-06-25', note: null };
  const news = { id: 'noticias', title: 'Notícias dos seus fundos', columns: [], rows: [], as_of: null, note: null };

  it('names each old date in one line, with today', () => {
    expect(stalenessLine([market, portfolio, news], '2026-11-27')).toBe('Dados de mercado até 14/11/2025; carteira até 25/06/2025 — hoje é 27/11/2026.');
    expect(stalenessLine([portfolio], '2026-11-27')).toBe('Carteira até 25/06/2025 — hoje é 27/11/2026.');
  });

  it('says nothing when the data is a few days old', () => {
    expect(stalenessLine([market], '2025-11-17')).toBeNull();
  });

  it('puts the line right under the title of the rendered report', () => {
    const text = renderReport({
      report_id: 'rel_20261127_120000_abcdef',
      kind: 'daily_briefing',
      title: 'Briefing diário de 27/11/2026',
      generated_at: '2026-11-27T15:00:00.000Z',
      parent_report_id: null,
      filters: null,
      sections: [market, portfolio],
      sources: [],
    });
    expect(text.split('\n\n').slice(0, 2)).toEqual(['## Briefing diário de 27/11/2026', '**Dados de mercado até 14/11/2025; carteira até 25/06/2025 — hoje é 27/11/2026.**']);
  });
});
