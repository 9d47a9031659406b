import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'node:net';
import { InProcessTransport } from './in-process-transport';
import { EventTap, readEventTap, serveEventTap } from './event-tap';

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
});

function subscribed(t: InProcessTransport): boolean {
  return (t as unknown as { listeners: Set<unknown> }).listeners.size > 0;
}
