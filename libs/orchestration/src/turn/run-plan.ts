import { ExecutorSubjects, ToolGateSubjects } from '@cota/contracts';
import { runPlan } from '../plan-runner';
import { Acted, ActContext, callerOf, nothingFetched } from './act';

/** Several steps in waves (facts through the executor, tools through the gate), then one answer. */
export async function runMultiStep({ client, input, reading }: ActContext): Promise<Acted> {
  const plan = reading.plan!;
  const outcomes = await runPlan(plan, {
    measure: (q) => client.call(ExecutorSubjects.measure, { request_id: input.request_id, client_id: input.client_id, question: q }),
    tool: (name, args) => client.call(ToolGateSubjects.invoke, { ...callerOf(input), tool: { name, args, continuation: 'none', own: true }, confirmation: null }),
  });
  const results = Object.fromEntries(outcomes.map((o) => [o.id, o.measure?.values ?? o.tool?.result ?? null]));
  const problem = outcomes.every((o) => o.status !== 'ok') ? 'no_data' : null;
  return { ...nothingFetched(reading, 'ok', problem), results, planRun: { plan, outcomes } };
}
