import type { Request } from 'express';
import { ApiKeyAuthenticator, hashApiKey } from '@cota/access';
import { safeEqual } from '@cota/service-kit';
import { HttpError } from './http/http-error';

function bearer(req: Request): string | null {
  // Node keeps only the first of repeated Authorization headers; which one counts is ambiguous
  // (a proxy may read the other), so a request carrying several is refused instead.
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'authorization') count++;
  if (count > 1) throw new HttpError(401, 'unauthorized', "Envie um único cabeçalho 'Authorization: Bearer <chave>'.");
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/** The client that owns the API key; 401 when missing or unknown. */
export async function authenticateClient(req: Request, auth: ApiKeyAuthenticator): Promise<string> {
  return (await authenticateKey(req, auth)).clientId;
}

/** The client that owns the API key and the key's hash (what fences and revocations name); 401 when missing or unknown. */
export async function authenticateKey(req: Request, auth: ApiKeyAuthenticator): Promise<{ clientId: string; keyHash: string }> {
  const key = bearer(req);
  if (!key) throw new HttpError(401, 'unauthorized', "Envie a chave de API no cabeçalho 'Authorization: Bearer <chave>'.");
  let clientId: string | null;
  try {
    clientId = await auth.authenticate(key);
  } catch {
    throw new HttpError(503, 'service_unavailable', 'Não foi possível verificar a chave de API agora (banco de dados indisponível). Tente novamente.', { 'Retry-After': '5' });
  }
  if (!clientId) throw new HttpError(401, 'unauthorized', 'Chave de API desconhecida ou revogada.');
  return { clientId, keyHash: hashApiKey(key) };
}

/** `GET /metrics`: open when COTA_OPS_TOKEN is unset (local runs), else it needs the ops token as bearer. */
export function requireOpsWhenSet(req: Request, opsToken: string | null): void {
  if (opsToken) requireOps(req, opsToken);
}

/** `/ops/*` is closed unless COTA_OPS_TOKEN is set, and then needs it as bearer. */
export function requireOps(req: Request, opsToken: string | null): void {
  if (!opsToken) throw new HttpError(403, 'forbidden', 'Endpoints de operação desativados (defina COTA_OPS_TOKEN).');
  const token = bearer(req);
  if (!token) throw new HttpError(401, 'unauthorized', "Envie o token de operação no cabeçalho 'Authorization: Bearer <token>'.");
  if (!safeEqual(token, opsToken)) throw new HttpError(403, 'forbidden', 'Token de operação inválido.');
}
