import { z } from 'zod';
import { defineRpc } from '../define';
import { Caller } from '../common';

export const InjectedArg = z.object({ arg: z.string(), value: z.unknown(), source: z.string() });

export const ToolMeta = z.object({
  name: z.string(),
  args: z.record(z.unknown()),
  injected: z.array(InjectedArg),
  status: z.enum(['executed', 'confirmation_required', 'cancelled', 'rejected', 'failed']),
});
export type ToolMeta = z.infer<typeof ToolMeta>;

/** A tool call (from the planner) or the answer to a pending confirmation. */
export const InvokeRequest = Caller.extend({
  question: z.string(),
  tool: z.object({ name: z.string(), args: z.record(z.unknown()) }).nullable(),
  confirmation: z.enum(['yes', 'no']).nullable(),
});
export const InvokeResponse = z.object({
  status: z.enum(['ok', 'confirmation_required', 'error']),
  tool: ToolMeta.nullable(),
  result: z.unknown(),
  /** Plain pt-BR message when there is no result to present (error, confirmation prompt). */
  message: z.string().nullable(),
});
export type InvokeResponse = z.infer<typeof InvokeResponse>;

export const ToolGateSubjects = {
  invoke: defineRpc({ subject: 'cota.tool-gate.invoke.v1', service: 'tool-gate', request: InvokeRequest, response: InvokeResponse, timeoutMs: 20000 }),
};
