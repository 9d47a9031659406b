import { Controller } from '@nestjs/common';
import { Events, NarratorStream, NarratorSubjects, RequestOf } from '@cota/contracts';
import { BusContext, RpcHandler, StepEvent } from '@cota/messaging';
import { Narrator } from '@cota/narration';
import { Ctx, Payload } from '@nestjs/microservices';

/** Serves `cota.narrator.narrate.v1`, streaming the text as it is written (NarratorStream). */
@Controller()
export class NarratorHandlers {
  constructor(private readonly narrator: Narrator) {}

  @RpcHandler(NarratorSubjects.narrate)
  @StepEvent(NarratorSubjects.narrate, Events.narratorNarrated, {
    timings: (ms, res): Record<string, number> => (res ? { narrate: ms, llm: res.narrator.latency_ms } : { narrate: ms }),
    attributes: (req, res) => ({
      kind: req.kind,
      entity: req.entity,
      status: req.status,
      rows: req.data?.rows.length ?? 0,
      llm_used: res.narrator.llm_used,
      reason: res.narrator.reason,
      model: res.narrator.model,
    }),
    failure: (req, e) => ({ attributes: { kind: req.kind, entity: req.entity, error: (e as Error)?.name ?? 'Error' } }),
  })
  narrate(@Payload() req: RequestOf<typeof NarratorSubjects.narrate>, @Ctx() ctx: BusContext) {
    const bus = ctx.getBus();
    let seq = 0;
    const onDelta = (text: string) => bus.emitStream(NarratorStream, req.request_id, { request_id: req.request_id, seq: seq++, text });
    return this.narrator.narrate(req, onDelta);
  }
}
