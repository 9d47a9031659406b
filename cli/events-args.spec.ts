import { parseEventsArgs, parseSince } from './events-args';

describe('npm run events arguments', () => {
  const now = new Date('2026-11-27T12:00:00Z');

  it('reads durations and dates for --since', () => {
    expect(parseSince('1h', now).toISOString()).toBe('2026-11-27T11:00:00.000Z');
    expect(parseSince('30m', now).toISOString()).toBe('2026-11-27T11:30:00.000Z');
    expect(parseSince('2d', now).toISOString()).toBe('2026-11-25T12:00:00.000Z');
    expect(parseSince('2026-11-20T08:00:00Z', now).toISOString()).toBe('2026-11-20T08:00:00.000Z');
    expect(() => parseSince('ontem', now)).toThrow(/não é uma duração/);
  });

  it('defaults to the live tail of every event, and to the change events when replaying', () => {
    expect(parseEventsArgs([], now)).toEqual({ pattern: 'cota.events.>', since: null, follow: false });
    expect(parseEventsArgs(['cota.events.gateway.>'], now).pattern).toBe('cota.events.gateway.>');
    expect(parseEventsArgs(['--since', '1h'], now)).toEqual({ pattern: 'cota.events.warehouse.>', since: new Date('2026-11-27T11:00:00Z'), follow: false });
    expect(parseEventsArgs(['--since', '1h', '--subject', 'cota.events.warehouse.price-closed.v1', '--follow'], now)).toMatchObject({
      pattern: 'cota.events.warehouse.price-closed.v1',
      follow: true,
    });
    expect(() => parseEventsArgs(['--since'], now)).toThrow(/precisa de um valor/);
    expect(() => parseEventsArgs(['--desde', '1h'], now)).toThrow(/opção desconhecida/);
  });
});
