/**
 * The tiny template language of answer sentences:
 *   `{name}`         a value (a column of the row, or a narration value like `window`, `count`, `fund`)
 *   `{name|month}`   a modifier (`month`: "novembro de 2025"; `lower`: lower-cased text; over the rows
 *                    being told, `sum`: the column's total, `max`: its greatest value, e.g. newest date;
 *                    `vs_one`: a ratio read against 1, "abaixo"/"acima"/"igual", as shown at two decimals;
 *                    `source`: a column holding a source id, as its publisher: "CVM (Informe Mensal de FII)")
 *   `[ ... ]`        an optional segment, dropped when any value inside it is missing
 * A missing value outside an optional segment makes the whole sentence unusable (null), so the
 * caller falls back to the next sentence instead of printing "R$ —".
 */

export type Resolver = (name: string, modifier: string | null) => string | null;

const PLACEHOLDER_RE = /\{([a-zA-Z_][a-zA-Z0-9_]*)(?:\|([a-z_]+))?\}/g;

/** Every placeholder name used in a template text. */
export function placeholdersOf(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER_RE)) names.push(m[1]);
  return names;
}

export const MODIFIERS = ['month', 'lower', 'sum', 'max', 'vs_one', 'source'] as const;

/** Modifiers used in a template text (validated at start-up). */
export function modifiersOf(text: string): string[] {
  const mods: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER_RE)) if (m[2]) mods.push(m[2]);
  return mods;
}

function fill(segment: string, resolve: Resolver): string | null {
  let missing = false;
  const out = segment.replace(PLACEHOLDER_RE, (_all, name: string, mod: string | undefined) => {
    const v = resolve(name, mod ?? null);
    if (v === null) {
      missing = true;
      return '';
    }
    return v;
  });
  return missing ? null : out;
}

/** Renders a template text; null when a required value is missing. */
export function renderText(text: string, resolve: Resolver): string | null {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('[', i);
    if (open === -1) {
      const rest = fill(text.slice(i), resolve);
      if (rest === null) return null;
      out += rest;
      break;
    }
    const close = text.indexOf(']', open);
    if (close === -1) throw new Error(`unclosed '[' in template text: ${text}`);
    const before = fill(text.slice(i, open), resolve);
    if (before === null) return null;
    out += before;
    const optional = fill(text.slice(open + 1, close), resolve);
    if (optional !== null) out += optional;
    i = close + 1;
  }
  return tidy(out);
}

/** Collapses the blanks an empty value leaves behind ("nos  dados ." -> "nos dados."). */
export function tidy(text: string): string {
  return (
    text
      .replace(/[ \t]+/g, ' ')
      // A leading optional segment that dropped out leaves its separator behind ("em 14/11: ; IBOV").
      .replace(/([:;,(])\s*[;,]\s*/g, '$1 ')
      .replace(/\(\s*\)/g, '')
      // A value ending in '.' ("Ltda.") followed by the sentence's own period.
      .replace(/(?<!\.)\.\.(?!\.)/g, '.')
      .replace(/ +([.,;:!?)])/g, '$1')
      .replace(/\( +/g, '(')
      .replace(/^ +| +$/gm, '')
      .trim()
      // A sentence whose first optional segment dropped out starts with its separator.
      .replace(/^[,;:]\s*/, '')
  );
}

/** Checks brackets are balanced and not nested (start-up validation). */
export function checkSyntax(text: string): string | null {
  let depth = 0;
  for (const ch of text) {
    if (ch === '[') {
      depth++;
      if (depth > 1) return 'nested optional segments are not supported';
    } else if (ch === ']') {
      depth--;
      if (depth < 0) return "']' without '['";
    }
  }
  if (depth !== 0) return "'[' without ']'";
  for (const mod of modifiersOf(text)) {
    if (!(MODIFIERS as readonly string[]).includes(mod)) return `unknown modifier '${mod}' (known: ${MODIFIERS.join(', ')})`;
  }
  return null;
}
