import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'node:net';
import { InProcessTransport } from './in-process-transport';
import { EventTap, readEventTap, requestTapReplay, serveEventTap } from './event-tap';

/** Waits until `check` holds (the tap and the bus deliver asynchronously). */
async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('event tap (embedded events for `npm run events`)', () => {
  let dir: string;
  let transport: InProcessTransport;
  let tap: EventTap | null = null;
  let reader: Socket | null = null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cota-tap-'));
    transport = new InProcessTransport();
  });
  afterEach(async () => {
    reader?.destroy();
    await tap?.close();
    tap = null;
    await transport.drain();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams each event as one JSON line with its subject, and nothing else of the bus', async () => {
    tap = await serveEventTap(transport, join(dir, 'events.sock'));
    expect(statSync(tap.path).mode & 0o777).toBe(0o600);
    const lines: string[] = [];
    reader = await readEventTap(tap.path, (l) => lines.push(l));
    await until(() => subscribed(transport));
    transport.publish('cota.events.gateway.request-finished.v1', JSON.stringify({ request_id: 'r1', ms: 12 }));
    transport.publish('cota.planner.plan.v1', JSON.stringify({ not: 'an event' }));
    await until(() => lines.length === 1);
    await new Promise((r) => setTimeout(r, 30));
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ subject: 'cota.events.gateway.request-finished.v1', request_id: 'r1', ms: 12 }]);
  });

  it('taps the bus only while a reader is connected', async () => {
    tap = await serveEventTap(transport, join(dir, 'events.sock'));
    expect(subscribed(transport)).toBe(false);
    reader = await readEventTap(tap.path, () => undefined);
    await until(() => subscribed(transport));
    reader.destroy();
    await until(() => !subscribed(transport));
  });

  it('replaces a socket file left by a dead process, refuses one a running Cota serves', async () => {
    const path = join(dir, 'events.sock');
    writeFileSync(path, '');
    tap = await serveEventTap(transport, path);
    expect(existsSync(path)).toBe(true);
    await expect(serveEventTap(new InProcessTransport(), path)).rejects.toThrow(/already serving events/);
  });

  it('tells a reader there is no embedded Cota when nothing serves the path', async () => {
    await expect(readEventTap(join(dir, 'none.sock'), () => undefined)).rejects.toThrow(/ENOENT/);
  });

  it('replays the stored events a reader asks for, then says how many', async () => {
    const asked: Array<[string, string]> = [];
    tap = await serveEventTap(transport, join(dir, 'events.sock'), async (since, pattern) => {
      asked.push([since.toISOString(), pattern]);
      return [{ subject: 'cota.events.warehouse.distribution-announced.v1', payload: { ticker: 'XPML11', amount_per_share: 0.92 } }];
    });
    const lines: string[] = [];
    reader = await readEventTap(tap.path, (l) => lines.push(l));
    requestTapReplay(reader, new Date('2026-11-27T11:00:00Z'), 'cota.events.warehouse.>');
    await until(() => lines.length === 2);
    expect(asked).toEqual([['2026-11-27T11:00:00.000Z', 'cota.events.warehouse.>']]);
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { subject: 'cota.events.warehouse.distribution-announced.v1', ticker: 'XPML11', amount_per_share: 0.92 },
      { replay_done: 1, stored: true },
    ]);
  });

  it('answers an empty replay when nothing is stored', async () => {
    tap = await serveEventTap(transport, join(dir, 'events.sock'));
    const lines: string[] = [];
    reader = await readEventTap(tap.path, (l) => lines.push(l));
    requestTapReplay(reader, new Date(), 'cota.events.warehouse.>');
    await until(() => lines.length === 1);
    expect(JSON.parse(lines[0])).toEqual({ replay_done: 0, stored: false });
  });
});

function subscribed(t: InProcessTransport): boolean {
  return (t as unknown as { listeners: Set<unknown> }).listeners.size > 0;
}
