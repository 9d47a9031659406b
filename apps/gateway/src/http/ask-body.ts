import { HttpError } from './http-error';

export interface AskBody {
  question: string;
  conversation_id: string;
  nickname: string;
  client_id: string;
}

const FIELDS = ['question', 'conversation_id', 'nickname', 'client_id'] as const;
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

const bad = (field: string, why: string) => new HttpError(400, 'invalid_body', `Campo '${field}' ${why}.`);

/** CONTRACT: the body is exactly {question, conversation_id, nickname, client_id}, all strings. */
export function parseAskBody(body: unknown, maxQuestionChars: number): AskBody {
  if (body === undefined) throw new HttpError(400, 'invalid_body', 'O corpo da requisição está vazio; envie {question, conversation_id, nickname, client_id}.');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'invalid_body', 'O corpo da requisição deve ser um objeto JSON.');
  const obj = body as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!(FIELDS as readonly string[]).includes(key)) throw bad(key, 'não é aceito: o corpo tem apenas question, conversation_id, nickname e client_id');
  }
  for (const f of FIELDS) {
    if (!(f in obj)) throw bad(f, 'é obrigatório');
    if (typeof obj[f] !== 'string') throw bad(f, 'deve ser texto');
  }
  const question = (obj.question as string).trim();
  if (!question) throw bad('question', 'não pode ser vazio');
  if (question.length > maxQuestionChars) throw bad('question', `passa do limite de ${maxQuestionChars} caracteres`);
  const conversation_id = (obj.conversation_id as string).trim();
  if (!ID_RE.test(conversation_id)) throw bad('conversation_id', 'deve ter de 1 a 128 caracteres (letras, números, _ . : @ -)');
  const client_id = (obj.client_id as string).trim();
  if (!ID_RE.test(client_id)) throw bad('client_id', 'deve ter de 1 a 128 caracteres (letras, números, _ . : @ -)');
  const nickname = (obj.nickname as string).trim();
  if (nickname.length > 64) throw bad('nickname', 'passa do limite de 64 caracteres');
  return { question, conversation_id, nickname, client_id };
}
