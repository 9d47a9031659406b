import { CONTRACT_SAMPLES, ContextSubjects, ExecutorSubjects, NarratorSubjects, RpcDef } from '@cota/contracts';
import { Bus, BusClient, InProcessTransport, withCallScope } from '@cota/messaging';
import { AskPipeline } from './ask-pipeline';

const sample = (def: RpcDef) => CONTRACT_SAMPLES.find((s) => s.def === def)!.response as never;

/** Every service faked with its contract sample; `slow` picks which step overruns and how. */
function setup(slow: { executorMs?: number; narratorBusyMs?: number }) {
  const transport = new InProcessTransport();
  const bus = new Bus(transport, 'gateway');
  const commits: unknown[] = [];
  for (const s of CONTRACT_SAMPLES) {
    if (s.def === ContextSubjects.commit || s.def === ExecutorSubjects.query || s.def === NarratorSubjects.narrate) continue;
    bus.serve(s.def, () => s.response as never);
  }
  bus.serve(ContextSubjects.commit, (req) => (commits.push(req), { reference_updated: true }));
  bus.serve(ExecutorSubjects.query, async () => {
    if (slow.executorMs) await new Promise((r) => setTimeout(r, slow.executorMs));
    return sample(ExecutorSubjects.query);
  });
  bus.serve(NarratorSubjects.narrate, () => {
    // Synchronous work that runs past the deadline: the reply still arrives, after it.
    const until = Date.now() + (slow.narratorBusyMs ?? 0);
    while (Date.now() < until) {
      /* busy */
    }
    return sample(NarratorSubjects.narrate);
  });
  return { pipeline: new AskPipeline(new BusClient(bus)), commits, transport };
}

const input = { request_id: 'req-deadline-1', client_id: 'ana', conversation_id: 'c-1', nickname: 'Ana', question: 'Qual o CNPJ do HGLG11?' };

describe('AskPipeline under a deadline', () => {
  it('commits the turn when the question ends in time', async () => {
    const { pipeline, commits, transport } = setup({});
    const out = await withCallScope({ deadline: Date.now() + 2000, requestId: input.request_id }, () => pipeline.ask(input));
    expect(out.status).toBe('ok');
    expect(commits).toHaveLength(1);
    await transport.drain();
  });

  it('a slow step: TIMEOUT at the deadline (not at the step timeout), nothing committed', async () => {
    const { pipeline, commits, transport } = setup({ executorMs: 3000 });
    const t = Date.now();
    await expect(withCallScope({ deadline: Date.now() + 300, requestId: input.request_id }, () => pipeline.ask(input))).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - t).toBeLessThan(1500);
    expect(commits).toHaveLength(0);
    await transport.drain();
  });

  it('an answer that arrives after the deadline is not committed: TIMEOUT instead of a late success', async () => {
    const { pipeline, commits, transport } = setup({ narratorBusyMs: 250 });
    await expect(withCallScope({ deadline: Date.now() + 150, requestId: input.request_id }, () => pipeline.ask(input))).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('before its turn was committed'),
      details: { deadline: 'passed' },
    });
    expect(commits).toHaveLength(0);
    await transport.drain();
  });
});
