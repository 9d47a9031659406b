import type { NextFunction, Request, Response } from 'express';
import { HttpError } from './http-error';

/** `application/json`, with or without parameters (charset), in any letter case. */
function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * Reads a JSON body with a hard size cap (413 past it) and a clear 400 for bad JSON.
 * Replaces express' parser so every error keeps the contract's shape and wording.
 * A non-empty body must say it is JSON (Content-Type: application/json) and come uncompressed.
 */
export function jsonBody(maxBytes: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) return next(new HttpError(413, 'payload_too_large', `O corpo da requisição passa do limite de ${maxBytes} bytes.`));
    const encoding = String(req.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (encoding !== 'identity' && encoding !== '') {
      return next(new HttpError(400, 'invalid_body', "O corpo da requisição não pode vir comprimido (cabeçalho 'Content-Encoding'); envie JSON simples."));
    }
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
      let text: string;
      try {
        // Strict: bytes that are not UTF-8 are refused, never silently replaced by U+FFFD.
        text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
      } catch {
        return next(new HttpError(400, 'invalid_body', 'O corpo da requisição não é texto UTF-8 válido.'));
      }
      if (text.trim() === '') {
        (req as Request & { body: unknown }).body = undefined;
        return next();
      }
      if (!isJson(req.headers['content-type'])) {
        return next(new HttpError(400, 'invalid_body', "Cabeçalho 'Content-Type' deve ser 'application/json'."));
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
