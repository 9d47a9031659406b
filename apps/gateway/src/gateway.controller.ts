import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiKeyAuthenticator, AskFence, QuotaPolicy, RateCharge, RateLimiter } from '@cota/access';
import { ContextSubjects, CotaError, Events, NarratorStream } from '@cota/contracts';
import { activeTraceparent, emitStep, endSpan, parseTraceparent, SpanKind, startSpan, traceparentOf, withActiveSpan, withCallScope } from '@cota/messaging';
import { AskOutput, AskPipeline } from '@cota/orchestration';
import { INFRA, Infra } from '@cota/service-kit';
import { authenticateKey, requireOpsWhenSet } from './auth';
import { AskBody, parseAskBody, unsafeTextReason } from './http/ask-body';
import { HttpError, toHttpError } from './http/http-error';
import { ApiErrors } from './openapi/decorators';
import { CLIENT_KEY, OPS_TOKEN } from './openapi/document';
import { ASK_ERRORS, ASK_OK, ASK_OK_EXAMPLES, ASK_REQUEST_EXAMPLES, AskRequest, AskResponse, ErrorBody, HISTORY_EXAMPLE, HistoryResponse } from './openapi/schemas';
import { requestIdOf } from './http/request-id';
import { GatewayMetrics } from './metrics';
import { ASK_FENCE, QUOTA_POLICY, RATE_LIMITER } from './tokens';
import { openEventStream } from './http/event-stream';

/**
 * Past the deadline every hop has already given up (each waits at most the time left); this margin
 * only lets a commit that started in time report back, so a 504 never hides a committed turn.
 */
export const DEADLINE_GRACE_MS = 1000;

interface Admitted {
  started: number;
  requestId: string;
  clientId: string;
  /** The API key's hash: the request is counted running under it (the erasure fence) until `leave`. */
  keyHash: string;
  body: AskBody;
  /** When the rate limiter charged the question (what a refund names). */
  charge: RateCharge;
  /** The caller's W3C trace context (`traceparent` request header), when it sent a valid one. */
  traceparent?: string;
}

