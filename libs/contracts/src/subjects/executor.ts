import { z } from 'zod';
import { defineRpc } from '../define';
import { QueryParams, QueryResult } from '../common';
import { MeasureResult, StructuredQuestion } from '../question';

export const QueryRequest = z.object({
  request_id: z.string().min(1),
  /** The authenticated client (client entities are always filtered by it). */
  client_id: z.string().min(1),
  entity: z.string().min(1).max(64),
  params: QueryParams,
});

/** A structured question to compute (aggregations in SQL built from the measure catalog). */
export const MeasureRequest = z.object({
  request_id: z.string().min(1),
  client_id: z.string().min(1),
  question: StructuredQuestion,
});

export const FundsRequest = z.object({});
export const Fund = z.object({ ticker: z.string(), name: z.string().nullable(), cnpj: z.string().nullable() });
export const FundsResponse = z.object({ funds: z.array(Fund) });

/** Runs a tool whose arguments the tool gate already resolved and approved. */
export const ToolRunRequest = z.object({
  request_id: z.string().min(1),
  client_id: z.string().min(1),
  conversation_id: z.string().min(1),
  name: z.string().min(1).max(64),
  args: z.record(z.unknown()),
});
export const ToolRunResponse = z.object({
  name: z.string(),
  ok: z.boolean(),
  result: z.unknown(),
  /** Session values the tool sets (e.g. active_report_id). */
  session_updates: z.array(z.object({ key: z.string(), value: z.unknown(), ttl_seconds: z.number().int().positive().nullable() })),
});

export const ExecutorSubjects = {
  query: defineRpc({ subject: 'cota.executor.query.v1', service: 'executor', request: QueryRequest, response: QueryResult, timeoutMs: 10000, idempotent: true }),
  measure: defineRpc({ subject: 'cota.executor.measure.v1', service: 'executor', request: MeasureRequest, response: MeasureResult, timeoutMs: 10000, idempotent: true }),
  funds: defineRpc({ subject: 'cota.executor.funds.v1', service: 'executor', request: FundsRequest, response: FundsResponse, idempotent: true }),
  runTool: defineRpc({ subject: 'cota.executor.run-tool.v1', service: 'executor', request: ToolRunRequest, response: ToolRunResponse, timeoutMs: 15000 }),
};
