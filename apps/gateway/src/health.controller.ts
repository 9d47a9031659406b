import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HealthSubjects, SERVICES } from '@cota/contracts';
import type { QuotaPolicy } from '@cota/access';
import { INFRA, Infra, publicDetail, ReadinessProbe, standardChecks } from '@cota/service-kit';
import { NOT_READY_EXAMPLE, READY_EXAMPLE, Readiness } from './openapi/schemas';
import { QUOTA_POLICY } from './tokens';

@ApiTags('saúde')
@Controller('health')
export class HealthController {
  private readonly startedAt = Date.now();
  /** Latched once every service has answered: from then on readiness is the gateway's own. */
  private fabricSeen = false;

  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    @Inject(QUOTA_POLICY) private readonly quotas: QuotaPolicy,
    private readonly probe: ReadinessProbe,
  ) {}

  /** The process is up. */
  @Get('live')
  @ApiOperation({ summary: 'O processo está no ar' })
  @ApiResponse({
    status: 200,
    description: 'No ar.',
    content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } }, example: { status: 'ok' } } },
  })
  live() {
    return { status: 'ok' };
  }

  /**
   * Ready when NATS, Postgres and Redis answer real pings. The other services' health is reported
   * too: once every one has answered since start the gateway serves while one is down (503 for what
   * needs it); until then, for at most quotas.yaml `http.ready_waits_for_services_s`, it is not ready,
   * so a fresh gateway gets no traffic before the fabric can answer.
   */
  @Get('ready')
  @ApiOperation({ summary: 'Pronto para receber perguntas', description: 'NATS, Postgres e Redis respondem; informa também a saúde dos outros serviços.' })
  @ApiResponse({ status: 200, description: 'Pronto.', content: { 'application/json': { schema: Readiness, example: READY_EXAMPLE } } })
  @ApiResponse({
    status: 503,
    description: 'Não pronto (ou ainda esperando os serviços na partida).',
    content: { 'application/json': { schema: Readiness, example: NOT_READY_EXAMPLE } },
  })
  async ready(@Res() res: Response): Promise<void> {
    const checks = standardChecks(this.infra);
    if (!this.infra.redis) checks.redis = async () => undefined; // embedded: in-memory stores
    const own = await this.probe.run(checks);
    const answers = await Promise.all(
      SERVICES.filter((s) => s !== 'gateway').map(async (s) => {
        try {
          const h = await this.infra.bus.call(HealthSubjects[s], {}, { timeoutMs: 1000 });
          return [s, { ok: h.ok, checks: h.checks }] as const;
        } catch (e) {
          return [s, { ok: false, detail: publicDetail(e) }] as const;
        }
      }),
    );
    const services = Object.fromEntries(answers);
    if (!this.fabricSeen && answers.every(([, h]) => h.ok)) this.fabricSeen = true;
    const waiting = !this.fabricSeen && Date.now() - this.startedAt < this.quotas.http.ready_waits_for_services_s * 1000;
    const ok = own.ok && !waiting;
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ready' : waiting && own.ok ? 'starting' : 'not_ready',
      mode: this.infra.embedded ? 'embedded' : 'distributed',
      checks: own.checks,
      services,
    });
  }
}
