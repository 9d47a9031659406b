import { fold } from './fold';

/** The months in pt-BR, January first: the one list every reader and writer of months uses. */
export const MONTH_NAMES: readonly string[] = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];

/** A month's name, 1 = "janeiro"; undefined outside 1..12. */
export function monthName(month: number): string | undefined {
  return MONTH_NAMES[month - 1];
}

/** A month's abbreviation, its first three letters folded ("mar"); undefined outside 1..12. */
export function monthAbbreviation(month: number): string | undefined {
  const name = monthName(month);
  return name && fold(name).slice(0, 3);
}

/** The month (1..12) a name or abbreviation stands for, written or folded ("Março", "marco", "mar"); 0 for any other word. */
export function monthNumber(word: string): number {
  const w = fold(word);
  return MONTH_NAMES.findIndex((name) => fold(name) === w || fold(name).slice(0, 3) === w) + 1;
}
