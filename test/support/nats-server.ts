import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';

export interface TestNats {
  url: string;
  /** Kills the server (to test outages); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
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
export async function startTestNats(): Promise<TestNats> {
  if (!BINARY) {
    const url = process.env.COTA_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
    return { url, stop: async () => undefined, start: async () => undefined };
  }
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const start = async () => {
    // Core NATS, like deploy/ and docker-compose: nothing uses JetStream, so no store directory.
    proc = spawn(BINARY, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
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
  };
}

/** Removes the JetStream folder after a suite. */
export function cleanupDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
