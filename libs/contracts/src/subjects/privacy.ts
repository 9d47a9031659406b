import { z } from 'zod';
import { defineRpc, SERVICES } from '../define';

/**
 * Per-client erasure (issue 11, `DELETE /me/data`, `/ops/erase`, `npm run erase`). Each service
 * that owns a store erases its own rows over the bus; one orchestrator
 * (`ClientErasure` in @cota/orchestration) calls them and writes the receipt.
 */
export const EraseClientRequest = z.object({
  /** The erasure this step belongs to (the receipt id): for logs and correlation. */
  erasure_id: z.string().min(1).max(80),
  client_id: z.string().min(1).max(256),
});
export type EraseClientRequest = z.infer<typeof EraseClientRequest>;

/** What one store held of the client and removed (0 when there was nothing: erasure is idempotent). */
export const ErasedStore = z.object({
  service: z.enum(SERVICES),
  /** Table name for Postgres stores; a descriptive name for the others (`conversation_hot_state`, `rate_limit_counters`). */
  store: z.string().min(1),
  /** Where it lives: `postgres`, `redis`, or `memory` (embedded mode). */
  backend: z.enum(['postgres', 'redis', 'memory']),
  count: z.number().int().min(0),
});
export type ErasedStore = z.infer<typeof ErasedStore>;

export const EraseClientResponse = z.object({ erased: z.array(ErasedStore) });
export type EraseClientResponse = z.infer<typeof EraseClientResponse>;

/** The receipt answered by `DELETE /me/data`, `POST /ops/erase` and printed by `npm run erase`. */
export const ErasureReceipt = z.object({
  receipt_id: z.string(),
  client_id: z.string(),
  /** `client`: the client's own request (DELETE /me/data); `ops`: an operator's (ops endpoint or CLI). */
  requested_by: z.enum(['client', 'ops']),
  erased_at: z.string(),
  /** Every store that can hold client data, with what was removed from each (0 included). */
  erased: z.array(ErasedStore),
  /** Sum of the counts: 0 on a repeated erasure. */
  total: z.number().int().min(0),
  /** For the person, in pt-BR. */
  message: z.string(),
});
export type ErasureReceipt = z.infer<typeof ErasureReceipt>;

/** The gateway's fence: the client's keys let no new request in, and none is still running. */
export const FenceClientResponse = z.object({
  /** How many keys of the client were fenced. */
  keys: z.number().int().min(0),
  /** False when requests were still counted running at the end of the wait (a replica that stopped mid-request). */
  drained: z.boolean(),
});
export type FenceClientResponse = z.infer<typeof FenceClientResponse>;

const erase = (service: 'context' | 'executor' | 'gateway') =>
  defineRpc({ subject: `cota.${service}.erase-client.v1`, service, request: EraseClientRequest, response: EraseClientResponse, timeoutMs: 30_000 });

/** One erase subject per owner of client data; the subjects stay namespaced by the owning service. */
export const PrivacySubjects = {
  /**
   * First step: the client's keys are fenced (no new question or history read gets in on any gateway)
   * and the requests already running end, so nothing is written for the client after its data is erased.
   */
  fenceGateway: defineRpc({ subject: 'cota.gateway.fence-client.v1', service: 'gateway', request: EraseClientRequest, response: FenceClientResponse, timeoutMs: 30_000 }),
  /** Conversation history (conversation_turns) and the hot state (Redis or memory) of every conversation of the client. */
  eraseContext: erase('context'),
  /** Tool tables (tool_reports, email_outbox, client_transactions) and the warehouse's client tables. */
  eraseExecutor: erase('executor'),
  /** Last step: API keys (api_keys, revoked on every gateway at once) and the rate-limit counters of the client. */
  eraseGateway: erase('gateway'),
};
