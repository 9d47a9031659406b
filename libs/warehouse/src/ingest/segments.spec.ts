import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { policiesDir } from '@cota/config';
import { CANONICAL_SEGMENTS, mapSegment } from './segments';

describe('segments', () => {
  it('maps every source label to one canonical segment', () => {
    expect(mapSegment('Hotéis')).toEqual({ segment: 'Hotelaria', generic: false });
    expect(mapSegment('Títulos e Val. Mob.')).toEqual({ segment: 'Recebíveis', generic: false });
    expect(mapSegment('Multicategoria')).toEqual({ segment: 'Híbrido', generic: true });
    expect(mapSegment('nada disso')).toBeNull();
  });

  // The planner filters rankings by these names: one it cannot find in the warehouse answers "no data".
  it('the planner’s sector filters name canonical segments only', () => {
    const policy = parse(readFileSync(join(policiesDir(), 'param_inference.yaml'), 'utf8')) as { filters: { sector: Record<string, string[]> } };
    const unknown = Object.keys(policy.filters.sector).filter((s) => !CANONICAL_SEGMENTS.includes(s));
    expect(unknown).toEqual([]);
  });
});
