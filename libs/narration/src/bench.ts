import { loadCatalogColumns } from './catalog-columns';
import { collectAllowedFacts, guardLlmText } from './guard';
import { createNarrator } from './narrator';
import { realResult, tickerRecords } from './testing/real-rows';
import { narrateRequest } from './testing/requests';

/**
 * Benchmarks for `cli/bench.ts`: the deterministic answer is on every request's path, and the
 * guard runs on every model answer, so both must stay far below a millisecond-scale budget.
 * Rows are real (araquem samples under COTA_DATA_DIR).
 */
export function narrationBenchmarks(): Array<{ name: string; run: () => void | Promise<void>; targetMeanMs?: number }> {
  const narrator = createNarrator({ llm: null, catalog: loadCatalogColumns() ?? undefined });
  const dividends = tickerRecords('fiis_dividends', 'ABCP11', 'traded_until_date');
  const one = narrateRequest({
    question: 'Qual o último dividendo do ABCP11?',
    data: realResult('fiis_dividendos', dividends.slice(0, 1), { ticker: 'ABCP11', agg: 'latest' }),
  });
  const many = narrateRequest({
    question: 'Dividendos do ABCP11 nos últimos 48 pagamentos',
    data: realResult('fiis_dividendos', dividends.slice(0, 48), { ticker: 'ABCP11', window: 'rows:48' }),
  });
  const prices = realResult('fiis_precos', tickerRecords('fiis_quota_prices', 'ABCP11', 'traded_at'), { ticker: 'ABCP11' });
  const deterministic = narrator.deterministic.narrate(narrateRequest({ question: 'Cotações do ABCP11', data: prices })).answer;
  const llmText =
    'Nos últimos pregões, o ABCP11 fechou a R$ 74,83 em 14/11/2025, depois de R$ 74,87 em 13/11/2025 e R$ 74,99 em 12/11/2025; ' +
    'a variação no dia foi de -0,05%, e a mínima de R$ 74,24.';
  return [
    { name: 'narration: one-row sentence', run: () => void narrator.deterministic.narrate(one), targetMeanMs: 1 },
    { name: 'narration: 48-row table', run: () => void narrator.deterministic.narrate(many), targetMeanMs: 5 },
    {
      name: 'narration: guard over 1000 price rows',
      run: () => {
        const facts = collectAllowedFacts({ rows: prices.rows, columns: prices.columns, texts: [deterministic] });
        if (!guardLlmText(llmText, facts).ok) throw new Error('guard rejected a faithful text');
      },
      targetMeanMs: 50,
    },
  ];
}
