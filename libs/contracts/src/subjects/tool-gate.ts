import { z } from 'zod';
import { defineRpc } from '../define';
import { Caller } from '../common';

export const InjectedArg = z.object({ arg: z.string(), value: z.unknown(), source: z.string() });

export const ToolMeta = z.object({
  name: z.string(),
  args: z.record(z.unknown()),
  injected: z.array(InjectedArg),
  /** `needs_argument`: a required argument is missing; the next message may complete the same call. */
  status: z.enum(['executed', 'confirmation_required', 'cancelled', 'needs_argument', 'rejected', 'failed']),
});
export type ToolMeta = z.infer<typeof ToolMeta>;

/** A tool call (from the planner) or the answer to a pending confirmation. */
export const InvokeRequest = Caller.extend({
  question: z.string(),
  tool: z.object({ name: z.string(), args: z.record(z.unknown()) }).nullable(),
  confirmation: z.enum(['yes', 'no']).nullable(),
  /**
   * `complete`: the message answers the call waiting for an argument ("qual a taxa?" → "1% ao mês");
   * `try_complete`: it may answer it, but it also reads as a question of its own (declined when it holds
   * none of the missing arguments); `edit`: it changes an argument of the last call ("e a 1% ao mês?").
   */
  continuation: z.enum(['none', 'complete', 'try_complete', 'edit']).default('none'),
  /** The conversation's one fund of the last answer, for tools that take a ticker ("número mágico dele"). */
  context_ticker: z.string().nullable().default(null),
});
export const InvokeResponse = z.object({
  status: z.enum(['ok', 'needs_clarification', 'confirmation_required', 'error']),
  tool: ToolMeta.nullable(),
  result: z.unknown(),
  /** Plain pt-BR message when there is no result to present (error, confirmation prompt). */
  message: z.string().nullable(),
  /** An edit that changed nothing of the last call: the message is not a follow-up of it; plan it anew. */
  declined: z.boolean().optional(),
});
export type InvokeResponse = z.infer<typeof InvokeResponse>;

export const ToolGateSubjects = {
  invoke: defineRpc({ subject: 'cota.tool-gate.invoke.v1', service: 'tool-gate', request: InvokeRequest, response: InvokeResponse, timeoutMs: 20000 }),
};
