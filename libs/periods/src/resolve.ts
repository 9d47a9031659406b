import type { PeriodSpec } from '@cota/contracts';

/** Dates a series has (for one subject): relative periods are counted from `to`, never from the clock. */
export interface Coverage {
  from: string;
  to: string;
}

export interface ResolvedPeriod {
  from: string;
  to: string;
}

/**
 * How a window of months is counted. `day`: from the same day n months before the latest date
 * (a price series: "nos últimos 12 meses" of the IFIX starts on the session a year back).
 * `month`: whole calendar months ending with the latest date's month, so a monthly event (a
 * distribution dated 31/05/2024 and 30/05/2025) is counted 12 times in 12 months, never 13.
 */
export type WindowGrain = 'day' | 'month';

/** "Os últimos n meses" of a series whose latest date is `to`, by the window grain. */
export function trailingMonths(to: string, months: number, grain: WindowGrain): ResolvedPeriod {
  const [y, m] = parts(to);
  const from = grain === 'month' ? addMonths(iso(y, m, 1), -(months - 1)) : addDays(addMonths(to, -months), 1);
  return { from, to };
}

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const parts = (d: string) => d.split('-').map(Number) as [number, number, number];

/** `date` plus `days` (negative to go back), ISO in and out. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** `date` moved by whole months, the day clipped to the month's length. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = (total % 12) + 1;
  return iso(ny, nm, Math.min(d, lastDay(ny, nm)));
}

/**
 * Turns a period as said into dates, against what the series has. `year` is the conversation's
 * year for months said without one ("e em abril?" after "março de 2024"). `today`, when given, is the
 * calendar's: "este ano", "ano passado" and "mês passado" are the calendar's (on 27/11/2026, 2026, 2025 and
 * October 2026), whatever the series ends in; without it, they count from the series' latest date.
 */
export function resolvePeriod(spec: PeriodSpec | null, coverage: Coverage, year: number | null = null, grain: WindowGrain = 'day', today: string | null = null): ResolvedPeriod {
  const [ly, lm] = parts(coverage.to);
  switch (spec?.kind ?? 'latest') {
    case 'latest':
      return { from: coverage.from, to: coverage.to };
    case 'previous_session':
      return { from: coverage.from, to: addDays(coverage.to, -1) };
    case 'range': {
      const s = spec as Extract<PeriodSpec, { kind: 'range' }>;
      return { from: s.from, to: s.to };
    }
    case 'trailing': {
      const s = spec as Extract<PeriodSpec, { kind: 'trailing' }>;
      const months = s.unit === 'year' ? s.n * 12 : s.unit === 'month' ? s.n : 0;
      return months ? trailingMonths(coverage.to, months, grain) : { from: addDays(coverage.to, -s.n + 1), to: coverage.to };
    }
    case 'ago': {
      const s = spec as Extract<PeriodSpec, { kind: 'ago' }>;
      const to = s.unit === 'day' ? addDays(coverage.to, -s.n) : addMonths(coverage.to, -(s.unit === 'year' ? s.n * 12 : s.n));
      return { from: coverage.from, to };
    }
    case 'since': {
      const s = spec as Extract<PeriodSpec, { kind: 'since' }>;
      return { from: s.from, to: coverage.to };
    }
    case 'relative_year': {
      const s = spec as Extract<PeriodSpec, { kind: 'relative_year' }>;
      const y = (today ? parts(today)[0] : ly) + s.offset;
      if (s.month) return { from: iso(y, s.month, 1), to: iso(y, s.month, lastDay(y, s.month)) };
      return { from: iso(y, 1, 1), to: iso(y, 12, 31) };
    }
    case 'relative_month': {
      const s = spec as Extract<PeriodSpec, { kind: 'relative_month' }>;
      // ("mês passado" is the calendar's, like "ano passado": on 29/11/2026, October 2026; "mês anterior", the data's)
      const [cy, cm] = today && s.calendar ? parts(today) : [ly, lm];
      const first = addMonths(iso(cy, cm, 1), s.offset);
      const [y, m] = parts(first);
      return { from: first, to: iso(y, m, lastDay(y, m)) };
    }
    case 'day_of_month': {
      // Without the conversation's: the series' latest month (and year) that has that day.
      const s = spec as Extract<PeriodSpec, { kind: 'day_of_month' }>;
      if (s.to && s.month !== null) {
        // (the span ends in the given year, or the latest the series reaches; one that crosses the new year starts the year before)
        const y2 = year ?? (iso(ly, s.to.month, Math.min(s.to.day, lastDay(ly, s.to.month))) > coverage.to ? ly - 1 : ly);
        const y1 = s.month * 100 + s.day <= s.to.month * 100 + s.to.day ? y2 : y2 - 1;
        return { from: iso(y1, s.month, Math.min(s.day, lastDay(y1, s.month))), to: iso(y2, s.to.month, Math.min(s.to.day, lastDay(y2, s.to.month))) };
      }
      const m = s.month ?? lm;
      const y = year ?? (iso(ly, m, Math.min(s.day, lastDay(ly, m))) > coverage.to ? ly - 1 : ly);
      const day = Math.min(s.day, lastDay(y, m));
      return { from: iso(y, m, day), to: iso(y, m, day) };
    }
    case 'months_of_year': {
      const s = spec as Extract<PeriodSpec, { kind: 'months_of_year' }>;
      // Without a year from the conversation: the latest year whose months the series has reached.
      let y = year ?? (s.from_month > lm ? ly - 1 : ly);
      const y1 = s.from_month <= s.to_month ? y : y - 1;
      if (year === null && y < 1900) y = ly;
      return { from: iso(y1, s.from_month, 1), to: iso(y, s.to_month, lastDay(y, s.to_month)) };
    }
  }
  return { from: coverage.from, to: coverage.to };
}

/** The calendar year a period is about, for months said later without one. */
export function yearOf(spec: PeriodSpec | null): number | null {
  if (!spec) return null;
  if (spec.kind === 'range') return Number(spec.to.slice(0, 4));
  if (spec.kind === 'since') return Number(spec.from.slice(0, 4));
  return null;
}
