import { RagSubjects } from '@cota/contracts';
import { Acted, ActContext, nothingFetched } from './act';

/** A concept ("o que é P/VP?"): answered from the knowledge base. */
export async function answerConcept({ client, input, reading }: ActContext): Promise<Acted> {
  const rag = await client.call(RagSubjects.retrieve, {
    request_id: input.request_id,
    question: reading.asked ?? input.question,
    intent: 'concept',
    entity: null,
    tickers: reading.params.tickers,
  });
  return { ...nothingFetched(reading, 'ok', null), results: { knowledge: rag.chunks.map((c) => ({ doc_id: c.doc_id, chunk_id: c.chunk_id, score: c.score })) }, rag };
}
