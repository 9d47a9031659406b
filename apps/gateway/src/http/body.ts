import type { NextFunction, Request, Response } from 'express';
import { HttpError } from './http-error';

/**
 * Reads a JSON body with a hard size cap (413 past it) and a clear 400 for bad JSON.
 * Replaces express' parser so every error keeps the contract's shape and wording.
 */
export function jsonBody(maxBytes: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) return next(new HttpError(413, 'payload_too_large', `O corpo da requisição passa do limite de ${maxBytes} bytes.`));
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > maxBytes) {
        failed = true;
        next(new HttpError(413, 'payload_too_large', `O corpo da requisição passa do limite de ${maxBytes} bytes.`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        (req as Request & { body: unknown }).body = undefined;
        return next();
      }
      try {
        (req as Request & { body: unknown }).body = JSON.parse(text);
        next();
      } catch {
        next(new HttpError(400, 'invalid_body', 'O corpo da requisição não é um JSON válido.'));
      }
    });
    req.on('error', () => {
      if (!failed) next(new HttpError(400, 'invalid_body', 'Não foi possível ler o corpo da requisição.'));
    });
  };
}
