/**
 * Brazil's national business days (the calendar the CDI and Selic accrue on): weekdays that are not
 * national holidays. Holidays are the fixed dates plus those moved by Easter (Carnival Monday and
 * Tuesday, Good Friday, Corpus Christi); Black Consciousness Day (20 Nov) is national since 2024.
 */
const FIXED = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '12-25'];

/** Easter Sunday of a year (the Gregorian computus, Meeus/Jones/Butcher). */
function easter(y: number): Date {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(y, month - 1, day));
}

const cache = new Map<number, ReadonlySet<string>>();

/** The national holidays of a year, as YYYY-MM-DD. */
export function nationalHolidays(y: number): ReadonlySet<string> {
  let set = cache.get(y);
  if (set) return set;
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const fromEaster = (days: number) => {
    const d = easter(y);
    d.setUTCDate(d.getUTCDate() + days);
    return iso(d);
  };
  set = new Set([
    ...FIXED.map((md) => `${y}-${md}`),
    ...(y >= 2024 ? [`${y}-11-20`] : []),
    fromEaster(-48), // Carnival Monday
    fromEaster(-47), // Carnival Tuesday
    fromEaster(-2), // Good Friday
    fromEaster(60), // Corpus Christi
  ]);
  cache.set(y, set);
  return set;
}

/** Whether a date (YYYY-MM-DD) is a national business day. */
export function isBusinessDay(date: string): boolean {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  const dow = d.getUTCDay();
  return dow !== 0 && dow !== 6 && !nationalHolidays(d.getUTCFullYear()).has(date.slice(0, 10));
}
