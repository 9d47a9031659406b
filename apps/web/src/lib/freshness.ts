/**
 * How recent the data behind an answer is: the newest date among its rows or values. When that is
 * more than a few days before today and the question asked for the latest data (not a closed period
 * of the past), the answer card says so with the date. Pure.
 */
import { formatDate } from './format';
import { AskReply, isMeasureValue, PeriodSpec } from './types';

/** Data older than this many days gets the note. */
export const STALE_AFTER_DAYS = 5;

const ISO_DAY = /^(\d{4}-\d{2}-\d{2})/;
/** Row fields that hold the date a row is about (not a registry date such as an IPO). */
const DATE_FIELD = /(^|_)(date|data|dt|month|mes|ref_month|as_of)$/i;
const NOT_ABOUT_THE_DATA = /ipo|inicio|start|created|constitui|birth|vencimento|maturity|due/i;

function dayOf(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = ISO_DAY.exec(v);
  return m ? m[1] : null;
}

/** The newest date the answer's data reaches (ISO day), or null when it carries none. */
export function dataDate(reply: Pick<AskReply, 'results'>): string | null {
  let newest: string | null = null;
  const see = (d: string | null) => {
    if (d && (!newest || d > newest)) newest = d;
  };
  for (const list of Object.values(reply.results ?? {})) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (!item || typeof item !== 'object') continue;
      if (isMeasureValue(item)) {
        see(dayOf(item.date));
        see(dayOf(item.end?.date));
        for (const r of item.rows ?? []) see(dayOf(r.date));
        continue;
      }
      for (const [k, v] of Object.entries(item as Record<string, unknown>)) if (DATE_FIELD.test(k) && !NOT_ABOUT_THE_DATA.test(k)) see(dayOf(v));
    }
  }
  return newest;
}

/** A closed period that ended before the data did not need fresher data. */
function askedThePast(period: PeriodSpec | null | undefined, today: string): boolean {
  if (!period) return false;
  if (period.kind === 'range' && period.to) return period.to < today;
  return period.kind === 'relative_year' ? (period.offset ?? 0) < 0 : period.kind === 'relative_month' ? (period.offset ?? 0) < 0 : false;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Whole calendar months from one day to another (01/12/2023 to 28/11/2026 is 35, not 36). */
function wholeMonths(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = to.split('-').map(Number);
  return (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0);
}

function ago(days: number, from: string, to: string): string {
  if (days < 60) return `há ${days} dias`;
  const months = wholeMonths(from, to);
  return months < 12 ? `há mais de ${months} meses` : months < 24 ? 'há mais de um ano' : `há mais de ${Math.floor(months / 12)} anos`;
}

/** "Dados até 14/11/2025 (há mais de um ano)", or null when the data is recent or the question asked a past period. */
export function freshnessNote(reply: Pick<AskReply, 'results' | 'meta' | 'status'>, today: string): string | null {
  if (reply.status !== 'ok') return null;
  const date = dataDate(reply);
  if (!date || askedThePast(reply.meta?.planner?.question?.period, today)) return null;
  const days = daysBetween(date, today);
  if (days <= STALE_AFTER_DAYS) return null;
  return `Dados até ${formatDate(date)} (${ago(days, date, today)}): são os mais recentes que o Cota tem.`;
}

/** Today in São Paulo (ISO day), the calendar the answers use. */
export function todayInSaoPaulo(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
