import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

type Directives = Record<string, Iterable<string | ((req: IncomingMessage, res: ServerResponse) => string)>>;

/** Every JSON (and SSE) response: nothing may load from it, nothing may frame it. */
const API_DIRECTIVES: Directives = { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] };

/**
 * The chat page built by apps/web: its script and stylesheet are files of this origin (no inline script or
 * style), requests only to this origin (fetch of /ask/stream), never framed. Chart.js draws on canvas;
 * `img-src data:` covers the canvas' own images.
 */
const WEB_APP_DIRECTIVES: Directives = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  connectSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The single-file fallback page (chat-page.ts): only its own inline script and style, by nonce (never 'unsafe-inline'). */
const nonceOf = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as ServerResponse & { locals: { cspNonce: string } }).locals.cspNonce}'`;
const FALLBACK_PAGE_DIRECTIVES: Directives = { ...WEB_APP_DIRECTIVES, scriptSrc: [nonceOf], styleSrc: [nonceOf] };

/** Swagger UI at /docs: its own script and styles (it injects inline styles), nothing from elsewhere, never framed. */
const DOCS_DIRECTIVES: Directives = { ...API_DIRECTIVES, scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'], connectSrc: ["'self'"] };

/** helmet's headers (nosniff, X-Frame-Options DENY, no referrer, HSTS, cross-origin isolation...) under one CSP. */
function headersWith(directives: Directives) {
  return helmet({ contentSecurityPolicy: { useDefaults: false, directives }, xFrameOptions: { action: 'deny' }, referrerPolicy: { policy: 'no-referrer' } });
}

type Middleware = ReturnType<typeof helmet>;
const api = headersWith(API_DIRECTIVES);

/** The headers every gateway response carries (the pages and /docs then set their own CSP). */
export function securityHeaders(): Middleware {
  return api;
}

/** The built chat page's headers (its CSP allows this origin's script and style). */
export const webAppSecurityHeaders: Middleware = headersWith(WEB_APP_DIRECTIVES);
/** The /docs headers (Swagger UI). */
export const docsSecurityHeaders: Middleware = headersWith(DOCS_DIRECTIVES);
const fallbackPage = headersWith(FALLBACK_PAGE_DIRECTIVES);

/** Sets the headers of one response right away (helmet's middleware is synchronous). */
function apply(mw: Middleware, req: IncomingMessage, res: ServerResponse): void {
  mw(req, res, () => undefined);
}

/**
 * The API headers on a response that never went through the middleware (a path Express fails to route,
 * bad percent-encoding): the error filter applies them.
 */
export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse): void {
  res.removeHeader('X-Powered-By');
  apply(api, req, res);
}

/** The fallback page's headers under a fresh, unguessable nonce; returns the nonce its script and style carry. */
export function applyFallbackPageHeaders(req: IncomingMessage, res: ServerResponse & { locals: Record<string, unknown> }): string {
  const nonce = randomBytes(18).toString('base64');
  res.locals.cspNonce = nonce;
  apply(fallbackPage, req, res);
  return nonce;
}

/** The API headers as raw header lines, for answers written straight to a socket (client-error.ts). */
export const API_HEADER_LINES: string = (() => {
  const lines: string[] = [];
  const stub = { setHeader: (name: string, value: string) => void lines.push(`${name}: ${value}`), removeHeader: () => undefined };
  api({} as IncomingMessage, stub as unknown as ServerResponse, () => undefined);
  return lines.map((l) => `${l}\r\n`).join('');
})();
