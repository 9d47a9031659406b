import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createLogger, Logger } from '@cota/service-kit';
import { CotaError } from '@cota/contracts';
import { HttpError, toHttpError } from './http/http-error';
import { requestIdOf } from './http/request-id';
import { applySecurityHeaders } from './http/security-headers';
import { GatewayMetrics } from './metrics';

const log = createLogger('gateway');

/** Every error leaves as JSON {error: {code, message}}; nothing internal (stack, SQL) is exposed. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(private readonly metrics: GatewayMetrics) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    let err: HttpError;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      err =
        status === 404 ? new HttpError(404, 'not_found', 'Rota não encontrada.') : new HttpError(status, 'http_error', status >= 500 ? 'Erro interno.' : 'Requisição inválida.');
    } else {
      err = toHttpError(exception);
    }
    const requestId = requestIdOf(req);
    if (err.status >= 500) {
      // What failed behind the HTTP answer (the bus error, or the unexpected exception).
      const cause: unknown = exception instanceof HttpError && exception.cause !== undefined ? exception.cause : exception;
      // The route, never the path (it may hold a conversation id); the stack only for unexpected failures.
      // The request's own logger (nestjs-pino: it carries the request id) when the request got that far.
      ((req as Request & { log?: Logger }).log ?? log).warn(
        {
          request_id: requestId,
          route: routeLabel(req),
          status: err.status,
          code: CotaError.is(cause) ? cause.code : err.code,
          service: CotaError.is(cause) ? (cause.service ?? null) : null,
          error: (cause as Error)?.message ?? String(cause),
          ...(err.status === 500 && cause instanceof Error ? { stack: cause.stack } : {}),
        },
        'request failed',
      );
    }
    this.metrics.http.inc({ route: routeLabel(req), status: String(err.status) });
    if (res.headersSent) return;
    applySecurityHeaders(req, res);
    res.setHeader('X-Request-Id', requestId);
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    res.status(err.status).json({ error: { code: err.code, message: err.message } });
  }
}

export function routeLabel(req: Request): string {
  if (req.path.startsWith('/conversations/')) return '/conversations/:id/history';
  if (req.path.startsWith('/ops/')) return '/ops';
  if (req.path.startsWith('/assets/')) return '/assets';
  return ['/', '/ask', '/ask/stream', '/me/data', '/metrics', '/health/live', '/health/ready', '/demo/session'].includes(req.path) ? req.path : 'other';
}
