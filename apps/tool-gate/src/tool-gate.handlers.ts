import { Controller } from '@nestjs/common';
import { Events, RequestOf, ToolGateSubjects } from '@cota/contracts';
import { errorCode, RpcHandler, StepEvent } from '@cota/messaging';
import { ToolGate } from '@cota/tool-gating';

/** Serves `cota.tool-gate.invoke.v2`: every tool call passes the gate (policy, confirmation, injection checks). */
@Controller()
export class ToolGateHandlers {
  constructor(private readonly gate: ToolGate) {}

  @RpcHandler(ToolGateSubjects.invoke)
  @StepEvent(ToolGateSubjects.invoke, Events.toolGateInvoked, {
    outcome: (res) => (res.status === 'error' ? (res.tool?.status === 'failed' ? 'error' : 'rejected') : 'ok'),
    attributes: (req, res) => ({
      tool: res.tool?.name ?? req.tool?.name ?? null,
      status: res.status,
      tool_status: res.tool?.status ?? null,
      injected: res.tool?.injected.length ?? 0,
      confirmation: req.confirmation,
    }),
    failure: (req, e) => ({ attributes: { tool: req.tool?.name ?? null, error: errorCode(e) } }),
  })
  invoke(req: RequestOf<typeof ToolGateSubjects.invoke>) {
    return this.gate.invoke(req);
  }
}
