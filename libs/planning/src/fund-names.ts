import { normalize } from '@cota/text';

/** A fund as the warehouse lists it: its ticker and, when known, its registered name. */
export interface NamedFund {
  ticker: string;
  name: string | null;
  /** Its CNPJ, when known ("de qual fii é o CNPJ 12.005.956/0001-65?"). */
  cnpj?: string | null;
}

/** Words every registered name carries ("Fundo de Investimento Imobiliário ... Responsabilidade Limitada"). */
const GENERIC = new Set([
  'fundo',
  'fundos',
  'fdo',
  'investimento',
  'investimentos',
  'inv',
  'invest',
  'imobiliario',
  'imobiliarios',
  'imobiliaria',
  'imob',
  'fii',
  'fiis',
  'fi',
  'fic',
  'de',
  'do',
  'da',
  'dos',
  'das',
  'em',
  'e',
  'responsabilidade',
  'limitada',
  'ltda',
  'cotas',
  'cota',
  'sa',
]);

export interface NameMatch {
  ticker: string;
  /** The words of the question that named the fund. */
  phrase: string;
}

/**
 * Finds a fund named by its name ("Rio Bravo Renda Corporativa", "xp malls") rather than its ticker:
 * the distinctive words of its registered name, in order, as the question writes them. A name must
 * have two words or more, one of them not ordinary vocabulary (a proper noun such as "votorantim"), so "fundos de
 * renda imobiliária" names no fund; a phrase several funds share names none.
 */
export class FundNameIndex {
  private readonly byPhrase = new Map<string, Set<string>>();
  /** Phrases by their first word: a question looks up only the names its own words start. */
  private readonly byFirstWord = new Map<string, string[]>();

  constructor(funds: Iterable<NamedFund>, isWord: (lower: string) => boolean) {
    for (const f of funds) {
      if (!f.name) continue;
      const words = normalize(f.name)
        .split(' ')
        .filter((w) => w && !GENERIC.has(w));
      // One word ("kinea") is a manager's name more often than a fund's.
      if (words.length < 2 || words.every((w) => isWord(w) || w.length < 3)) continue;
      // The name and its leading words ("Vinci Shopping Centers" for "Vinci Shopping Centers Fundo Invest ... FII"),
      // each a name while it holds a proper noun; one that several funds share names none.
      for (let n = words.length; n >= 2; n--) {
        const lead = words.slice(0, n);
        if (lead.every((w) => isWord(w) || w.length < 3)) break;
        const phrase = lead.join(' ');
        const owners = this.byPhrase.get(phrase) ?? new Set<string>();
        owners.add(f.ticker.toUpperCase());
        if (!this.byPhrase.has(phrase)) this.byFirstWord.set(words[0], [...(this.byFirstWord.get(words[0]) ?? []), phrase]);
        this.byPhrase.set(phrase, owners);
      }
    }
  }

  get size(): number {
    return this.byPhrase.size;
  }

  /** The fund whose name the question writes, the longest name first; null when none or ambiguous. */
  find(question: string): NameMatch | null {
    const normalized = normalize(question);
    const text = ` ${normalized} `;
    let best: NameMatch | null = null;
    for (const word of new Set(normalized.split(' '))) {
      for (const phrase of this.byFirstWord.get(word) ?? []) {
        const owners = this.byPhrase.get(phrase)!;
        if (owners.size !== 1 || !text.includes(` ${phrase} `)) continue;
        if (!best || phrase.length > best.phrase.length) best = { ticker: [...owners][0], phrase };
      }
    }
    return best;
  }
}
