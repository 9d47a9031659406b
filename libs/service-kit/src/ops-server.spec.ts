import { IncomingMessage, request } from 'node:http';
import { Registry } from 'prom-client';
import { startOpsServer } from './ops-server';

const TOKEN = 'token-de-operacao-de-teste';

/** A GET with the Authorization headers given, repeated as they are (fetch would join them). */
function rawGet(base: string, path: string, authorizations: string[]): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { headers: ['Host', new URL(base).host, ...authorizations.flatMap((a) => ['Authorization', a])] as unknown as Record<string, string> },
      (res) => {
        res.resume();
        resolve(res);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function withOps(opsToken: string | null, run: (base: string) => Promise<void>): Promise<void> {
  const ops = await startOpsServer({ port: 0, host: '127.0.0.1', opsToken, registry: new Registry(), ready: async () => ({ ok: true, checks: {} }) });
  try {
    await run(`http://127.0.0.1:${ops.port}`);
  } finally {
    await ops.close();
  }
}

describe("a service's metrics/probe port", () => {
  it('serves /metrics only with the ops token as bearer when COTA_OPS_TOKEN is set; health stays open', async () => {
    await withOps(TOKEN, async (base) => {
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer outro-token-qualquer' } })).status).toBe(403);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      expect((await rawGet(base, '/metrics', [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`])).statusCode).toBe(401);
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
      expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    });
  });

  it('serves /metrics openly when no ops token is configured', async () => {
    await withOps(null, async (base) => expect((await fetch(`${base}/metrics`)).status).toBe(200));
  });

  it('listens on the host it is given', async () => {
    const ops = await startOpsServer({ port: 0, host: '127.0.0.1', opsToken: null, registry: new Registry(), ready: async () => ({ ok: true, checks: {} }) });
    try {
      expect(ops.address).toBe('127.0.0.1');
    } finally {
      await ops.close();
    }
  });
});
