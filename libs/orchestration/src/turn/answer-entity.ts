import { CotaError, ExecutorSubjects, QueryResult, RagMeta, RagSubjects } from '@cota/contracts';
import { Acted, ActContext, nothingFetched, unknownFundOnly } from './act';

/** RAG is optional for entity answers: when it fails the answer still goes out, and meta says why. */
async function retrieve({ client, input, reading }: ActContext): Promise<RagMeta> {
  try {
    return await client.call(RagSubjects.retrieve, {
      request_id: input.request_id,
      question: input.question,
      intent: reading.intent,
      entity: reading.entity,
      tickers: reading.params.tickers,
    });
  } catch (e) {
    return { enabled: false, reason: 'rag_unavailable', used_collections: [], chunks: [], total_chunks: 0, policy: null, error: CotaError.is(e) ? e.code : 'INTERNAL' };
  }
}

/** A filter or parameter the entity cannot serve is an answer ("não consegui..."), never a 5xx. */
async function query({ client, input, reading }: ActContext): Promise<QueryResult | null> {
  try {
    return await client.call(ExecutorSubjects.query, { request_id: input.request_id, client_id: input.client_id, entity: reading.entity!, params: reading.params });
  } catch (e) {
    if (!CotaError.is(e) || e.code !== 'BAD_REQUEST') throw e;
    return null;
  }
}

/** An answer from a catalog entity: the query and the knowledge base in parallel. */
export async function answerEntity(ctx: ActContext): Promise<Acted> {
  const { reading } = ctx;
  const funds = reading.params.tickers;
  if (!reading.planner.accepted) return nothingFetched(reading, 'needs_clarification', null);
  const unknown = unknownFundOnly(reading);
  if (unknown) return unknown;
  if (reading.ticker_required && funds.length === 0) return nothingFetched(reading, 'needs_clarification', 'ticker_required');
  const [data, rag] = await Promise.all([query(ctx), retrieve(ctx)]);
  if (!data) return { ...nothingFetched(reading, 'error', 'generic'), rag };
  return {
    ...nothingFetched(reading, 'ok', data.row_count === 0 ? 'no_data' : null),
    results: { [reading.entity!]: data.rows },
    params: data.params,
    data,
    rag,
  };
}
