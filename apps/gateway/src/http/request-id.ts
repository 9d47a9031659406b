import { randomUUID } from 'node:crypto';
import type { Request } from 'express';

const REQUEST_ID_RE = /^[A-Za-z0-9_.:-]{8,64}$/;
const REQUEST_ID = Symbol('cota.requestId');

/**
 * The request's id: the caller's X-Request-Id when it is a plain id, else a fresh one. Decided once
 * per request, so the pipeline, the telemetry and the error log all name the same id.
 */
export function requestIdOf(req: Request): string {
  const r = req as Request & { [REQUEST_ID]?: string };
  if (!r[REQUEST_ID]) {
    const header = req.headers['x-request-id'];
    r[REQUEST_ID] = typeof header === 'string' && REQUEST_ID_RE.test(header) ? header : randomUUID();
  }
  return r[REQUEST_ID];
}
