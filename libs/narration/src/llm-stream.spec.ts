import type { ChatMessage, CompleteOptions, LlmClient } from '@cota/llm';
import { loadCatalogColumns } from './catalog-columns';
import { lastSentenceEnd } from './llm-narrator';
import { createNarrator } from './narrator';
import { realResult, tickerRecords } from './testing/real-rows';
import { narrateRequest } from './testing/requests';

/** Streaming: the model's text reaches the page sentence by sentence, each one guarded first. */

class StreamingLlm implements LlmClient {
  readonly model = 'stream-model';
  constructor(private readonly pieces: string[]) {}
  async complete(): Promise<string> {
    return this.pieces.join('');
  }
  async *stream(_m: ChatMessage[], _o: CompleteOptions): AsyncIterable<string> {
    for (const p of this.pieces) yield p;
  }
}

const catalog = loadCatalogColumns() ?? undefined;
const dividend = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date')[0];
const data = realResult('fiis_dividendos', [dividend], { ticker: 'ABCP11', agg: 'latest' });
const request = narrateRequest({ question: 'Qual o último dividendo do ABCP11?', data, stream: true });

async function run(pieces: string[]) {
  const narrator = createNarrator({ llm: new StreamingLlm(pieces), catalog });
  const deltas: string[] = [];
  const res = await narrator.narrate(request, (d) => deltas.push(d));
  return { res, deltas };
}

describe('streamed narration', () => {
  it('releases whole sentences only, and the final answer is the guarded text plus the source', async () => {
    const { res, deltas } = await run(['O ABCP11 pag', 'ou R$ 0,', '65 por cota. O pagamento', ' foi em 07/11/2025.']);
    expect(deltas).toEqual(['O ABCP11 pagou R$ 0,65 por cota.', ' O pagamento foi em 07/11/2025.']);
    expect(res.narrator).toMatchObject({ llm_used: true, reason: 'llm_ok' });
    expect(res.answer).toMatch(/^O ABCP11 pagou R\$ 0,65 por cota\. O pagamento foi em 07\/11\/2025\.\n\nFonte:/);
  });

  it('stops at the first sentence with an invented number: it never reaches the page', async () => {
    const { res, deltas } = await run(['O ABCP11 pagou R$ 0,65 por cota. ', 'Isso rende 12,34% ao ano. ', 'Fim.']);
    expect(deltas).toEqual(['O ABCP11 pagou R$ 0,65 por cota.']);
    expect(deltas.join('')).not.toContain('12,34');
    expect(res.narrator.reason).toBe('guard_rejected:12,34');
    expect(res.narrator.llm_used).toBe(false);
    expect(res.answer).toContain('R$ 0,65');
  });

  it('does not stream when the request does not ask for it', async () => {
    const narrator = createNarrator({ llm: new StreamingLlm(['O ABCP11 pagou R$ 0,65 por cota.']), catalog });
    const deltas: string[] = [];
    await narrator.narrate({ ...request, stream: false }, (d) => deltas.push(d));
    expect(deltas).toEqual([]);
  });
});

describe('lastSentenceEnd', () => {
  it.each([
    ['Uma frase. Outra em curso', 10],
    ['R$ 1.234,56 sem fim', 0],
    ['Linha um\nLinha dois', 9],
    ['Pergunta? Sim! Fim', 14],
    ['', 0],
  ])('%j -> %d', (text, end) => {
    expect(lastSentenceEnd(text)).toBe(end);
  });
});
