import { z } from 'zod';
import { defineRpc } from '../define';
import { Caller } from '../common';
import { ToolReading } from './planner';

export const InjectedArg = z.object({ arg: z.string(), value: z.unknown(), source: z.string() });

export const ToolMeta = z.object({
  name: z.string(),
  args: z.record(z.unknown()),
  injected: z.array(InjectedArg),
  /** `needs_argument`: a required argument is missing; the next message may complete the same call. */
  status: z.enum(['executed', 'confirmation_required', 'cancelled', 'needs_argument', 'rejected', 'failed']),
});
export type ToolMeta = z.infer<typeof ToolMeta>;

/** A tool call as the planner read it, or the answer to a pending confirmation; never the question's text. */
export const InvokeRequest = Caller.extend({
  tool: ToolReading.nullable(),
  confirmation: z.enum(['yes', 'no']).nullable(),
});
export const InvokeResponse = z.object({
  status: z.enum(['ok', 'needs_clarification', 'confirmation_required', 'error']),
  tool: ToolMeta.nullable(),
  result: z.unknown(),
  /** Plain pt-BR message when there is no result to present (error, confirmation prompt). */
  message: z.string().nullable(),
});
export type InvokeResponse = z.infer<typeof InvokeResponse>;

export const ToolGateSubjects = {
  invoke: defineRpc({ subject: 'cota.tool-gate.invoke.v2', service: 'tool-gate', request: InvokeRequest, response: InvokeResponse, timeoutMs: 20000 }),
};
