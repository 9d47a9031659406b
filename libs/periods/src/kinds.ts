import type { PeriodSpec } from '@cota/contracts';

/** One date: a day named ("13/06/2025", "e no dia 20?"), not a stretch of time. */
export function isOneDay(p: PeriodSpec | null | undefined): boolean {
  return !!p && ((p.kind === 'range' && p.grain === 'day') || p.kind === 'day_of_month');
}

/** A period that spans time (a month, a year, "desde 2020"), not one date ("hoje", "ontem", "há um ano", a day). */
export function isSpan(p: PeriodSpec | null | undefined): boolean {
  return !!p && !['latest', 'previous_session', 'ago'].includes(p.kind) && !isOneDay(p);
}
