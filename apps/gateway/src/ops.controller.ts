import { Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ContextSubjects, RagSubjects } from '@cota/contracts';
import { ClientErasure } from '@cota/orchestration';
import { INFRA, Infra } from '@cota/service-kit';
import { requireOps } from './auth';
import { unsafeTextReason } from './http/ask-body';
import { HttpError } from './http/http-error';
import { ApiErrors } from './openapi/decorators';
import { OPS_TOKEN } from './openapi/document';
import { ErasureReceipt, OPS_ERRORS, RECEIPT_EXAMPLE } from './openapi/schemas';
import { logReceipt } from './privacy';

/** A 200 JSON answer of an ops route, described by what it holds. */
const opsAnswer = (description: string, example: object) => ApiResponse({ status: 200, description, content: { 'application/json': { schema: { type: 'object' }, example } } });
const conversationBody = {
  type: 'object',
  required: ['client_id', 'conversation_id'],
  properties: { client_id: { type: 'string' }, conversation_id: { type: 'string' } },
};

function required(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new HttpError(400, 'invalid_param', `Parâmetro '${name}' é obrigatório.`);
  const unsafe = unsafeTextReason(value);
  if (unsafe) throw new HttpError(400, 'invalid_param', `Parâmetro '${name}' ${unsafe}.`);
  return value.trim();
}

