/** ISO calendar dates (YYYY-MM-DD) as the sources write them and back. */

export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** 'dd/MM/yyyy' (SGS, FundosNet listings) -> ISO, or null when it is not a real date. */
export function fromBrazilian(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(text.trim());
  return m ? validIso(`${m[3]}-${m[2]}-${m[1]}`) : null;
}

export function toBrazilian(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** 'AAAAMMDD' (COTAHIST) -> ISO, or null. */
export function fromCompact(text: string): string | null {
  return /^\d{8}$/.test(text) ? validIso(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`) : null;
}

/** ISO -> 'DDMMAAAA' (the daily COTAHIST file name). */
export function toDayMonthYear(iso: string): string {
  return `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;
}

export function validIso(iso: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const t = Date.parse(`${iso}T00:00:00Z`);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== iso ? null : iso;
}

/** Today's date in America/Sao_Paulo: the sources publish on Brazilian days. */
export function saoPauloToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
