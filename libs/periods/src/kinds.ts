import type { PeriodSpec } from '@cota/contracts';

/** One date: a day named ("13/06/2025", "e no dia 20?"), not a stretch of time. */
export function isOneDay(p: PeriodSpec | null | undefined): boolean {
  return !!p && ((p.kind === 'range' && p.grain === 'day') || (p.kind === 'day_of_month' && !p.to));
}

/** A period that spans time (a month, a year, "desde 2020"), not one date ("hoje", "ontem", "há um ano", a day). */
export function isSpan(p: PeriodSpec | null | undefined): boolean {
  return !!p && !['latest', 'previous_session', 'ago'].includes(p.kind) && !isOneDay(p);
}

/** A period wholly before `today` (ISO): "em 2023", "ano passado", "ontem", "últimos 6 meses"; "hoje" and "desde 2020" reach it. */
export function isPast(p: PeriodSpec | null | undefined, today: string): boolean {
  if (!p) return false;
  if (p.kind === 'range') return p.to < today;
  if (p.kind === 'relative_year' || p.kind === 'relative_month') return p.offset < 0;
  return p.kind === 'previous_session' || p.kind === 'ago' || p.kind === 'trailing';
}

/** A period no longer than one calendar month ("em outubro de 2025", "em abril", "mês passado", "13/06/2025"). */
export function withinOneMonth(spec: PeriodSpec): boolean {
  switch (spec.kind) {
    case 'range':
      return spec.from.slice(0, 7) === spec.to.slice(0, 7);
    case 'months_of_year':
      return spec.from_month === spec.to_month;
    case 'relative_year':
      return spec.month !== undefined;
    case 'day_of_month':
      return !spec.to || spec.to.month === spec.month;
    case 'relative_month':
    case 'previous_session':
      return true;
    default:
      return false;
  }
}

/**
 * A period the calendar dates, not the data: "hoje"/"ontem", "este mês", "este ano", "mês passado" (today 29/11/2026:
 * November and October 2026, whatever the series reach). An answer to one says when the data stops before it.
 */
export function isCalendarPeriod(p: PeriodSpec | null | undefined): boolean {
  if (!p) return false;
  if (p.kind === 'previous_session') return true;
  if (p.kind === 'relative_year') return p.offset === 0;
  return p.kind === 'relative_month' && (p.offset === 0 || !!p.calendar);
}
