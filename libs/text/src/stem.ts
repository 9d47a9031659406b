/**
 * A light Portuguese stemmer in the spirit of RSLP (Orengo & Huyck): plural reduction, then the
 * longest matching derivational/verbal suffix, then the final vowel. It is deliberately
 * conservative (a stem keeps at least 3 letters) because routing needs inflections of one word to
 * meet ("dividendo"/"dividendos", "pagou"/"pagamento"/"pagar") more than it needs linguistic
 * roots. Input must be normalised (lowercase, no accents).
 */

/** Words whose stem the rules would get wrong or collide. */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  // singular and plural stay apart: "quais FIIs" asks for a list, "qual FII" for one fund
  fiis: 'fiis',
  fii: 'fii',
  mes: 'mes',
  meses: 'mes',
  cota: 'cota',
  cotas: 'cota',
  cotista: 'cotist',
  cotistas: 'cotist',
  // "quanto" asks an amount, "quantos" a count: kept apart
  quanto: 'quanto',
  quanta: 'quanto',
  quantos: 'quantos',
  quantas: 'quantos',
  juros: 'juro',
  juro: 'juro',
  tres: 'tres',
  dois: 'dois',
  seis: 'seis',
  pais: 'pais',
  lucros: 'lucro',
  // "come-cotas" (the verb) is not the preposition "com"
  come: 'come',
  mais: 'mais',
  menos: 'menos',
  depois: 'depois',
  reais: 'real',
  real: 'real',
  anos: 'ano',
  dias: 'dia',
  sim: 'sim',
  nao: 'nao',
  gestao: 'gestao',
  cenario: 'cenari',
  ipca: 'ipca',
  selic: 'selic',
  ifix: 'ifix',
  ifil: 'ifil',
  ibov: 'ibov',
  cdi: 'cdi',
  // "balança muito" (swings) is not "balanço" (the balance sheet)
  balanca: 'balanca',
  balancando: 'balanca',
  // "dividida" (split) must not meet "dividendo" (both would stem to "divid")
  dividida: 'dividid',
  dividido: 'dividid',
  divididas: 'dividid',
  divididos: 'dividid',
  // "coloco dinheiro" (put money in) is not "bem colocado" (ranked)
  coloco: 'colocar',
  coloca: 'colocar',
  colocar: 'colocar',
  colocando: 'colocar',
};

const PLURALS: ReadonlyArray<[string, string]> = [
  ['oes', 'ao'],
  ['aes', 'ao'],
  ['ais', 'al'],
  ['eis', 'el'],
  ['ois', 'ol'],
  ['ns', 'm'],
  ['res', 'r'],
  ['zes', 'z'],
  ['ses', 's'],
];

/** Longest first; each entry is [suffix, replacement]. */
const SUFFIXES: ReadonlyArray<[string, string]> = [
  ['amentos', ''],
  ['imentos', ''],
  ['amento', ''],
  ['imento', ''],
  ['idades', ''],
  ['idade', ''],
  ['amente', ''],
  ['mente', ''],
  ['izacao', 'iz'],
  ['acao', 'ac'],
  ['icao', 'ic'],
  ['ucao', 'uc'],
  ['cao', 'c'],
  ['sao', 's'],
  ['agem', ''],
  ['issimo', ''],
  ['issima', ''],
  ['aram', ''],
  ['eram', ''],
  ['iram', ''],
  ['avam', ''],
  ['ando', ''],
  ['endo', ''],
  ['indo', ''],
  ['ados', ''],
  ['adas', ''],
  ['idos', ''],
  ['idas', ''],
  ['ado', ''],
  ['ada', ''],
  ['ido', ''],
  ['ida', ''],
  ['ava', ''],
  ['ar', ''],
  ['er', ''],
  ['ir', ''],
  ['ou', ''],
  ['eu', ''],
  ['iu', ''],
  ['am', ''],
  ['em', ''],
];

const MIN_STEM = 3;

export function stem(word: string): string {
  const known = EXCEPTIONS[word];
  if (known !== undefined) return known;
  if (word.length <= MIN_STEM || /\d/.test(word)) return word;
  let w = word;
  // 1. plural
  let plural = false;
  for (const [suf, rep] of PLURALS) {
    if (w.endsWith(suf) && w.length - suf.length + rep.length >= MIN_STEM) {
      w = w.slice(0, -suf.length) + rep;
      plural = true;
      break;
    }
  }
  if (!plural && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is') && w.length - 1 >= MIN_STEM) {
    w = w.slice(0, -1);
  }
  // 2. one derivational or verbal suffix
  for (const [suf, rep] of SUFFIXES) {
    if (w.endsWith(suf) && w.length - suf.length + rep.length >= MIN_STEM) {
      w = w.slice(0, -suf.length) + rep;
      break;
    }
  }
  // 3. final vowel (gender and thematic vowel: "ultimo"/"ultima", "mensal" untouched)
  if (/[aeo]$/.test(w) && w.length - 1 >= MIN_STEM) w = w.slice(0, -1);
  return w;
}

/** Stems every token. */
export function stemAll(tokens: readonly string[]): string[] {
  return tokens.map(stem);
}
