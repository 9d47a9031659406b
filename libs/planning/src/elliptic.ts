import { STOPWORDS } from '@cota/text';
import { AnalysedQuestion } from './analysis';
import { Ontology } from './ontology';

export interface Ellipsis {
  /** The opener as written in the policy ("e o do" is "e o" + "do"). */
  opener: string;
  /** What the question names instead of a subject: tickers, a year, a period word. */
  anchors: string[];
}

const NUMBER = /^\d+(?:\.\d+)?$/;

/**
 * "E o do XPML11?", "e em 2023?", "e no ano passado?": a follow-up opener, then only fund tickers,
 * periods, numbers, function words and weak shared words. Such a question has no subject of its own
 * and continues the previous one; any word that points at an entity ("e o dividendo do XPML11?")
 * gives it a subject, and it is routed on its own.
 */
export function detectEllipsis(q: AnalysedQuestion, o: Ontology, isFilterWord: (token: string) => boolean = () => false): Ellipsis | null {
  const { openers, periodWords, weakWeight, leadFillers } = o.elliptic;
  // ("opa, errei, queria o do HGRE11": the words before the opener change nothing)
  let lead = 0;
  while (lead < q.tokens.length - 1 && leadFillers.has(q.tokens[lead])) lead++;
  const tokens = q.tokens.slice(lead);
  const found = openers.find((op) => op.length < tokens.length && op.every((w, i) => tokens[i] === w));
  // "o TRXF11" answering "de qual fundo?": only funds and function words continue the previous question too.
  // A bare "HGLG11?" is a question of its own (the fund's overview).
  const onlyFunds = q.tickers.tickers.length > 0 && tokens.some((t) => STOPWORDS.has(t)) && tokens.every((t) => q.tickers.surfaces.has(t) || STOPWORDS.has(t));
  const opener = found ?? (onlyFunds ? [] : null);
  if (!opener) return null;
  const anchors: string[] = [];
  for (let i = opener.length; i < tokens.length; i++) {
    const t = tokens[i];
    if (q.tickers.surfaces.has(t)) {
      anchors.push(t.toUpperCase());
      continue;
    }
    // A filter value ("e os de logística?") edits the previous question's filter: an anchor too.
    if (isFilterWord(t)) {
      anchors.push(t);
      continue;
    }
    if (NUMBER.test(t) || periodWords.has(t)) {
      // A number or a period word is an anchor only when it names time ("2023", "ano passado").
      if (!STOPWORDS.has(t)) anchors.push(t);
      continue;
    }
    if (STOPWORDS.has(t)) continue;
    // A weak shared word ("hoje" 0.5) leaves the subject open; a word no entity knows may be a
    // subject the ontology lacks ("e o aluguel?"), so it is not read as an ellipsis.
    const weight = o.wordWeight(q.stems[i]);
    if (weight > 0 && weight <= weakWeight) continue;
    return null;
  }
  if (anchors.length === 0) return null;
  return { opener: opener.join(' ') || '(só o fundo)', anchors };
}
