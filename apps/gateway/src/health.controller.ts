import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthSubjects, SERVICES } from '@cota/contracts';
import { INFRA, Infra, runChecks, standardChecks } from '@cota/service-kit';

@Controller('health')
export class HealthController {
  constructor(@Inject(INFRA) private readonly infra: Infra) {}

  /** The process is up. */
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /**
   * Ready when NATS, Postgres and Redis answer real pings. The other services' health is reported
   * too (informative: the gateway can serve while one is down, answering 503 for what needs it).
   */
  @Get('ready')
  async ready(@Res() res: Response): Promise<void> {
    const checks = standardChecks(this.infra);
    if (!this.infra.redis) checks.redis = async () => undefined; // embedded: in-memory stores
    const own = await runChecks(checks);
    const services = Object.fromEntries(
      await Promise.all(
        SERVICES.filter((s) => s !== 'gateway').map(async (s) => {
          try {
            const h = await this.infra.bus.call(HealthSubjects[s], {}, { timeoutMs: 1000 });
            return [s, { ok: h.ok, checks: h.checks }] as const;
          } catch (e) {
            return [s, { ok: false, detail: (e as Error).message }] as const;
          }
        }),
      ),
    );
    res.status(own.ok ? 200 : 503).json({
      status: own.ok ? 'ready' : 'not_ready',
      mode: this.infra.embedded ? 'embedded' : 'distributed',
      checks: own.checks,
      services,
    });
  }
}
