import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * The CSP of every JSON (and SSE) response: nothing may load from it, nothing may frame it.
 * The chat page replaces it with `chatPageCsp` (its own script and style, by nonce).
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A fresh, unguessable nonce for one response of the chat page. */
export function newCspNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The chat page's CSP: only its own inline script and style (by nonce, never 'unsafe-inline'),
 * requests only to this origin (fetch of /ask/stream), never framed.
 */
export function chatPageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The CSP of the chat page built by apps/web: its script and stylesheet are files of this origin
 * (`'self'`, no inline script or style, so no nonce), requests only to this origin, never framed.
 * Chart.js draws on canvas; `img-src data:` covers the canvas' own images.
 */
export function webAppCsp(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sets the headers every gateway response carries (the chat page then replaces the CSP). */
export function applySecurityHeaders(res: Pick<Response, 'setHeader' | 'removeHeader'>): void {
  res.removeHeader('X-Powered-By');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', API_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * Headers on every gateway response, errors and 404s included. The error filter applies them too:
 * a request Express fails to route (bad percent-encoding in the path) never reaches this middleware.
 */
export function securityHeaders() {
  return (_req: Request, res: Response, next: NextFunction) => {
    applySecurityHeaders(res);
    next();
  };
}
