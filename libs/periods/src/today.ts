// Building an Intl.DateTimeFormat loads time-zone data: one, made once, serves every call.
const SAO_PAULO_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day in Brazil (America/Sao_Paulo) at `now`, ISO: the client's "hoje". */
export function todayInBrazil(now: Date = new Date()): string {
  return SAO_PAULO_DAY.format(now);
}
