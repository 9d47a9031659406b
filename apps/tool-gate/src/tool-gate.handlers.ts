import { Inject, Injectable } from '@nestjs/common';
import { CotaError, Events, ToolGateSubjects } from '@cota/contracts';
import { emitStep, since } from '@cota/messaging';
import { BusHandlers, INFRA, Infra } from '@cota/service-kit';
import { ToolGate } from '@cota/tool-gating';

@Injectable()
export class ToolGateHandlers extends BusHandlers {
  constructor(
    @Inject(INFRA) infra: Infra,
    private readonly gate: ToolGate,
  ) {
    super(infra);
  }

  protected subscribe() {
    return [
      this.infra.bus.serve(ToolGateSubjects.invoke, async (req) => {
        const start = performance.now();
        const ids = { request_id: req.request_id, client_id: req.client_id, conversation_id: req.conversation_id };
        try {
          const res = await this.gate.invoke(req);
          emitStep(this.infra.bus, Events.toolGateInvoked, {
            ...ids,
            outcome: res.status === 'error' ? (res.tool?.status === 'failed' ? 'error' : 'rejected') : 'ok',
            timings_ms: { total: since(start) },
            attributes: {
              tool: res.tool?.name ?? req.tool?.name ?? null,
              status: res.status,
              tool_status: res.tool?.status ?? null,
              injected: res.tool?.injected.length ?? 0,
              confirmation: req.confirmation,
            },
          });
          return res;
        } catch (e) {
          emitStep(this.infra.bus, Events.toolGateInvoked, {
            ...ids,
            outcome: 'error',
            timings_ms: { total: since(start) },
            attributes: { tool: req.tool?.name ?? null, error: CotaError.is(e) ? e.code : 'INTERNAL' },
          });
          throw e;
        }
      }),
    ];
  }
}
