import { CotaError, ExecutorSubjects, MeasureResult } from '@cota/contracts';
import { Acted, ActContext, nothingFetched, unknownFundOnly } from './act';

/** A measure over a period, a comparison or a panel, computed by the executor from the measure catalog. */
export async function answerMeasure({ client, input, reading }: ActContext): Promise<Acted> {
  const unknown = unknownFundOnly(reading);
  if (unknown) return unknown;
  if (reading.ticker_required && reading.params.tickers.length === 0) return nothingFetched(reading, 'needs_clarification', 'ticker_required');
  // (nor is a market measure that names no series: asked back, never an error)
  if (reading.question?.subjects.length === 0) return nothingFetched(reading, 'needs_clarification', 'series_required');
  let measure: MeasureResult;
  try {
    measure = await client.call(ExecutorSubjects.measure, { request_id: input.request_id, client_id: input.client_id, question: reading.question! });
  } catch (e) {
    if (!CotaError.is(e) || e.code !== 'BAD_REQUEST') throw e;
    return nothingFetched(reading, 'error', 'generic');
  }
  const empty = measure.values.every((v) => v.value === null);
  return { ...nothingFetched(reading, 'ok', empty ? 'no_data' : null), results: { [reading.entity!]: measure.values }, measure };
}
