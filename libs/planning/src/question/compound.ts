import { parsePeriod } from '@cota/periods';
import { ABBREVIATIONS, fold, normalize } from '@cota/text';

/** Articles that open a clause after "e" when each side names its own thing asked. */
const ARTICLES = new Set(['o', 'a', 'os', 'as']);

/** A clause that asks the latest value ("o último dividendo", "o mais recente"). */
const LATEST = /(?:^| )(?:ultim[oa]s?|mais recentes?|atual)(?= |$)/;

/**
 * Compound questions ("qual o cnpj e o p/vp do GTWR11?", "me diz o dy e o valor de mercado do RZTR11"):
 * two or more things asked of the same subject, joined by "e" or a comma. Each is split into a question
 * of its own that keeps everything around the list (who asks, the fund, the period), so each part is
 * read exactly as if it had been asked alone. Which words name a thing asked is the catalog's and the
 * ontology's vocabulary (measure words, words that name one entity strongly); nothing here knows a topic.
 */
export interface TopicWords {
  /** A phrase that names what is asked, as a person writes it ("valor de mercado", "cnpj"). */
  phrase: string;
  /** What it names ("measure:market_cap", "entity:fiis_cadastro"): two phrases of one target are one thing asked. */
  target: string;
}

export interface CompoundPolicy {
  /** Words that may stand between two things asked besides "e" ("o", "a", "qual", "tambem"). */
  links: readonly string[];
  /** Words that open a question of its own after "e" or a comma ("qual", "quanto"): "quantas cotas eu tenho e qual o meu pm". */
  clause_openers: readonly string[];
  /** The most things one question is split into. */
  max_parts: number;
}

interface Token {
  /** The word as compared ("p/vp" → "pvp"). */
  word: string;
  start: number;
  end: number;
}

interface Found {
  from: number; // first token
  to: number; // one past the last token
  target: string;
}

