import { createServer, Server } from 'node:http';
import { Gauge, Registry } from 'prom-client';
import type { Readiness } from './health';
import { opsBearer } from './ops-token';

export interface OpsServer {
  /** The port it listens on (the real one when asked for port 0). */
  port: number;
  /** The interface it listens on (COTA_METRICS_HOST). */
  address: string;
  close(): Promise<void>;
}

/**
 * The small HTTP port of a NATS-only service (COTA_METRICS_PORT, or its default, on COTA_METRICS_HOST):
 * Prometheus metrics at GET /metrics, behind the ops token as bearer when COTA_OPS_TOKEN is set (like the
 * gateway's /metrics), and the open Kubernetes probes: GET /health/live (the process answers) and
 * GET /health/ready (the service's own health checks: NATS, Postgres/Redis it uses, its extras).
 */
export async function startOpsServer(opts: {
  port: number;
  host: string;
  opsToken: string | null;
  registry: Registry;
  /** The service's readiness checks, run (ReadinessProbe). */
  ready: () => Promise<Readiness>;
  /** Extra JSON reads behind the ops token, by path (the ingest worker's /ops/feeds). */
  routes?: Record<string, () => Promise<unknown>>;
}): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method not allowed' });
    if (path === '/health/live') return json(200, { status: 'ok' });
    if (path === '/health/ready') {
      void opts.ready().then(
        (r) => json(r.ok ? 200 : 503, { status: r.ok ? 'ready' : 'not_ready', checks: r.checks }),
        () => json(503, { status: 'not_ready' }),
      );
      return;
    }
    const route = opts.routes?.[path];
    if (route) {
      // Like the gateway's /ops/*: closed when COTA_OPS_TOKEN is unset.
      const token = opsBearer(req, opts.opsToken);
      if (token === 'open') return json(404, { error: 'not found' });
      if (token === 'missing') return json(401, { error: "envie o token de operação em 'Authorization: Bearer <token>'" });
      if (token === 'wrong') return json(403, { error: 'token de operação inválido' });
      void route().then(
        (body) => json(200, body),
        () => json(503, { error: 'indisponível' }),
      );
      return;
    }
    if (path === '/metrics') {
      const token = opsBearer(req, opts.opsToken);
      if (token === 'missing') return json(401, { error: "envie o token de operação em 'Authorization: Bearer <token>'" });
      if (token === 'wrong') return json(403, { error: 'token de operação inválido' });
      void opts.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': opts.registry.contentType });
          res.end(text);
        },
        () => json(500, { error: 'metrics unavailable' }),
      );
      return;
    }
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    address: typeof address === 'object' && address ? address.address : opts.host,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * `cota_service_ready{service}` (1 ready, 0 not) and `cota_health_check_ok{service,check}`: the
 * readiness probe's answer at each scrape, so an alert sees a service that Kubernetes took out of
 * rotation. One per registry (a service's own; not registered in the shared embedded one).
 */
export function registerReadinessMetrics(registry: Registry, service: string, ready: () => Promise<Readiness>): void {
  const perCheck = new Gauge({
    name: 'cota_health_check_ok',
    help: 'Result of each readiness check at scrape time (1 ok, 0 failing)',
    labelNames: ['service', 'check'],
    registers: [registry],
  });
  new Gauge({
    name: 'cota_service_ready',
    help: 'Readiness of the service at scrape time (1 ready, 0 not): the same checks as GET /health/ready',
    labelNames: ['service'],
    registers: [registry],
    async collect() {
      const r = await ready();
      perCheck.reset();
      for (const [check, c] of Object.entries(r.checks)) perCheck.set({ service, check }, c.ok ? 1 : 0);
      this.set({ service }, r.ok ? 1 : 0);
    },
  });
}
