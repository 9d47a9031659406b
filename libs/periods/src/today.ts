// Building an Intl.DateTimeFormat loads time-zone data: one, made once, serves every call.
const SAO_PAULO_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });
const HOUR_MS = 3_600_000;

/**
 * Formatting is still the costly part and the planner asks on every question: the day is kept for
 * the UTC hour it was computed in. São Paulo's offset is a whole number of hours (so is every
 * offset it has had), so its calendar day cannot change inside one UTC hour.
 */
let cached = { hour: Number.NaN, day: '' };

/** The calendar day in Brazil (America/Sao_Paulo) at `now`, ISO: the client's "hoje". */
export function todayInBrazil(now: Date = new Date()): string {
  const hour = Math.floor(now.getTime() / HOUR_MS);
  if (hour !== cached.hour) cached = { hour, day: SAO_PAULO_DAY.format(now) };
  return cached.day;
}
