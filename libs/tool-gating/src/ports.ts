import { z } from 'zod';
import { ContextSubjects, ExecutorSubjects, ToolRunRequest, ToolRunResponse } from '@cota/contracts';
import { Bus } from '@cota/messaging';

export type ToolRun = z.infer<typeof ToolRunRequest>;
export type ToolRunResult = z.infer<typeof ToolRunResponse>;
export interface ConversationRef {
  client_id: string;
  conversation_id: string;
}

/** Session values of one conversation (owned by the context service). */
export interface SessionStore {
  get(conv: ConversationRef, keys: string[]): Promise<Record<string, unknown>>;
  /** `value` null deletes the key. */
  set(conv: ConversationRef, key: string, value: unknown, ttlSeconds: number | null): Promise<void>;
}

/** Runs an approved tool call (in the executor service). */
export interface ToolRunner {
  run(request: ToolRun): Promise<ToolRunResult>;
}

/** Session values through `cota.context.session-*` on the bus. */
export class BusSessionStore implements SessionStore {
  constructor(private readonly bus: Bus) {}

  async get(conv: ConversationRef, keys: string[]): Promise<Record<string, unknown>> {
    const res = await this.bus.call(ContextSubjects.sessionGet, { client_id: conv.client_id, conversation_id: conv.conversation_id, keys });
    return res.values;
  }

  async set(conv: ConversationRef, key: string, value: unknown, ttlSeconds: number | null): Promise<void> {
    await this.bus.call(ContextSubjects.sessionSet, {
      client_id: conv.client_id,
      conversation_id: conv.conversation_id,
      key,
      value: value ?? null,
      ttl_seconds: value === null || value === undefined ? null : ttlSeconds,
    });
  }
}

/** Tool runs through `cota.executor.run-tool` on the bus. */
export class BusToolRunner implements ToolRunner {
  constructor(private readonly bus: Bus) {}

  run(request: ToolRun): Promise<ToolRunResult> {
    return this.bus.call(ExecutorSubjects.runTool, request);
  }
}
