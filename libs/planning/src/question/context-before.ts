import { fold } from '@cota/text';

/** Words that ask for a result without naming anything: "quanto dá?", "qual o valor?", "quanto fica isso?". */
const RESULT_ONLY = new Set(['da', 'fica', 'e', 'eh', 'foi', 'seria', 'sai', 'daria', 'ficaria', 'deu', 'o', 'a', 'isso', 'isto', 'resultado', 'valor', 'total', 'entao', 'ai']);

function asksOnlyTheResult(asked: string): boolean {
  const words = asked
    .split(/\s+/)
    .map((w) => w.replace(/[^a-z0-9]/g, ''))
    .filter(Boolean);
  return words.slice(1).every((w) => RESULT_ONLY.has(w));
}

/**
 * A message that tells its context before it asks ("tava olhando o gráfico do KNRI11 e parece que ele
 * subiu bastante... qual foi a maior cotação dele em 2024?", "to montando uma planilha dos meus fiis:
 * qual o segmento do PVBI11?"): the question is its last sentence that opens with a question word, and
 * the context's words (a rise told, "meus fiis") are not part of what is asked. The funds the context
 * names are kept: a question that does not name them is asked of them, as a compound's clause is.
 * Null when the message is one sentence, its context is too short to be one ("ok. qual o dy?"), or asks
 * something itself.
 */
export function questionAfterContext(question: string, tickers: readonly string[], openers: ReadonlySet<string>, minContextWords: number): string | null {
  const text = fold(question);
  const ends = [...text.matchAll(/(?:\.{2,}|…|[.:;!?])\s+/g)].map((m) => m.index! + m[0].length).reverse();
  for (const at of ends) {
    const asked = text.slice(at).trim();
    if (!openers.has(asked.split(/\s+/)[0].replace(/[^a-z0-9]/g, ''))) continue;
    // ("DY do X = soma ... dividida pelo fechamento de 10/06/25. quanto dá?": a question that asks only for the result
    // of what the message defined is no question of its own)
    if (asksOnlyTheResult(asked)) return null;
    const context = text.slice(0, at);
    // (a context is told: "dy do X? e o pvp?" asks twice, and "em 2024? quanto variou?" asks one thing in two)
    if (context.includes('?') || context.split(/\s+/).filter((w) => /[a-z0-9]/.test(w)).length < minContextWords) return null;
    const missing = tickers.map((t) => t.toLowerCase()).filter((t) => !asked.includes(t));
    return missing.length ? `${asked} do ${missing.join(' e do ')}` : asked;
  }
  return null;
}
