import { IsoDate, ToolGateSubjects, type InvokeResponse, type StructuredQuestion } from '@cota/contracts';
import { Acted, ActContext, callerOf, nothingFetched } from './act';

/** A tool call or the answer to a pending confirmation, through the tool gate (never the question's text). */
export async function runTool({ client, input, reading }: ActContext): Promise<Acted> {
  const tool = await client.call(ToolGateSubjects.invoke, { ...callerOf(input), tool: reading.tool, confirmation: reading.confirmation });
  const results = tool.result === undefined || tool.result === null ? {} : { tool: tool.result };
  return { ...nothingFetched(reading, tool.status, null), results, tool, question: measuredPeriod(tool) ?? reading.question };
}

/**
 * A tool that measured something over a period says which in its result (`data_inicio`, `data_fim`: "sua carteira
 * rendeu 22% de 01/01/2023 a 31/12/2023"): the turn leaves that period as a question with no subject of its own,
 * so "e o IFIX no mesmo período?" and "e o CDI?" are the benchmark's move over the same dates.
 */
export function measuredPeriod(tool: InvokeResponse): StructuredQuestion | null {
  const result = tool.tool?.status === 'executed' && tool.result && typeof tool.result === 'object' ? (tool.result as Record<string, unknown>) : null;
  const from = IsoDate.safeParse(result?.data_inicio);
  const to = IsoDate.safeParse(result?.data_fim);
  if (!from.success || !to.success || from.data > to.data) return null;
  const wholeYear = from.data.slice(0, 4) === to.data.slice(0, 4) && from.data.slice(5) === '01-01' && to.data.slice(5) === '12-31';
  return {
    condition: null,
    subjects: [],
    measure: null,
    agg: 'variation',
    also: [],
    period: { kind: 'range', from: from.data, to: to.data, grain: wholeYear ? 'year' : 'days' },
    group_by: null,
    compare: null,
  };
}
