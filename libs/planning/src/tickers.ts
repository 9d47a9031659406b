import { TICKER_RE } from '@cota/contracts';
import { stripAccents } from '@cota/text';

/** Tickers written in a question, in order, and the ticker-shaped words no fund has. */
export interface TickerMatch {
  tickers: string[];
  unknown: string[];
  /** Lowercase words of the question that named a fund (so routing does not read them as words). */
  surfaces: Set<string>;
  /** How the tickers were recognised, for meta.planner.reason. */
  mode: 'fund-list' | 'pattern-only';
}

const PREFIX = /^[A-Z]{4}$/;
const LOWER_PREFIX = /^[a-z]{4}$/;

/**
 * Recognises fund tickers against the warehouse's list: exact tickers in any case ("hglg11"),
 * a 4-letter prefix when exactly one fund has it ("VINO" -> VINO11; in lowercase only when it
 * is not an ordinary word), several
 * tickers in order. Ticker-shaped words that are not in the list are reported as unknown.
 * Without a list (service still loading it) every AAAA11-shaped word is accepted.
 */
export class TickerIndex {
  private readonly known: ReadonlySet<string> | null;
  private readonly byPrefix = new Map<string, string[]>();

  constructor(
    funds: Iterable<string> | null,
    /** Lowercase 4-letter words that are never read as a prefix ("QUAL", "IFIX"). */
    private readonly prefixStopwords: ReadonlySet<string> = new Set(),
  ) {
    if (funds === null) {
      this.known = null;
      return;
    }
    const set = new Set<string>();
    for (const raw of funds) {
      const t = raw.trim().toUpperCase();
      if (!TICKER_RE.test(t)) continue;
      set.add(t);
    }
    this.known = set;
    for (const t of set) {
      const p = t.slice(0, 4);
      const list = this.byPrefix.get(p) ?? [];
      list.push(t);
      this.byPrefix.set(p, list);
    }
  }

  get loaded(): boolean {
    return this.known !== null;
  }

  get size(): number {
    return this.known?.size ?? 0;
  }

  has(ticker: string): boolean {
    return this.known ? this.known.has(ticker.toUpperCase()) : TICKER_RE.test(ticker.toUpperCase());
  }

  /**
   * `isWord` tells which lowercase words are ordinary vocabulary: a lowercase 4-letter word is read
   * as a ticker prefix ("hglg") only when it is not one; capitalised prefixes ("HGLG") always are.
   */
  recognize(text: string, isWord: (lower: string) => boolean = () => true): TickerMatch {
    const tickers: string[] = [];
    const unknown: string[] = [];
    const surfaces = new Set<string>();
    const words = stripAccents(text).match(/[A-Za-z0-9]+/g) ?? [];
    for (const word of words) {
      if (TICKER_RE.test(word.toUpperCase())) {
        const t = word.toUpperCase();
        surfaces.add(word.toLowerCase());
        if (this.has(t)) {
          if (!tickers.includes(t)) tickers.push(t);
        } else if (!unknown.includes(t)) unknown.push(t);
        continue;
      }
      const lower = word.toLowerCase();
      const prefixLike = PREFIX.test(word) || (LOWER_PREFIX.test(word) && !isWord(lower));
      if (this.known && prefixLike && !this.prefixStopwords.has(lower)) {
        const matches = this.byPrefix.get(word.toUpperCase());
        if (matches && matches.length === 1) {
          surfaces.add(word.toLowerCase());
          if (!tickers.includes(matches[0])) tickers.push(matches[0]);
        }
      }
    }
    return { tickers, unknown, surfaces, mode: this.known ? 'fund-list' : 'pattern-only' };
  }
}
