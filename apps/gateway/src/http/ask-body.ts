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

/** C0 control characters other than tab, line feed and carriage return (U+0000 included). */
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
/** A UTF-16 surrogate without its pair ("\ud800" escaped in JSON): not a character, not storable as UTF-8. */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a text received over HTTP cannot be used, or null when it can. Every string the gateway
 * accepts (body fields, path and query parameters) goes through this before anything runs: a NUL
 * cannot be stored in Postgres and no control character has a place in a question or an id.
 */
export function unsafeTextReason(value: string): string | null {
  if (CONTROL_RE.test(value)) return 'contém caracteres de controle (como U+0000), que não são aceitos';
  if (LONE_SURROGATE_RE.test(value)) return 'contém um caractere Unicode inválido (surrogate sem par)';
  return null;
}

/** An unexpected key as the error names it: short and without control characters. */
function shownKey(key: string): string {
  const clean = key.replace(/[\u0000-\u001F\u007F\uD800-\uDFFF]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}...` : clean;
}

/** CONTRACT: the body is exactly {question, conversation_id, nickname, client_id}, all strings. */
export function parseAskBody(body: unknown, maxQuestionChars: number): AskBody {
  if (body === undefined) throw new HttpError(400, 'invalid_body', 'O corpo da requisição está vazio; envie {question, conversation_id, nickname, client_id}.');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'invalid_body', 'O corpo da requisição deve ser um objeto JSON.');
  const obj = body as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!(FIELDS as readonly string[]).includes(key)) throw bad(shownKey(key), 'não é aceito: o corpo tem apenas question, conversation_id, nickname e client_id');
  }
  for (const f of FIELDS) {
    if (!(f in obj)) throw bad(f, 'é obrigatório');
    if (typeof obj[f] !== 'string') throw bad(f, 'deve ser texto');
    const unsafe = unsafeTextReason(obj[f] as string);
    if (unsafe) throw bad(f, unsafe);
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
