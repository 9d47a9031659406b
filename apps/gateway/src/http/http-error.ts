import { CotaError } from '@cota/contracts';
import { isConnectionLost } from '@cota/messaging';

/** An error the gateway answers with: status, machine code, pt-BR message (CONTRACT: {error: {code, message}}). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const SERVICE_NAMES_PT: Record<string, string> = {
  planner: 'de planejamento (planner)',
  context: 'de contexto da conversa (context)',
  'tool-gate': 'de ferramentas (tool-gate)',
  executor: 'de consulta aos dados (executor)',
  rag: 'de base de conhecimento (rag)',
  narrator: 'de redação das respostas (narrator)',
  gateway: 'de entrada (gateway)',
};

/**
 * Maps a failure crossing the bus to what the person sees; never leaks stacks or SQL.
 * The original failure stays on `cause` (not serialised) for the gateway's error log.
 */
export function toHttpError(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  const err = fromFailure(e);
  Object.defineProperty(err, 'cause', { value: e, enumerable: false });
  return err;
}

function fromFailure(e: unknown): HttpError {
  if (CotaError.is(e)) {
    const svc = e.service ? (SERVICE_NAMES_PT[e.service] ?? `(${e.service})`) : null;
    switch (e.code) {
      case 'UNAVAILABLE': {
        if (e.details?.bus) {
          return new HttpError(503, 'service_unavailable', 'O barramento de mensagens (NATS) está indisponível no momento. Tente novamente em instantes.', { 'Retry-After': '5' });
        }
        // An overloaded service (its queue is full) or an open circuit says when to come back.
        const after = e.details?.retry_after_s;
        const retryAfter = typeof after === 'number' && Number.isInteger(after) && after > 0 ? String(after) : '5';
        if (e.details?.overloaded) {
          return new HttpError(
            503,
            'service_unavailable',
            svc
              ? `O serviço ${svc} está sobrecarregado no momento. Tente novamente em instantes.`
              : 'Um serviço necessário está sobrecarregado no momento. Tente novamente em instantes.',
            { 'Retry-After': retryAfter },
          );
        }
        return new HttpError(
          503,
          'service_unavailable',
          svc
            ? `O serviço ${svc} está indisponível no momento. Tente novamente em instantes.`
            : 'Um serviço necessário está indisponível no momento. Tente novamente em instantes.',
          { 'Retry-After': retryAfter },
        );
      }
      case 'TIMEOUT':
        return new HttpError(504, 'timeout', svc ? `O serviço ${svc} não respondeu a tempo. Tente novamente.` : 'A resposta demorou mais que o limite. Tente novamente.');
      case 'RATE_LIMITED':
        return new HttpError(429, 'rate_limited', 'Limite de uso atingido. Tente novamente mais tarde.');
      case 'FORBIDDEN':
        return new HttpError(403, 'forbidden', 'Acesso negado.');
      default:
        break;
    }
  }
  // The gateway's own store (API keys, rate limits) dropped the connection: a passing outage, not a bug.
  if (isConnectionLost(e))
    return new HttpError(503, 'service_unavailable', 'Um serviço necessário está indisponível no momento. Tente novamente em instantes.', { 'Retry-After': '5' });
  return new HttpError(500, 'internal', 'Erro interno ao processar a pergunta. Tente novamente.');
}
