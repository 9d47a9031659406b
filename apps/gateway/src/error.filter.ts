import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Logger } from '@cota/service-kit';
import { HttpError, toHttpError } from './http/http-error';
import { GatewayMetrics } from './metrics';

const log = new Logger('gateway');

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
      err = status === 404
        ? new HttpError(404, 'not_found', 'Rota não encontrada.')
        : new HttpError(status, 'http_error', status >= 500 ? 'Erro interno.' : 'Requisição inválida.');
    } else {
      err = toHttpError(exception);
    }
    if (err.status >= 500) log.warn('request failed', { path: req.path, status: err.status, error: (exception as Error)?.message });
    this.metrics.http.inc({ route: routeLabel(req), status: String(err.status) });
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    res.status(err.status).json({ error: { code: err.code, message: err.message } });
  }
}

export function routeLabel(req: Request): string {
  if (req.path.startsWith('/conversations/')) return '/conversations/:id/history';
  if (req.path.startsWith('/ops/')) return '/ops';
  return ['/', '/ask', '/ask/stream', '/metrics', '/health/live', '/health/ready'].includes(req.path) ? req.path : 'other';
}
