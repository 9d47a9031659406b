import { ALL_WAREHOUSE_EVENTS } from './registry';
import { WAREHOUSE_EVENT_SAMPLES } from './samples';
import { WAREHOUSE_EVENTS_SUBJECTS, warehouseEventBySubject, WarehouseEvents, type WarehouseEventName } from './subjects/warehouse-events';

describe('warehouse change events', () => {
  it('has a valid sample for every event', () => {
    for (const [name, def] of Object.entries(WarehouseEvents) as Array<[WarehouseEventName, (typeof WarehouseEvents)[WarehouseEventName]]>) {
      expect(def.payload.safeParse(WAREHOUSE_EVENT_SAMPLES[name]).success).toBe(true);
    }
    expect(Object.keys(WAREHOUSE_EVENT_SAMPLES).sort()).toEqual(Object.keys(WarehouseEvents).sort());
  });

  it('keeps every subject under the stream subjects, and finds each by subject', () => {
    const prefix = WAREHOUSE_EVENTS_SUBJECTS.replace(/>$/, '');
    for (const def of ALL_WAREHOUSE_EVENTS) {
      expect(def.subject.startsWith(prefix)).toBe(true);
      expect(warehouseEventBySubject(def.subject)).toBe(def);
    }
    expect(warehouseEventBySubject('cota.events.warehouse.unknown.v1')).toBeNull();
  });

  it('refuses a payload missing its natural key', () => {
    const { ticker: _ticker, ...rest } = WAREHOUSE_EVENT_SAMPLES.distributionAnnounced;
    expect(WarehouseEvents.distributionAnnounced.payload.safeParse(rest).success).toBe(false);
  });
});
