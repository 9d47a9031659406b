import { changeEvents } from './change-events';
import type { FeedRunResult } from './run-feed';

const run = (changes: FeedRunResult['changes']): FeedRunResult => ({
  source: 'b3-cotahist',
  outcome: 'ok',
  attempts: 1,
  rowsAdded: 1,
  rowsUpdated: 0,
  changes,
  notes: [],
  error: null,
});

describe('change events', () => {
  it("announces an index's close as a series (the IFIX alerts hear it), with the same id for the same close", () => {
    const row = { index_name: 'IFIX', index_date: '2026-11-27', points: '3315.42', var_pct: '-0.8', source: 'b3-cotahist' };
    const [e] = changeEvents(run({ wh_index_history: { inserted: [row], updated: [] } }), new Date('2026-11-27T21:00:00Z'));
    expect(e).toMatchObject({
      name: 'indicatorPublished',
      subject: 'cota.events.warehouse.indicator-published.v1',
      payload: { indicator: 'IFIX', date: '2026-11-27', value: 3315.42, unit: 'pontos', change: 'new', source: 'b3-cotahist' },
    });
    const [again] = changeEvents(run({ wh_index_history: { inserted: [row], updated: [] } }));
    expect(again.payload.event_id).toBe(e.payload.event_id);
  });
});
