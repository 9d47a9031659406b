import { withStaleNote } from './daily-briefing';

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
