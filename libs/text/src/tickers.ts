/** A fund ticker's shape, as a regex source: four letters and 11 to 19 ("HGLG11"). The one declaration. */
export const TICKER_PATTERN = '[A-Z]{4}1[1-9]';

/** A whole fund ticker, upper case. */
export const TICKER_RE = new RegExp(`^${TICKER_PATTERN}$`);

/** Ticker-shaped words of a text, in any case ("hglg11"), as whole words. */
const TICKER_WORD = new RegExp(`(?<![A-Za-z0-9])${TICKER_PATTERN}(?![A-Za-z0-9])`, 'gi');

/** The fund tickers written in a text, upper-cased, each once, in order. */
export function tickersIn(text: string): string[] {
  return [...new Set((text.match(TICKER_WORD) ?? []).map((t) => t.toUpperCase()))];
}

/** The text with each ticker written in it replaced ("10 hglg11" → "10 cotas" with " cotas "). */
export function withoutTickers(text: string, replacement = ' '): string {
  return text.replace(TICKER_WORD, replacement);
}
