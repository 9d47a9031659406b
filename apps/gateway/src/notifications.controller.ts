import { Controller, Get, HttpCode, Inject, Injectable, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ClientNotification, ExecutorBroadcasts, ExecutorSubjects, NotificationCreated } from '@cota/contracts';
import { BusEventHandler } from '@cota/messaging';
import { INFRA, Infra } from '@cota/service-kit';
import { CLIENT_KEY } from './openapi/document';
import { ClientGate } from './http/client-gate';
import { HttpError } from './http/http-error';
import { openEventStream } from './http/event-stream';

/** A keep-alive comment on open notification streams, so proxies do not close an idle one. */
const HEARTBEAT_MS = 25_000;

/** The notification streams open on this gateway, by client: a broadcast notification goes to its client's. */
@Injectable()
export class NotificationHub {
  private readonly streams = new Map<string, Set<(n: ClientNotification) => void>>();

  open(clientId: string, push: (n: ClientNotification) => void): () => void {
    let set = this.streams.get(clientId);
    if (!set) this.streams.set(clientId, (set = new Set()));
    set.add(push);
    return () => {
      set!.delete(push);
      if (!set!.size) this.streams.delete(clientId);
    };
  }

  deliver(msg: NotificationCreated): void {
    for (const push of this.streams.get(msg.client_id) ?? []) push(msg.notification);
  }
}

/** Every gateway replica hears each new notification (no queue group) and pushes it to that client's streams. */
@Controller()
export class NotificationListener {
  constructor(private readonly hub: NotificationHub) {}

  @BusEventHandler(ExecutorBroadcasts.notificationCreated)
  created(msg: NotificationCreated): void {
    this.hub.deliver(msg);
  }
}

/**
 * The client's alert notifications: the list with the unread count (the page's bell), marking them read,
 * and a live stream of new ones (server-sent events). The key's client scopes every call.
 */
@ApiTags('notificacoes')
@ApiBearerAuth(CLIENT_KEY)
@Controller('me/notifications')
export class NotificationsController {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly gate: ClientGate,
    private readonly hub: NotificationHub,
  ) {}

  @ApiOperation({ summary: 'As notificações dos alertas do cliente, das mais novas para as mais antigas (?limit=1..100), e quantas não foram lidas.' })
  @ApiResponse({ status: 200, description: '{notifications: [{notification_id, rule_id, title, body, created_at, read}], unread}' })
  @ApiResponse({ status: 400, description: 'limit inválido.' })
  @ApiResponse({ status: 401, description: 'Sem chave ou chave inválida.' })
  @Get()
  async list(@Req() req: Request, @Query('limit') rawLimit: unknown) {
    let limit = 50;
    if (rawLimit !== undefined) {
      if (typeof rawLimit !== 'string' || !/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100)
        throw new HttpError(400, 'invalid_param', "Parâmetro 'limit' deve ser um número de 1 a 100.");
      limit = Number(rawLimit);
    }
    return this.gate.run(req, (clientId) => this.infra.bus.call(ExecutorSubjects.notifications, { client_id: clientId, limit }));
  }

  @ApiOperation({ summary: 'Marca como lidas as notificações do cliente (?up_to=<notification_id>: até ela; sem ele, todas).' })
  @ApiResponse({ status: 200, description: '{marked, unread}' })
  @Post('read')
  @HttpCode(200)
  async read(@Req() req: Request, @Query('up_to') rawUpTo: unknown) {
    let upTo: number | null = null;
    if (rawUpTo !== undefined) {
      if (typeof rawUpTo !== 'string' || !/^\d{1,15}$/.test(rawUpTo) || Number(rawUpTo) < 1)
        throw new HttpError(400, 'invalid_param', "Parâmetro 'up_to' deve ser o id de uma notificação.");
      upTo = Number(rawUpTo);
    }
    return this.gate.run(req, (clientId) => this.infra.bus.call(ExecutorSubjects.notificationsRead, { client_id: clientId, up_to: upTo }));
  }

  @ApiOperation({
    summary: 'As notificações novas do cliente, ao vivo (SSE)',
    description: 'Um evento `unread` ({unread}) ao abrir, depois um evento `notification` (a notificação) a cada alerta disparado.',
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'O fluxo de eventos.', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @Get('stream')
  async stream(@Req() req: Request, @Res() res: Response): Promise<void> {
    // The key, the erasure fence and the rate limit once, when the stream opens; then it only listens.
    const { clientId, unread } = await this.gate.run(req, async (id) => ({
      clientId: id,
      unread: (await this.infra.bus.call(ExecutorSubjects.notifications, { client_id: id, limit: 1 })).unread,
    }));
    const send = openEventStream(res);
    send('unread', { unread });
    const close = this.hub.open(clientId, (n) => send('notification', n));
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    req.on('close', () => {
      clearInterval(beat);
      close();
    });
  }
}
