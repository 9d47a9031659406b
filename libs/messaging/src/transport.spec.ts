import { subjectMatches } from './transport';

describe('subjectMatches (NATS wildcard semantics)', () => {
  it.each([
    ['cota.events.>', 'cota.events.planner.planned.v1', true],
    ['cota.events.>', 'cota.events', false],
    ['cota.events.*.planned.v1', 'cota.events.planner.planned.v1', true],
    ['cota.events.*.planned.v1', 'cota.events.planner.x.planned.v1', false],
    ['cota.a', 'cota.a', true],
    ['cota.a', 'cota.a.b', false],
  ])('%s ~ %s -> %s', (p, s, expected) => {
    expect(subjectMatches(p, s)).toBe(expected);
  });
});
