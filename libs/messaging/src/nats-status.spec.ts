import { DebugEvents, Events } from 'nats';
import { natsStatusLevel } from './nats-transport';

describe('natsStatusLevel', () => {
  it('keeps the ping timer (every 10 s) and reconnect attempts at debug', () => {
    expect(natsStatusLevel(DebugEvents.PingTimer)).toBe('debug');
    expect(natsStatusLevel(DebugEvents.Reconnecting)).toBe('debug');
  });

  it('warns when the server is lost or errs, and reports the rest at info', () => {
    expect(natsStatusLevel(Events.Disconnect)).toBe('warn');
    expect(natsStatusLevel(Events.Error)).toBe('warn');
    expect(natsStatusLevel(DebugEvents.StaleConnection)).toBe('warn');
    expect(natsStatusLevel(Events.Reconnect)).toBe('info');
    expect(natsStatusLevel(Events.Update)).toBe('info');
  });
});