/** Operator endpoints, behind COTA_OPS_TOKEN. */
@ApiTags('operação')
@ApiBearerAuth(OPS_TOKEN)
@Controller('ops')
export class OpsController {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly erasure: ClientErasure,
  ) {}

  @Get('context_debug')
  @ApiOperation({ summary: 'Estado do contexto de uma conversa' })
  @ApiQuery({ name: 'client_id', example: 'cliente-demo-1' })
  @ApiQuery({ name: 'conversation_id', example: 'docs-1' })
  @opsAnswer('O estado da conversa.', {
    key: { client_id: 'cliente-demo-1', conversation_id: 'docs-1' },
    turn_count: 2,
    last_reference: { ticker: 'HGLG11', entity: 'fiis_cadastro' },
  })
  @ApiErrors(OPS_ERRORS, [400, 401, 403])
  async contextDebug(@Req() req: Request, @Query('client_id') clientId: unknown, @Query('conversation_id') conversationId: unknown) {
    requireOps(req, this.infra.env.opsToken);
    return this.infra.bus.call(ContextSubjects.debug, { client_id: required(clientId, 'client_id'), conversation_id: required(conversationId, 'conversation_id') });
  }

  @Post('context_clear')
  @HttpCode(200)
  @ApiOperation({ summary: 'Limpa o contexto de uma conversa' })
  @ApiBody({
    schema: conversationBody,
    examples: {
      conversa: { summary: 'Uma conversa', value: { client_id: 'cliente-demo-1', conversation_id: 'docs-1' }, 'x-status': 200 },
      sem_conversa: { summary: 'Sem conversation_id (400)', value: { client_id: 'cliente-demo-1' }, 'x-status': 400 },
      sem_token: { summary: 'Sem o token de operação (401)', value: { client_id: 'cliente-demo-1', conversation_id: 'docs-1' }, 'x-status': 401, 'x-auth': 'none' },
    } as never,
  })
  @opsAnswer('Limpo.', { cleared: true })
  @ApiErrors(OPS_ERRORS, [400, 401, 403])
  async contextClear(@Req() req: Request) {
    requireOps(req, this.infra.env.opsToken);
    const body = ((req as Request & { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
    return this.infra.bus.call(ContextSubjects.clear, {
      client_id: required(body.client_id, 'client_id'),
      conversation_id: required(body.conversation_id, 'conversation_id'),
    });
  }

  @Get('rag_debug')
  @ApiOperation({ summary: 'O que a base de conhecimento recupera para uma pergunta' })
  @ApiQuery({ name: 'question', example: 'o que é vacância?' })
  @ApiQuery({ name: 'intent', required: false, example: 'concept' })
  @ApiQuery({ name: 'entity', required: false, example: 'fiis_imoveis' })
  @opsAnswer('Os trechos recuperados e suas notas.', {
    enabled: true,
    reason: 'ok',
    used_collections: ['concepts-fiis'],
    chunks: [{ doc_id: 'vacancia', score: 0.45, text: 'Vacância física e vacância financeira…' }],
  })
  @ApiErrors(OPS_ERRORS, [400, 401, 403])
  async ragDebug(@Req() req: Request, @Query('question') question: unknown, @Query('intent') intent: unknown, @Query('entity') entity: unknown) {
    requireOps(req, this.infra.env.opsToken);
    return this.infra.bus.call(RagSubjects.retrieve, {
      request_id: `ops-${Date.now()}`,
      question: required(question, 'question'),
      intent: typeof intent === 'string' && intent ? intent : 'concept',
      entity: typeof entity === 'string' && entity ? entity : null,
      tickers: [],
    });
  }

  /** Erases everything Cota holds about `client_id` (body), like the client's own DELETE /me/data; answers the receipt. */
  @Post('erase')
  @HttpCode(200)
  @ApiOperation({ summary: 'Apaga tudo o que o Cota guarda sobre um cliente', description: 'Como DELETE /me/data do próprio cliente; responde o recibo.' })
  @ApiBody({
    schema: { type: 'object', required: ['client_id'], properties: { client_id: { type: 'string', maxLength: 256 } } },
    examples: {
      cliente: { summary: 'Um cliente', value: { client_id: 'cliente-exemplo-apagado' }, 'x-status': 200 },
      sem_cliente: { summary: 'Sem client_id (400)', value: {}, 'x-status': 400 },
    } as never,
  })
  @ApiResponse({ status: 200, description: 'O recibo.', content: { 'application/json': { schema: ErasureReceipt, example: { ...RECEIPT_EXAMPLE, requested_by: 'ops' } } } })
  @ApiErrors(OPS_ERRORS, [400, 401, 403])
  async erase(@Req() req: Request) {
    requireOps(req, this.infra.env.opsToken);
    const body = ((req as Request & { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
    const clientId = required(body.client_id, 'client_id');
    if (clientId.length > 256) throw new HttpError(400, 'invalid_param', "Parâmetro 'client_id' inválido: use no máximo 256 caracteres.");
    const receipt = await this.erasure.erase(clientId, 'ops');
    logReceipt(receipt);
    return receipt;
  }

  /**
   * The people's verdicts as answer-eval cases (test/eval/answers/README.md "Format"), one JSON per
   * line: `?rating=down|up` (default both), `?since=<ISO date-time>`. `npm run feedback:export` is the same over NATS.
   */
  @Get('feedback_export')
  async feedbackExport(@Req() req: Request, @Res() res: Response, @Query('rating') rating: unknown, @Query('since') since: unknown) {
    requireOps(req, this.infra.env.opsToken);
    if (rating !== undefined && rating !== 'up' && rating !== 'down') throw new HttpError(400, 'invalid_param', "Parâmetro 'rating' deve ser 'up' ou 'down'.");
    if (since !== undefined && (typeof since !== 'string' || Number.isNaN(Date.parse(since))))
      throw new HttpError(400, 'invalid_param', "Parâmetro 'since' deve ser uma data ISO.");
    const { cases } = await this.infra.bus.call(ContextSubjects.feedbackExport, {
      rating: (rating as 'up' | 'down' | undefined) ?? null,
      since: typeof since === 'string' ? new Date(since).toISOString() : null,
      limit: 10_000,
    });
    res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
    res.send(cases.map((c) => JSON.stringify(c) + '\n').join(''));
  }

  @Post('reindex')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reconstrói o índice da base de conhecimento' })
  @opsAnswer('O que foi reindexado.', { reindexed: 'all', chunks: { knowledge: 76, news: 1119 } })
  @ApiErrors(OPS_ERRORS, [401, 403])
  async reindex(@Req() req: Request) {
    requireOps(req, this.infra.env.opsToken);
    return this.infra.bus.call(RagSubjects.reindex, {});
  }
}
