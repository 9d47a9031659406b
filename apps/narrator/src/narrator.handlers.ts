import { Inject, Injectable } from '@nestjs/common';
import { Events, NarratorStream, NarratorSubjects } from '@cota/contracts';
import { emitStep, since, TransportSubscription } from '@cota/messaging';
import { Narrator } from '@cota/narration';
import { BusHandlers, INFRA, Infra } from '@cota/service-kit';

@Injectable()
export class NarratorHandlers extends BusHandlers {
  constructor(
    @Inject(INFRA) infra: Infra,
    private readonly narrator: Narrator,
  ) {
    super(infra);
  }

  protected subscribe(): TransportSubscription[] {
    return [
      this.infra.bus.serve(NarratorSubjects.narrate, async (req) => {
        const started = performance.now();
        try {
          let seq = 0;
          const onDelta = (text: string) => this.infra.bus.emitStream(NarratorStream, req.request_id, { request_id: req.request_id, seq: seq++, text });
          const res = await this.narrator.narrate(req, onDelta);
          emitStep(this.infra.bus, Events.narratorNarrated, {
            request_id: req.request_id,
            outcome: 'ok',
            timings_ms: { narrate: since(started), llm: res.narrator.latency_ms },
            attributes: {
              kind: req.kind,
              entity: req.entity,
              status: req.status,
              rows: req.data?.rows.length ?? 0,
              llm_used: res.narrator.llm_used,
              reason: res.narrator.reason,
              model: res.narrator.model,
            },
          });
          return res;
        } catch (e) {
          emitStep(this.infra.bus, Events.narratorNarrated, {
            request_id: req.request_id,
            outcome: 'error',
            timings_ms: { narrate: since(started) },
            attributes: { kind: req.kind, entity: req.entity, error: (e as Error)?.name ?? 'Error' },
          });
          throw e;
        }
      }),
    ];
  }

  protected override healthChecks() {
    return {
      templates: async () => {
        if (Object.keys(this.narrator.templates).length === 0) throw new Error('no answer templates loaded');
      },
    };
  }
}
