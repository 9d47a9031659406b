import { z } from 'zod';
import { defineRpc } from '../define';
import { RagChunk } from '../common';

export const RetrieveRequest = z.object({
  request_id: z.string().min(1),
  question: z.string(),
  intent: z.string(),
  entity: z.string().nullable(),
  tickers: z.array(z.string()).default([]),
});
export const RagMeta = z.object({
  enabled: z.boolean(),
  reason: z.string(),
  used_collections: z.array(z.string()),
  chunks: z.array(RagChunk),
  total_chunks: z.number().int(),
  policy: z.record(z.unknown()).nullable(),
  error: z.string().nullable(),
});
export type RagMeta = z.infer<typeof RagMeta>;

export const ReindexRequest = z.object({ collections: z.array(z.string()).optional() });
export const ReindexResponse = z.object({ indexed: z.record(z.number().int()), embedder: z.string(), vector_backend: z.string() });

export const RagSubjects = {
  retrieve: defineRpc({ subject: 'cota.rag.retrieve.v1', service: 'rag', request: RetrieveRequest, response: RagMeta, idempotent: true }),
  reindex: defineRpc({ subject: 'cota.rag.reindex.v1', service: 'rag', request: ReindexRequest, response: ReindexResponse, timeoutMs: 120000 }),
};
