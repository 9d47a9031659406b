import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CLIENT_KEY } from './openapi/document';
import type { Request } from 'express';
import { ContextSubjects, CotaError, FEEDBACK_COMMENT_MAX, MAX_TITLE_CHARS } from '@cota/contracts';
import { INFRA, Infra } from '@cota/service-kit';
import { unsafeTextReason } from './http/ask-body';
import { ClientGate } from './http/client-gate';
import { HttpError } from './http/http-error';
import { GatewayMetrics } from './metrics';

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;
const LIST_DEFAULT = 20;
const LIST_MAX = 100;

const badParam = (name: string, why: string) => new HttpError(400, 'invalid_param', `Parâmetro '${name}' ${why}.`);
const badBody = (field: string, why: string) => new HttpError(400, 'invalid_body', `Campo '${field}' ${why}.`);

function conversationIdOf(raw: string): string {
  const unsafe = unsafeTextReason(raw);
  if (unsafe) throw badParam('conversation_id', unsafe);
  if (!ID_RE.test(raw)) throw badParam('conversation_id', 'inválido: use de 1 a 128 caracteres (letras, números, _ . : @ -)');
  return raw;
}

/** The JSON body as an object holding only `allowed` keys. */
function bodyOf(req: Request, allowed: readonly string[]): Record<string, unknown> {
  const body = (req as Request & { body?: unknown }).body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'invalid_body', 'O corpo da requisição deve ser um objeto JSON.');
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw badBody(k.slice(0, 40), `não é aceito: o corpo tem apenas ${allowed.join(', ')}`);
  return body as Record<string, unknown>;
}

function textField(body: Record<string, unknown>, field: string, max: number, required: boolean): string | null {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw badBody(field, 'é obrigatório');
    return null;
  }
  if (typeof v !== 'string') throw badBody(field, 'deve ser texto');
  const unsafe = unsafeTextReason(v);
  if (unsafe) throw badBody(field, unsafe);
  const t = v.trim();
  if (required && !t) throw badBody(field, 'não pode ficar vazio');
  if (t.length > max) throw badBody(field, `tem mais de ${max} caracteres`);
  return t || null;
}

/**
 * The client's conversations (CONTRACT, wave 3: `GET /conversations`, newest first, paginated), their
 * titles and deletion, and the 👍/👎 on an answer. The key's client scopes every call: no parameter
 * names a client.
 */
@ApiTags('conversas')
@ApiBearerAuth(CLIENT_KEY)
@Controller('conversations')
export class ConversationsController {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly gate: ClientGate,
    private readonly metrics: GatewayMetrics,
  ) {}

  /** `?limit=1..100` (default 20) and `?cursor=` (the previous page's `next_cursor`). */
  @ApiOperation({ summary: 'As conversas do cliente da chave, da atividade mais recente para a mais antiga (paginadas: ?limit=1..100, ?cursor=).' })
  @ApiResponse({ status: 200, description: '{conversations: [{id, title, last_activity, questions}], next_cursor}' })
  @ApiResponse({ status: 400, description: 'limit ou cursor inválido.' })
  @ApiResponse({ status: 401, description: 'Sem chave ou chave inválida.' })
  @Get()
  async list(@Req() req: Request, @Query('limit') rawLimit: unknown, @Query('cursor') rawCursor: unknown) {
    let limit = LIST_DEFAULT;
    if (rawLimit !== undefined) {
      if (typeof rawLimit !== 'string' || !/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > LIST_MAX)
        throw badParam('limit', `deve ser um número de 1 a ${LIST_MAX}`);
      limit = Number(rawLimit);
    }
    let cursor: string | null = null;
    if (rawCursor !== undefined) {
      if (typeof rawCursor !== 'string' || !/^[A-Za-z0-9_-]{1,200}$/.test(rawCursor)) throw badParam('cursor', 'inválido: use o next_cursor da página anterior');
      cursor = rawCursor;
    }
    return this.gate.run(req, async (clientId) => {
      try {
        return await this.infra.bus.call(ContextSubjects.list, { client_id: clientId, limit, cursor });
      } catch (e) {
        if (CotaError.is(e) && e.code === 'BAD_REQUEST') throw badParam('cursor', 'inválido: use o next_cursor da página anterior');
        throw e;
      }
    });
  }

  /** Renames a conversation: body `{title}`. 404 when the client has no conversation with this id. */
  @ApiOperation({ summary: 'Dá um título a uma conversa ({title}).' })
  @ApiResponse({ status: 200, description: 'A conversa com o novo título.' })
  @ApiResponse({ status: 404, description: 'A conversa não é do cliente da chave.' })
  @Patch(':conversation_id')
  async rename(@Req() req: Request, @Param('conversation_id') raw: string) {
    const conversationId = conversationIdOf(raw);
    const title = textField(bodyOf(req, ['title']), 'title', MAX_TITLE_CHARS, true) as string;
    return this.gate.run(req, async (clientId) => {
      const { renamed } = await this.infra.bus.call(ContextSubjects.rename, { client_id: clientId, conversation_id: conversationId, title });
      if (!renamed) throw new HttpError(404, 'not_found', 'Conversa não encontrada.');
      return { id: conversationId, title };
    });
  }

  /** Deletes a conversation: its turns, title, feedback and what it left to inherit. */
  @ApiOperation({ summary: 'Apaga uma conversa: seus turnos, título, avaliações e o que ela deixava para herdar.' })
  @ApiResponse({ status: 200, description: 'Apagada.' })
  @Delete(':conversation_id')
  @HttpCode(200)
  async remove(@Req() req: Request, @Param('conversation_id') raw: string) {
    const conversationId = conversationIdOf(raw);
    return this.gate.run(req, (clientId) => this.infra.bus.call(ContextSubjects.remove, { client_id: clientId, conversation_id: conversationId }));
  }

  /**
   * A person's verdict on an answer: body `{request_id, rating: "up"|"down", comment?}` (`request_id`
   * is the answer's `meta.request_id`). Rating the same answer again replaces the verdict.
   */
  @ApiOperation({ summary: 'Avalia uma resposta (👍/👎 e um comentário opcional): {request_id, rating: "up"|"down", comment?}.' })
  @ApiResponse({ status: 201, description: 'Avaliação guardada (uma segunda substitui a primeira).' })
  @Post(':conversation_id/feedback')
  @HttpCode(201)
  async feedback(@Req() req: Request, @Param('conversation_id') raw: string) {
    const conversationId = conversationIdOf(raw);
    const body = bodyOf(req, ['request_id', 'rating', 'comment']);
    const requestId = textField(body, 'request_id', 128, true) as string;
    if (body.rating !== 'up' && body.rating !== 'down') throw badBody('rating', "deve ser 'up' ou 'down'");
    const rating = body.rating;
    const comment = textField(body, 'comment', FEEDBACK_COMMENT_MAX, false);
    return this.gate.run(req, async (clientId) => {
      const { stored } = await this.infra.bus.call(ContextSubjects.feedback, { client_id: clientId, conversation_id: conversationId, request_id: requestId, rating, comment });
      if (!stored) throw new HttpError(404, 'not_found', 'Resposta não encontrada nesta conversa.');
      this.metrics.feedback.inc({ rating, commented: comment ? 'yes' : 'no' });
      return { stored: true, rating };
    });
  }
}
