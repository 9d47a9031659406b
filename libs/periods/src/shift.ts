import type { PeriodSpec } from '@cota/contracts';
import type { PeriodShift } from './parse';

type Range = Extract<PeriodSpec, { kind: 'range' }>;
const pad = (n: number) => String(n).padStart(2, '0');
const isoOf = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const MONTHS_OF = { month: 1, quarter: 3, semester: 6, year: 12 } as const;

/**
 * The period next to `from` ("e no mês seguinte?" after the 1st quarter of 2024 → April 2024): the
 * unit-long period holding the range's last day (moving forward) or first day (moving back), moved by
 * the offset (0: "nesse mês", the unit-long period holding its first day). Days move by weekdays, the
 * days markets trade.
 */
export function shiftPeriod(from: Range, shift: PeriodShift): Range {
  if (shift.lastDay) {
    const month = shiftPeriod(from, { unit: shift.unit, offset: shift.offset });
    return { kind: 'range', from: month.to, to: month.to, grain: 'day' };
  }
  const anchor = new Date(`${shift.offset > 0 ? from.to : from.from}T00:00:00Z`);
  // "nessa data", "nesse dia" after a day: that day; after a longer period, the period itself.
  if (shift.offset === 0 && shift.unit === 'day') return from;
  if (shift.unit === 'day') {
    const d = new Date(anchor);
    let left = Math.abs(shift.offset);
    while (left > 0) {
      d.setUTCDate(d.getUTCDate() + Math.sign(shift.offset));
      if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
    }
    return { kind: 'range', from: isoOf(d), to: isoOf(d), grain: 'day' };
  }
  const len = MONTHS_OF[shift.unit];
  // "um ano depois" of December 2022 is December 2023: the same period moved, its grain kept.
  if (shift.keep && from.grain !== 'custom' && MONTHS_OF[from.grain as keyof typeof MONTHS_OF] !== undefined && MONTHS_OF[from.grain as keyof typeof MONTHS_OF] < len) {
    const move = (iso: string, end: boolean) => {
      const d = new Date(`${iso}T00:00:00Z`);
      const m = d.getUTCFullYear() * 12 + d.getUTCMonth() + shift.offset * len;
      return end ? new Date(Date.UTC(Math.floor(m / 12), (m % 12) + 1, 0)) : new Date(Date.UTC(Math.floor(m / 12), m % 12, 1));
    };
    return { kind: 'range', from: isoOf(move(from.from, false)), to: isoOf(move(from.to, true)), grain: from.grain };
  }
  // Months counted from year 0 keep the arithmetic in one integer.
  const start = Math.floor((anchor.getUTCFullYear() * 12 + anchor.getUTCMonth()) / len) * len + shift.offset * len;
  const end = start + len - 1;
  const first = new Date(Date.UTC(Math.floor(start / 12), start % 12, 1));
  const last = new Date(Date.UTC(Math.floor(end / 12), (end % 12) + 1, 0));
  return { kind: 'range', from: isoOf(first), to: isoOf(last), grain: shift.unit };
}
