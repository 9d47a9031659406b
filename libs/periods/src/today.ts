/** The calendar day in Brazil (America/Sao_Paulo) at `now`, ISO: the client's "hoje". */
export function todayInBrazil(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
