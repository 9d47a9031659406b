import { Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ContextSubjects, RagSubjects } from '@cota/contracts';
import { ClientErasure } from '@cota/orchestration';
import { INFRA, Infra } from '@cota/service-kit';
import { requireOps } from './auth';
import { unsafeTextReason } from './http/ask-body';
import { HttpError } from './http/http-error';
import { logReceipt } from './privacy';

function required(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new HttpError(400, 'invalid_param', `Parâmetro '${name}' é obrigatório.`);
  const unsafe = unsafeTextReason(value);
  if (unsafe) throw new HttpError(400, 'invalid_param', `Parâmetro '${name}' ${unsafe}.`);
  return value.trim();
}

/** Operator endpoints, behind COTA_OPS_TOKEN. */
@Controller('ops')
export class OpsController {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly erasure: ClientErasure,
  ) {}

  @Get('context_debug')
  async contextDebug(@Req() req: Request, @Query('client_id') clientId: unknown, @Query('conversation_id') conversationId: unknown) {
    requireOps(req, this.infra.env.opsToken);
    return this.infra.bus.call(ContextSubjects.debug, { client_id: required(clientId, 'client_id'), conversation_id: required(conversationId, 'conversation_id') });
  }

  @Post('context_clear')
  @HttpCode(200)
  async contextClear(@Req() req: Request) {
    requireOps(req, this.infra.env.opsToken);
    const body = ((req as Request & { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
    return this.infra.bus.call(ContextSubjects.clear, {
      client_id: required(body.client_id, 'client_id'),
      conversation_id: required(body.conversation_id, 'conversation_id'),
    });
  }

  @Get('rag_debug')
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
  async reindex(@Req() req: Request) {
    requireOps(req, this.infra.env.opsToken);
    return this.infra.bus.call(RagSubjects.reindex, {});
  }
}
