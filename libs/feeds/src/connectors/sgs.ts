import { z } from 'zod';
import { dailyToAnnualPct } from '@cota/warehouse';
import { FeedError } from '../errors';
import { addDays, fromBrazilian, toBrazilian } from '../dates';
import { httpGet, joinUrl } from '../http';
import type { Feed, FeedBatch, Watermark } from '../feed';
import type { Row } from '../rows';

/** How one SGS series becomes warehouse rows. */
export type SgsSeries =
  | { code: number; indicator: string; kind: 'daily_rate' } // % a.d. (SELIC 11, CDI 12): stored annualised as the batch ingest does
  | { code: number; indicator: string; kind: 'monthly_pct' } // % a.m. (IPCA 433, IGP-M 189), dated on the month's first day
  | { code: number; currency: string; side: 'buy' | 'sell' }; // R$ per unit (dólar: 10813 compra, 1 venda)

export interface SgsOptions {
  baseUrl: string;
  series: SgsSeries[];
  /** First date asked of a series never read. */
  start: string;
  timeoutMs: number;
}

/** The SGS answer: `[{"data":"dd/MM/aaaa","valor":"0.055131"}, ...]` (values as strings with a dot). */
const SgsAnswer = z.array(z.object({ data: z.string(), valor: z.string() }).passthrough());

/** SGS refuses ranges over 10 years since 2025: ask in windows of at most five. */
const MAX_WINDOW_DAYS = 5 * 365;

export interface SgsPoint {
  date: string;
  value: number;
}

/** Parses one SGS JSON answer; a value that is not a number or a date that is not real names its position. */
export function parseSgs(body: string, shownAs: string): SgsPoint[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new FeedError(`${shownAs}: not JSON (${JSON.stringify(body.slice(0, 40))})`, false);
  }
  const parsed = SgsAnswer.safeParse(json);
  if (!parsed.success) throw new FeedError(`${shownAs}: not an SGS series (${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message})`, false);
  return parsed.data.map((p, i) => {
    const date = fromBrazilian(p.data);
    const value = p.valor.trim() === '' ? NaN : Number(p.valor);
    if (!date) throw new FeedError(`${shownAs}: item ${i}: data '${p.data.slice(0, 20)}' is not dd/MM/aaaa`, false);
    if (!Number.isFinite(value)) throw new FeedError(`${shownAs}: item ${i}: valor '${p.valor.slice(0, 20)}' is not a number`, false);
    return { date, value };
  });
}

/** Banco Central's SGS API: one GET per series and date range, incremental by the last date read of each series. */
export class SgsFeed implements Feed {
  readonly name = 'bcb-sgs' as const;
  constructor(private readonly opts: SgsOptions) {}

  async read(watermark: Watermark, today: string): Promise<FeedBatch> {
    const last = { ...(watermark as Record<string, string>) };
    const indicators: Row[] = [];
    const currencies = new Map<string, Row>();
    const notes: string[] = [];
    for (const s of this.opts.series) {
      const key = String(s.code);
      const from = last[key] ? addDays(last[key], 1) : this.opts.start;
      if (from > today) continue;
      const points = await this.fetchRange(s.code, from, today);
      if (!points.length) notes.push(`SGS ${s.code}: nada publicado desde ${from}`);
      for (const p of points) {
        if (p.date < from) continue; // SGS answers a monthly series from the month that contains dataInicial
        if ('currency' in s) {
          const row = currencies.get(`${s.currency}|${p.date}`) ?? { currency: s.currency, rate_date: p.date, buy_amt: null, sell_amt: null, var_pct: null, source: this.name };
          row[s.side === 'buy' ? 'buy_amt' : 'sell_amt'] = p.value;
          currencies.set(`${s.currency}|${p.date}`, row);
        } else if (s.kind === 'daily_rate') {
          indicators.push({ indicator_name: s.indicator, indicator_date: p.date, indicator_amt: dailyToAnnualPct(p.value), unit: '% a.a.', source: this.name });
          if (s.indicator === 'CDI') indicators.push({ indicator_name: 'CDI-DAILY', indicator_date: p.date, indicator_amt: p.value, unit: '% a.d.', source: this.name });
        } else {
          indicators.push({ indicator_name: s.indicator, indicator_date: `${p.date.slice(0, 7)}-01`, indicator_amt: p.value, unit: '% a.m.', source: this.name });
        }
        if (!last[key] || p.date > last[key]) last[key] = p.date;
      }
    }
    const dates = Object.values(last).sort();
    return { tables: { wh_market_indicators: indicators, wh_currency_rates: [...currencies.values()] }, watermark: last, dataUntil: dates[dates.length - 1] ?? null, notes };
  }

  private async fetchRange(code: number, from: string, to: string): Promise<SgsPoint[]> {
    const out: SgsPoint[] = [];
    for (let start = from; start <= to; start = addDays(start, MAX_WINDOW_DAYS + 1)) {
      const end = addDays(start, MAX_WINDOW_DAYS) < to ? addDays(start, MAX_WINDOW_DAYS) : to;
      const url = joinUrl(this.opts.baseUrl, `bcdata.sgs.${code}/dados?formato=json&dataInicial=${toBrazilian(start)}&dataFinal=${toBrazilian(end)}`);
      const res = await httpGet(url, { timeoutMs: this.opts.timeoutMs });
      // SGS answers 404 for a range with no value (a weekend, a month not released yet).
      if (res.status !== 200) continue;
      out.push(...parseSgs(res.body.toString('utf8'), url));
    }
    return out;
  }
}
