import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, Socket } from 'node:net';

export interface TestNats {
  url: string;
  /** Kills the server (to test outages); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server for good and removes its JetStream store. */
  remove(): Promise<void>;
}

/**
 * A port free to listen on, chosen below the kernel's ephemeral range (32768-60999 on Linux): a port
 * the kernel hands out (listen on 0) can be taken by any outgoing connection of a parallel suite
 * before the server that was meant to have it starts (seen: a gateway's EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port found below the ephemeral range');
}

/** Resolves once something listens on 127.0.0.1:port (a server just spawned). */
export async function waitForPort(port: number, timeoutMs = 10000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((res) => {
      const s = new Socket();
      s.once('connect', () => (s.destroy(), res(true)));
      s.once('error', () => (s.destroy(), res(false)));
      s.connect(port, '127.0.0.1');
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on ${port}`);
}

const BINARY = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));

/**
 * A real NATS server (core NATS) private to one test file, so that suites running at the same
 * time never answer each other's requests. Falls back to the shared one at 127.0.0.1:4222
 * (COTA_TEST_NATS_URL) when no nats-server binary is installed.
 */
export async function startTestNats(opts: { jetstream?: boolean } = {}): Promise<TestNats> {
  if (!BINARY) {
    const url = process.env.COTA_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
    return { url, stop: async () => undefined, start: async () => undefined, remove: async () => undefined };
  }
  const port = await freePort();
  let proc: ChildProcess | null = null;
  // JetStream (the warehouse change events) keeps its store in a folder of its own, kept across stop/start
  // like a real server's volume and removed after the suite; core NATS suites need none.
  const storeDir = opts.jetstream ? mkdtempSync(join(tmpdir(), 'cota-js-')) : null;
  const start = async () => {
    const js = storeDir ? ['-js', '-sd', storeDir] : [];
    proc = spawn(BINARY, ['-a', '127.0.0.1', '-p', String(port), ...js], { stdio: 'ignore' });
    await waitForPort(port);
  };
  const stop = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((res) => {
      p.once('exit', () => res());
      p.kill('SIGKILL');
    });
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop: async () => {
      await stop();
    },
    remove: async () => {
      await stop();
      if (storeDir) cleanupDir(storeDir);
    },
  };
}

/** Removes the JetStream folder after a suite. */
export function cleanupDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
