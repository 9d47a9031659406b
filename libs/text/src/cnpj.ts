/** A CNPJ as people write it, masked ("12.005.956/0001-65") or as 14 digits, as a regex source. The one declaration. */
export const CNPJ_PATTERN = '\\d{2}\\.?\\d{3}\\.?\\d{3}\\/?\\d{4}-?\\d{2}';

const CNPJ_WORD = new RegExp(`(?<!\\d)${CNPJ_PATTERN}(?!\\d)`);

/** The first CNPJ written in a text, as written and as its 14 digits; null when none. */
export function cnpjIn(text: string): { written: string; digits: string } | null {
  const m = CNPJ_WORD.exec(text);
  return m ? { written: m[0], digits: m[0].replace(/\D/g, '') } : null;
}
