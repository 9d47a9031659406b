import { ToolGateSubjects } from '@cota/contracts';
import { Acted, ActContext, callerOf, nothingFetched } from './act';

/** A tool call or the answer to a pending confirmation, through the tool gate (never the question's text). */
export async function runTool({ client, input, reading }: ActContext): Promise<Acted> {
  const tool = await client.call(ToolGateSubjects.invoke, { ...callerOf(input), tool: reading.tool, confirmation: reading.confirmation });
  const results = tool.result === undefined || tool.result === null ? {} : { tool: tool.result };
  return { ...nothingFetched(reading, tool.status, null), results, tool };
}
