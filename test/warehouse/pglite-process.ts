import { ChildProcess, spawn } from 'node:child_process';

/**
 * PGlite (the embedded Postgres, with the unaccent extension as embedded mode loads it) served over a socket from a child Node process. Jest's VM cannot
 * run PGlite's own dynamic imports, so the server runs outside it; the code under test connects
 * with the same pg/TypeORM path the embedded launcher uses.
 */
export async function startPgliteProcess(): Promise<{ url: string; stop(): Promise<void> }> {
  const script = `
    const { PGlite } = require('@electric-sql/pglite');
    const { unaccent } = require('@electric-sql/pglite/contrib/unaccent');
    const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
    (async () => {
      const db = await PGlite.create('memory://', { extensions: { unaccent } });
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
      await server.start();
      process.stdout.write('URL postgres://postgres@' + server.getServerConn() + '/postgres\\n');
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('PGlite did not start in 60 s')), 60000);
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = /URL (\S+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`PGlite process exited with ${code}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      await new Promise<void>((r) => {
        child.once('exit', () => r());
        child.kill('SIGKILL');
      });
    },
  };
}
