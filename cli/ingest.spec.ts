import { formatSummary, renderProgress } from './ingest';

describe('ingest CLI output', () => {
  it('draws a progress bar', () => {
    expect(renderProgress({ phase: 'write', done: 1, total: 4, label: 'wh_funds' }, 8)).toBe('[##------] write      25%  wh_funds');
    expect(renderProgress({ phase: 'read', done: 0, total: 0, label: 'x' }, 4)).toContain('[####] read      100%');
  });

  it('summarises rows per table, changes and disagreements', () => {
    const text = formatSummary({
      tables: [
        { table: 'wh_funds', rows: 794, inserted: 0, updated: 0, deleted: 0 },
        { table: 'wh_prices', rows: 10, inserted: 0, updated: 0, deleted: 0 },
      ],
      changes: 0,
      files: [{ file: 'a.csv', rows: 3 }],
      disagreements: [
        { series: 'IFIX', sources: ['araquem', 'opbrreit'], overlap: 10, differing: 2, shifted_one_session: 1, examples: ['2025-03-13: araquem 3188 vs opbrreit 3205'] },
      ],
      notes: ['n'],
      durationMs: 1500,
    });
    expect(text).toContain('wh_funds        794         0         0         0');
    expect(text).toContain('no changes: the warehouse already matched the data folder');
    expect(text).toContain('disagreement IFIX araquem vs opbrreit: 2 of 10 common dates differ (1 match the previous session');
    expect(text).toContain('took 1.5 s');
  });
});
