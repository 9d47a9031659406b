import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { Transport, TransportSubscription } from './transport';

/**
 * The embedded mode's events, outside its process: the in-process bus has no broker another
 * process could subscribe to, so `npm start` (embedded) serves `cota.events.>` on a Unix socket of
 * its own and `npm run events` reads it. One JSON line per event, `{subject, ...payload}`, the
 * lines `npm run events` prints from NATS. The bus is tapped only while a reader is connected.
 */
export interface EventTap {
  path: string;
  close(): Promise<void>;
}

const ALL_EVENTS = 'cota.events.>';
/** Unix socket paths are limited to 104-108 bytes depending on the system. */
export const MAX_SOCKET_PATH = 100;

/** A stored event for a replay (embedded: a row of the feed_events outbox). */
export interface TapReplayEvent {
  subject: string;
  payload: object;
}

/**
 * A reader asks for a replay by writing one line `{"replay_since": "<ISO time>", "pattern": "<subjects>"}`;
 * the tap answers with the stored events since then, one line each, then `{"replay_done": <count>}`.
 */
export interface TapReplayRequest {
  replay_since: string;
  pattern: string;
}
export type TapReplaySource = (since: Date, pattern: string) => Promise<TapReplayEvent[]>;

export async function serveEventTap(transport: Transport, path: string, replay: TapReplaySource | null = null): Promise<EventTap> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) throw new Error(`event socket path is too long for a Unix socket (${path})`);
  await removeStaleSocket(path);
  const readers = new Set<Socket>();
  let subscription: TransportSubscription | null = null;
  const server: Server = createServer((socket) => {
    readers.add(socket);
    socket.on('error', () => socket.destroy());
    let asked = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      asked += chunk;
      const end = asked.indexOf('\n');
      if (end < 0) return;
      const line = asked.slice(0, end);
      asked = '';
      void answerReplay(socket, line, replay);
    });
    socket.on('close', () => {
      readers.delete(socket);
      if (readers.size === 0) {
        subscription?.unsubscribe();
        subscription = null;
      }
    });
    subscription ??= transport.subscribe(ALL_EVENTS, (subject, data) => {
      let line: string;
      try {
        line = JSON.stringify({ subject, ...(JSON.parse(data) as object) }) + '\n';
      } catch {
        return; // not JSON: never an event of the catalog
      }
      // A reader that does not keep up loses lines rather than growing this process's memory.
      for (const r of readers) if (!r.writableNeedDrain) r.write(line);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600); // only this user's processes read the stream
  return {
    path,
    close: async () => {
      subscription?.unsubscribe();
      for (const r of readers) r.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answerReplay(socket: Socket, line: string, replay: TapReplaySource | null): Promise<void> {
  let count = 0;
  try {
    const req = JSON.parse(line) as TapReplayRequest;
    const since = new Date(req.replay_since);
    if (replay && !Number.isNaN(since.getTime())) {
      for (const e of await replay(since, req.pattern)) {
        socket.write(JSON.stringify({ subject: e.subject, ...e.payload }) + '\n');
        count++;
      }
    }
  } catch {
    /* a bad request gets an empty replay */
  }
  socket.write(JSON.stringify({ replay_done: count, stored: replay !== null }) + '\n');
}

/** Asks a connected tap for the stored events since `since` (see TapReplayRequest). */
export function requestTapReplay(socket: Socket, since: Date, pattern: string): void {
  socket.write(JSON.stringify({ replay_since: since.toISOString(), pattern } satisfies TapReplayRequest) + '\n');
}

/** A socket file left by a process that died is removed; one that answers belongs to a running Cota. */
async function removeStaleSocket(path: string): Promise<void> {
  if (!existsSync(path)) return;
  const alive = await new Promise<boolean>((resolve) => {
    const probe = createConnection(path, () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
  if (alive) throw new Error(`another embedded Cota is already serving events at ${path}`);
  unlinkSync(path);
}

/** Connects to a tap and hands each event line to `onLine`; rejects when no embedded Cota serves `path`. */
export function readEventTap(path: string, onLine: (line: string) => void): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let rest = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) onLine(line);
    });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}
