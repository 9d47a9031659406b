/**
 * Lowercase and strip diacritics, keeping every other character. Pattern extraction (dates,
 * numbers, "R$ 10 mil") works on this form, because it still has digits, '/', ',' and '%'.
 */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ºª]/g, (c) => (c === 'º' ? 'o' : 'a'))
    .toLowerCase();
}