/** The words of the folded text with their offsets; a comma not inside a number is the word "e"; an abbreviation, its word. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[a-z0-9]+(?:[/.,-][a-z0-9]+)*|,/g)) {
    // "vp/cota" is two words, "p/vp" one ("pvp"): as the text library's normal form has them.
    if (/^[a-z]+\/[a-z]+$/.test(m[0]) && normalize(m[0]).includes(' ')) {
      const cut = m[0].indexOf('/');
      out.push({ word: m[0].slice(0, cut), start: m.index!, end: m.index! + cut }, { word: m[0].slice(cut + 1), start: m.index! + cut + 1, end: m.index! + m[0].length });
      continue;
    }
    // (a chat abbreviation compares as its word: "qto paguei" opens a clause as "quanto paguei" does)
    const plain = m[0].replace(/[/-]/g, '');
    const word = m[0] === ',' ? 'e' : /^[a-z]+$/.test(ABBREVIATIONS[plain] ?? '') ? ABBREVIATIONS[plain] : plain;
    out.push({ word, start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

export class CompoundSplitter {
  private readonly phrases: Array<{ words: string[]; target: string }>;
  private readonly links: ReadonlySet<string>;
  private readonly openers: ReadonlySet<string>;
  private readonly modifiers: ReadonlySet<string>;

  /** `modifiers`: words that stand before a thing asked and belong to it ("o último dividendo", "a maior cotação"). */
  constructor(
    topics: readonly TopicWords[],
    private readonly policy: CompoundPolicy,
    modifiers: readonly string[] = [],
  ) {
    this.modifiers = new Set(modifiers.map((m) => fold(m)).filter((m) => /^[a-z]+$/.test(m)));
    // Longest phrases first: "valor de mercado" is one thing asked, not "valor" and "mercado".
    this.phrases = topics
      .map((t) => ({ words: tokens(fold(t.phrase)).map((w) => w.word), target: t.target }))
      .filter((p) => p.words.length > 0)
      .sort((a, b) => b.words.length - a.words.length);
    this.links = new Set(policy.links.map((l) => fold(l)));
    this.openers = new Set(policy.clause_openers.map((l) => fold(l)));
  }

  /**
   * The questions a compound question is made of, in the order asked; null when it asks one thing.
   * The parts are the folded text with the other things asked (and their "e") taken out.
   */
  split(question: string, subjects: readonly string[] = []): string[] | null {
    const text = fold(question);
    const words = tokens(text);
    const found = this.topicsIn(words);
    const chain = this.longestChain(words, found);
    if (!chain || chain.length < 2) return this.clauses(text, words, found, subjects);
    const head = text.slice(0, words[chain[0].from].start);
    const tail = text.slice(words[chain[chain.length - 1].to - 1].end);
    return chain
      .slice(0, this.policy.max_parts)
      .map((t) => `${head}${text.slice(words[this.modifiedFrom(words, t.from)].start, words[t.to - 1].end)}${tail}`.replace(/\s+/g, ' ').trim());
  }

  /**
   * Questions joined as clauses, each with its own verb ("quantas cotas de KNIP11 eu tenho e qual o meu pm",
   * "cnpj do CPTS11 e quanto ele fechou em 25/06/2025"): cut where "e" or a comma opens a question word,
   * when every clause names something asked and no two the same. A clause that does not name the funds
   * the question names ("qual o meu pm", "quanto ele fechou") is asked of them.
   */
  private clauses(text: string, words: Token[], found: Found[], subjects: readonly string[]): string[] | null {
    // (a literal "e": after a comma alone, "ifix entre jan e jun/24, qual foi a máxima?" restates one question; an article
    // opens a clause too when each side names its own thing: "fechamento do MXRF11 em 25/06/2025 e o valor do último dividendo")
    // ("qual é o dividend yield": after a question word, the folded "e" is the verb)
    const opens = (i: number) =>
      this.openers.has(words[i + 1]?.word ?? '') || (ARTICLES.has(words[i + 1]?.word ?? '') && i + 2 < words.length && !this.openers.has(words[i - 1].word));
    const cuts = words.flatMap((w, i) => (w.word === 'e' && text.slice(w.start, w.end) === 'e' && i > 0 && opens(i) ? [i] : []));
    if (!cuts.length) return null;
    const bounds = [-1, ...cuts, words.length];
    const parts = bounds.slice(1).map((end, k) => {
      let to = end;
      while (to > bounds[k] + 1 && words[to - 1].word === 'e') to--; // (a comma before the "e")
      return { from: bounds[k] + 1, to };
    });
    // (one clause may name its thing twice, "quanto recebi de dividendos com data com": no two clauses the same thing)
    const targets = parts.map((p) => [...new Set(found.filter((f) => f.from >= p.from && f.to <= p.to).map((f) => f.target))]);
    if (parts.length > this.policy.max_parts || targets.some((t) => t.length === 0)) return null;
    if (new Set(targets.flat()).size < targets.flat().length) return null;
    const named = subjects.map((t) => t.toLowerCase());
    // (a measure's clause without a period of its own is asked over the question's: "... em 2024 e qual meu yield on cost nele")
    const period = parsePeriod(text)?.matched ?? null;
    return parts.map((p, k) => {
      const clause = text.slice(words[p.from].start, words[p.to - 1].end).trim();
      const missing = named.filter((t) => !clause.includes(t));
      const withFunds = missing.length ? `${clause} do ${missing.join(' e do ')}` : clause;
      const measures = targets[k].every((t) => t.startsWith('measure:'));
      // ("fechamento do mxrf11 em 25/06/2025 e o valor do último dividendo": a clause that asks the latest keeps to it)
      return period && measures && !parsePeriod(clause) && !LATEST.test(clause) ? `${withFunds} ${period}` : withFunds;
    });
  }

  /** Where a thing asked starts with the modifiers right before it ("ultimo dividendo"), an article between them kept. */
  private modifiedFrom(words: Token[], from: number): number {
    let i = from;
    while (i > 0 && this.modifiers.has(words[i - 1].word)) i--;
    return i;
  }

  /** Every topic phrase in the text, left to right, none overlapping (the longest wins where two start together). */
  private topicsIn(words: Token[]): Found[] {
    const out: Found[] = [];
    for (let i = 0; i < words.length;) {
      const hit = this.phrases.find((p) => p.words.every((w, k) => words[i + k]?.word === w));
      if (hit) {
        out.push({ from: i, to: i + hit.words.length, target: hit.target });
        i += hit.words.length;
      } else i++;
    }
    return out;
  }

  /**
   * The longest run of things asked that are listed one after another: between two neighbours only
   * link words, with an "e" (or a comma) among them, and each naming something the others do not.
   */
  private longestChain(words: Token[], found: Found[]): Found[] | null {
    let best: Found[] | null = null;
    let run: Found[] = [];
    const close = () => {
      if (run.length >= 2 && (!best || run.length > best.length)) best = run;
    };
    for (const f of found) {
      const prev = run[run.length - 1];
      const gap = prev ? words.slice(prev.to, f.from).map((w) => w.word) : [];
      const listed = prev && gap.includes('e') && gap.every((w) => w === 'e' || this.links.has(w) || this.modifiers.has(w)) && !run.some((r) => r.target === f.target);
      if (listed) run.push(f);
      else {
        close();
        run = [f];
      }
    }
    close();
    return best;
  }
}