@ApiTags('perguntas')
@Controller()
export class AskController {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly pipeline: AskPipeline,
    private readonly auth: ApiKeyAuthenticator,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(QUOTA_POLICY) private readonly quotas: QuotaPolicy,
    private readonly metrics: GatewayMetrics,
    @Inject(ASK_FENCE) private readonly fence: AskFence,
  ) {}

  @Post('ask')
  @HttpCode(200)
  @ApiOperation({ summary: 'Faz uma pergunta', description: 'Responde `{status, results, meta, answer}`; o contexto da conversa vale por (client_id, conversation_id).' })
  @ApiBearerAuth(CLIENT_KEY)
  @ApiBody({ schema: AskRequest, examples: ASK_REQUEST_EXAMPLES })
  @ApiResponse({ status: 200, description: 'A resposta.', content: { 'application/json': { schema: AskResponse, examples: ASK_OK_EXAMPLES } } })
  @ApiErrors(ASK_ERRORS, [400, 401, 403, 413, 429, 503, 504])
  async ask(@Req() req: Request): Promise<unknown> {
    const admitted = await this.admit(req);
    return this.answer(admitted, false);
  }

  /**
   * The same question as server-sent events: `delta` events carry guarded pieces of the answer
   * while a model writes it (none without a model), then one `answer` event carries the full
   * response ({status, results, meta, answer}) that replaces them, or an `error` event.
   */
  @Post('ask/stream')
  @ApiOperation({
    summary: 'Faz uma pergunta e recebe a resposta em eventos (SSE)',
    description:
      'Eventos `delta` ({seq, text}) com frases já verificadas enquanto um modelo redige, depois um `answer` com a resposta inteira (a mesma de POST /ask) ou um `error` ({status, error}).',
  })
  @ApiBearerAuth(CLIENT_KEY)
  @ApiBody({ schema: AskRequest, examples: { pergunta: ASK_REQUEST_EXAMPLES.pergunta, sem_chave: ASK_REQUEST_EXAMPLES.sem_chave } })
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'O fluxo de eventos.',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: `event: answer\ndata: ${JSON.stringify(ASK_OK)}\n\n` } },
  })
  @ApiErrors(ASK_ERRORS, [400, 401, 403, 413, 429, 503])
  async askStream(@Req() req: Request, @Res() res: Response): Promise<void> {
    const admitted = await this.admit(req); // errors before this point are plain JSON with their status
    const send = openEventStream(res);
    // Subscribed before the question goes out, so no delta can be missed.
    const sub = this.infra.bus.followStream(NarratorStream, admitted.requestId, (d) => send('delta', { seq: d.seq, text: d.text }));
    try {
      send('answer', await this.answer(admitted, true));
    } catch (e) {
      const err = toHttpError(e);
      send('error', { status: err.status, error: { code: err.code, message: err.message } });
    } finally {
      sub.unsubscribe();
      res.end();
    }
  }

  /**
   * Authentication, body validation, client check, the erasure fence and quota: everything before the
   * question runs. Nothing reaches the pipeline (so no turn index is consumed) unless all of it passed;
   * once admitted, the question is counted running under its key until its pipeline settles.
   */
  private async admit(req: Request): Promise<Admitted> {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const { clientId, keyHash } = await authenticateKey(req, this.auth);
    const body = parseAskBody((req as Request & { body: unknown }).body, this.quotas.http.max_question_chars);
    if (body.client_id !== clientId) {
      throw new HttpError(403, 'forbidden', "O 'client_id' enviado não corresponde ao cliente da chave de API.");
    }
    const charge = await this.enterCharged(clientId, keyHash, requestId);
    return { started, requestId, clientId, keyHash, body, charge, traceparent: parseTraceparent(req.headers.traceparent) };
  }

  /**
   * Counts the request in under its key (refused while the key's client is being erased: the erasure
   * waits for the requests counted in, then erases), then charges the quota.
   */
  private async enterCharged(clientId: string, keyHash: string, requestId: string): Promise<RateCharge> {
    let entered: boolean;
    try {
      entered = await this.fence.enter(keyHash);
    } catch {
      throw new HttpError(503, 'service_unavailable', 'O controle de acesso (Redis) está indisponível no momento. Tente novamente em instantes.', { 'Retry-After': '5' });
    }
    if (!entered) throw new HttpError(401, 'unauthorized', 'Chave de API revogada: os dados deste cliente estão sendo apagados.');
    try {
      return await this.checkQuota(clientId, requestId);
    } catch (e) {
      this.leave(keyHash);
      throw e;
    }
  }

  /** Counts a request out of the fence; a failure leaves the count to expire with its questions' deadline. */
  private leave(keyHash: string): void {
    this.fence.leave(keyHash).catch(() => undefined);
  }

  private async answer(a: Admitted, stream: boolean): Promise<AskOutput> {
    // The question's absolute deadline (quotas.yaml http.ask_deadline_ms from admission), carried by
    // every hop in the message headers: each waits the time left or its own timeout, whichever is smaller.
    const left = this.quotas.http.ask_deadline_ms - (performance.now() - a.started);
    // The question's span (tracing on): every bus call of the pipeline becomes its descendant. Under the
    // HTTP instrumentation it is the child of the request's span (which continued a caller's traceparent).
    const span = startSpan(stream ? 'POST /ask/stream' : 'POST /ask', SpanKind.SERVER, activeTraceparent() ?? a.traceparent, {
      'http.request.method': 'POST',
      'http.route': stream ? '/ask/stream' : '/ask',
      'cota.service': 'gateway',
      'cota.request_id': a.requestId,
    });
    const traceparent = span ? traceparentOf(span) : a.traceparent;
    const scope = { deadline: Date.now() + left, requestId: a.requestId, ...(traceparent ? { traceparent } : {}) };
    let outcome = 'ok';
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CotaError('TIMEOUT', 'ask deadline exceeded')), Math.max(0, left) + DEADLINE_GRACE_MS);
    });
    // Counted out when the pipeline settles, not at the deadline: its last write may come after a 504.
    const run = withActiveSpan(span, () =>
      withCallScope(scope, () =>
        this.pipeline.ask({
          request_id: a.requestId,
          client_id: a.clientId,
          conversation_id: a.body.conversation_id,
          nickname: a.body.nickname,
          question: a.body.question,
          stream,
        }),
      ),
    );
    run.then(
      () => this.leave(a.keyHash),
      () => this.leave(a.keyHash),
    );
    try {
      const out = await Promise.race([run, deadline]);
      this.metrics.ask.observe({ status: out.status }, (performance.now() - a.started) / 1000);
      for (const [k, v] of Object.entries(out.meta.timings_ms)) if (k !== 'total') this.metrics.step.observe({ step: k }, v / 1000);
      return out;
    } catch (e) {
      const err = toHttpError(e);
      await this.refundIfShed(err, a.clientId, a.charge);
      outcome = `http_${err.status}`;
      span?.setAttribute('http.response.status_code', err.status);
      this.metrics.ask.observe({ status: `http_${err.status}` }, (performance.now() - a.started) / 1000);
      emitStep(this.infra.bus, Events.gatewayRejected, {
        request_id: a.requestId,
        client_id: a.clientId,
        conversation_id: a.body.conversation_id,
        outcome: 'error',
        timings_ms: { total: performance.now() - a.started },
        attributes: { http_status: err.status, code: err.code, service: CotaError.is(e) ? (e.service ?? null) : null },
      });
      throw err;
    } finally {
      clearTimeout(timer);
      endSpan(span, outcome);
    }
  }

  @Get('conversations/:conversation_id/history')
  @ApiOperation({ summary: 'Histórico de uma conversa', description: 'Só os turnos do próprio cliente da chave; divide o limite de taxa de /ask.' })
  @ApiBearerAuth(CLIENT_KEY)
  @ApiParam({ name: 'conversation_id', example: 'docs-1', schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$' } })
  @ApiResponse({ status: 200, description: 'Os turnos, do mais antigo ao mais novo.', content: { 'application/json': { schema: HistoryResponse, example: HISTORY_EXAMPLE } } })
  @ApiErrors(ASK_ERRORS, [400, 401, 429, 503])
  async history(@Req() req: Request, @Param('conversation_id') conversationId: string): Promise<unknown> {
    const { clientId, keyHash } = await authenticateKey(req, this.auth);
    const unsafe = unsafeTextReason(conversationId);
    if (unsafe) throw new HttpError(400, 'invalid_param', `Parâmetro 'conversation_id' ${unsafe}.`);
    if (!/^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/.test(conversationId)) {
      throw new HttpError(400, 'invalid_param', "Parâmetro 'conversation_id' inválido: use de 1 a 128 caracteres (letras, números, _ . : @ -).");
    }
    // The same fence and per-client limiter (and budget) as /ask.
    const charge = await this.enterCharged(clientId, keyHash, requestIdOf(req));
    try {
      // Only the caller's own turns: the key's client scopes the lookup, never a parameter.
      return await this.infra.bus.call(ContextSubjects.history, { client_id: clientId, conversation_id: conversationId, limit: 500 });
    } catch (e) {
      const err = toHttpError(e);
      await this.refundIfShed(err, clientId, charge);
      throw err;
    } finally {
      this.leave(keyHash);
    }
  }

  // The chat page at `/` is served by web/web.controller.ts (the app built by apps/web).

  /** Prometheus metrics: behind the ops token when COTA_OPS_TOKEN is set. */
  @Get('metrics')
  @ApiTags('operação')
  @ApiOperation({ summary: 'Métricas no formato Prometheus', description: 'Exige o token de operação quando COTA_OPS_TOKEN está definido.' })
  @ApiBearerAuth(OPS_TOKEN)
  @ApiProduces('text/plain')
  @ApiResponse({
    status: 200,
    description: 'As métricas.',
    content: { 'text/plain': { schema: { type: 'string' }, example: '# TYPE cota_ask_duration_seconds histogram\ncota_ask_duration_seconds_count{status="ok"} 42\n' } },
  })
  @ApiResponse({ status: 401, description: 'Sem o token de operação (quando definido).', content: { 'application/json': { schema: ErrorBody } } })
  async prometheus(@Req() req: Request, @Res() res: Response): Promise<void> {
    requireOpsWhenSet(req, this.infra.env.opsToken);
    res.setHeader('content-type', this.metrics.registry.contentType);
    res.send(await this.metrics.registry.metrics());
  }

  /**
   * A request answered 503 (a service overloaded, its circuit open, or down) was shed, not served:
   * its hit goes back to the client's budget. Best effort: a refund that fails leaves the hit charged.
   */
  private async refundIfShed(err: HttpError, clientId: string, charge: RateCharge): Promise<void> {
    if (err.status === 503) await this.limiter.refund(clientId, charge).catch(() => undefined);
  }

  /** Charges one hit to the client (429 past its limits); returns the hit's receipt (for a refund). */
  private async checkQuota(clientId: string, requestId: string): Promise<RateCharge> {
    let decision;
    try {
      decision = await this.limiter.hit(clientId);
    } catch {
      throw new HttpError(503, 'service_unavailable', 'O controle de cotas (Redis) está indisponível no momento. Tente novamente em instantes.', { 'Retry-After': '5' });
    }
    if (!decision.allowed) {
      emitStep(this.infra.bus, Events.gatewayRejected, {
        request_id: requestId,
        outcome: 'rejected',
        timings_ms: {},
        attributes: { http_status: 429, limit: decision.limit },
      });
      throw new HttpError(
        429,
        'rate_limited',
        decision.limit === 'minute' ? 'Muitas perguntas em pouco tempo. Aguarde um instante e tente de novo.' : 'A cota diária de perguntas foi atingida. Tente novamente amanhã.',
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    return decision.charge;
  }
}
