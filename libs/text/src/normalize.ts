import { ABBREVIATIONS } from './abbreviations';
import { fold } from './fold';

/**
 * Compounds whose punctuation carries meaning: rewritten to one token before punctuation is
 * dropped, so "P/VP", "IGP-M", "e-mail" and "D-1" survive as words.
 */
/** The first person's simple past of a participle ("pago" → "paguei"), for compound pasts. */
const PRETERITE: Readonly<Record<string, string>> = {
  pago: 'paguei',
  comprado: 'comprei',
  vendido: 'vendi',
  investido: 'investi',
  recebido: 'recebi',
  aplicado: 'apliquei',
  colocado: 'coloquei',
  ganho: 'ganhei',
  perdido: 'perdi',
  gasto: 'gastei',
  gastado: 'gastei',
};

const COMPOUNDS: ReadonlyArray<[RegExp, string | ((match: string, participle: string) => string)]> = [
  [/\bp\s*\/\s*vp[a]?\b/g, ' pvp '],
  [/\bvp\s*\/\s*(cota|acao)\b/g, ' vp cota '],
  [/\bigp\s*-?\s*m\b/g, ' igpm '],
  [/\bigp\s*-?\s*di\b/g, ' igpdi '],
  [/\bipca\s*-\s*15\b/g, ' ipca15 '],
  [/\be\s*-\s*mail\b/g, ' email '],
  [/\bd\s*-\s*([01])\b/g, ' d$1 '],
  // "taxa de adm" is the management fee, not the administrator ("adm" alone expands to that).
  [/\btaxas?\s+de\s+adm(?:in)?\b/g, ' taxa de administracao '],
  // "PM" of a fund position is the average price ("meu PM no HGLG11").
  [/\b(meu|o|seu|do|no)\s+pm\b/g, ' $1 preco medio '],
  [/\br\s*\$/g, ' reais '],
  // R squared of a regression (risk metric): "R²", "R^2", "r-quadrado" are one word.
  [/\br\s*(?:\u00b2|\^\s*2|-\s*quadrado|\s+quadrado)(?![a-z0-9])/g, ' r2 '],
  [/%/g, ' por cento '],
  // A compound past of one's own act is its simple past: "eu tinha pago" reads as "eu paguei", "havia comprado" as "comprei".
  [
    /\b(?:tinha|havia|tinhamos|haviamos)\s+(pago|comprado|vendido|investido|recebido|aplicado|colocado|ganho|perdido|gasto|gastado)\b/g,
    (_m: string, p: string) => ` ${PRETERITE[p]} `,
  ],
  // "2x3", "_x0": an "x" not inside a word (punctuation such as "_" is a word character for \b).
  [/(?<![a-z0-9])x\s*(?=\d)/g, ' x '],
];

/**
 * Normalises Brazilian Portuguese text for matching: lowercase, no accents, punctuation as
 * spaces (decimal numbers kept), chat abbreviations expanded ("vc" -> "voce"), spaces collapsed.
 * Deterministic and cheap: every service that matches text uses this same form.
 */
export function normalize(text: string): string {
  let s = fold(text);
  for (const [re, to] of COMPOUNDS) s = typeof to === 'string' ? s.replace(re, to) : s.replace(re, to);
  s = s
    .replace(/(\d)[.,](?=\d)/g, '$1\u0000') // protect decimal/thousand separators inside numbers
    .replace(/[^a-z0-9\u0000\s]/g, ' ')
    .replace(/\u0000/g, '.');
  const out: string[] = [];
  const words = s.split(/\s+/).filter(Boolean);
  words.forEach((word, i) => {
    // "q" alone is ambiguous; before a unit of time it is "que" ("em q mes", "q dia foi")
    out.push(word === 'q' && TIME_UNITS.has(words[i + 1] ?? '') ? 'que' : (ABBREVIATIONS[word] ?? word));
  });
  return out.join(' ');
}

const TIME_UNITS: ReadonlySet<string> = new Set(['dia', 'dias', 'mes', 'meses', 'ano', 'anos', 'data', 'datas', 'semana', 'trimestre', 'semestre', 'hora', 'horas']);

/** Normalised tokens of a text (see `normalize`). */
export function tokenize(text: string): string[] {
  const n = normalize(text);
  return n ? n.split(' ') : [];
}
