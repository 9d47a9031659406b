import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ExecutorSubjects, RequestOf } from '@cota/contracts';
import { INFRA, Infra } from '@cota/service-kit';
import { CLIENT_KEY } from './openapi/document';
import { unsafeTextReason } from './http/ask-body';
import { ClientGate } from './http/client-gate';
import { HttpError } from './http/http-error';

const ALERT_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

function alertIdOf(raw: string): string {
  const unsafe = unsafeTextReason(raw);
  if (unsafe) throw new HttpError(400, 'invalid_param', `Parâmetro 'alert_id' ${unsafe}.`);
  if (!ALERT_ID_RE.test(raw)) throw new HttpError(400, 'invalid_param', "Parâmetro 'alert_id' inválido: use o alert_id da lista de alertas.");
  return raw;
}

/**
 * The client's alert rules for the page's alerts panel: the list (numbered as in the chat), and pausing,
 * resuming and removing one. Created in the chat only, where the rule is read and confirmed. The key's
 * client scopes every call.
 */
@ApiTags('alertas')
@ApiBearerAuth(CLIENT_KEY)
@Controller('me/alerts')
export class AlertsController {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    private readonly gate: ClientGate,
  ) {}

  @ApiOperation({ summary: 'Os alertas do cliente, numerados como na conversa (o mais antigo primeiro), com a situação de cada um.' })
  @ApiResponse({ status: 200, description: '{alerts: [{alert_id, number, description, status: "active"|"paused", created_at}]}' })
  @ApiResponse({ status: 401, description: 'Sem chave ou chave inválida.' })
  @Get()
  list(@Req() req: Request) {
    return this.gate.run(req, (clientId) => this.infra.bus.call(ExecutorSubjects.alerts, { client_id: clientId }));
  }

  @ApiOperation({ summary: 'Pausa um alerta: ele não avisa até ser reativado.' })
  @ApiResponse({ status: 200, description: '{found, changed, message, alerts}: a lista depois da mudança.' })
  @ApiResponse({ status: 404, description: 'O cliente da chave não tem esse alerta.' })
  @Post(':alert_id/pause')
  @HttpCode(200)
  pause(@Req() req: Request, @Param('alert_id') raw: string) {
    return this.change(req, raw, 'pause');
  }

  @ApiOperation({ summary: 'Reativa um alerta pausado.' })
  @ApiResponse({ status: 200, description: '{found, changed, message, alerts}: a lista depois da mudança.' })
  @ApiResponse({ status: 404, description: 'O cliente da chave não tem esse alerta.' })
  @Post(':alert_id/resume')
  @HttpCode(200)
  resume(@Req() req: Request, @Param('alert_id') raw: string) {
    return this.change(req, raw, 'resume');
  }

  @ApiOperation({ summary: 'Remove um alerta (as notificações que ele já deu ficam).' })
  @ApiResponse({ status: 200, description: '{found, changed, message, alerts}: a lista depois da mudança.' })
  @ApiResponse({ status: 404, description: 'O cliente da chave não tem esse alerta.' })
  @Delete(':alert_id')
  @HttpCode(200)
  remove(@Req() req: Request, @Param('alert_id') raw: string) {
    return this.change(req, raw, 'remove');
  }

  private change(req: Request, raw: string, action: RequestOf<typeof ExecutorSubjects.alertChange>['action']) {
    const alertId = alertIdOf(raw);
    return this.gate.run(req, async (clientId) => {
      const r = await this.infra.bus.call(ExecutorSubjects.alertChange, { client_id: clientId, alert_id: alertId, action });
      if (!r.found) throw new HttpError(404, 'not_found', r.message);
      return r;
    });
  }
}
