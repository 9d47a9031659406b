import { isBusinessDay, TICKER_RE } from '@cota/text';
import { IngestError, readZipBuffer } from '@cota/warehouse';
import { FeedError } from '../errors';
import { addDays, fromCompact, toDayMonthYear } from '../dates';
import { httpGet, joinUrl } from '../http';
import type { Feed, FeedBatch, Watermark } from '../feed';
import type { Row } from '../rows';

/**
 * B3's COTAHIST layout (SeriesHistoricas_Layout): 245-character lines; header `00`, one `01` line per
 * instrument and market, trailer `99`. Positions below are 1-based inclusive as in the layout; prices
 * carry two implied decimals.
 */
const FIELDS = {
  tipreg: [1, 2],
  datpre: [3, 10],
  codbdi: [11, 12],
  codneg: [13, 24],
  tpmerc: [25, 27],
  preabe: [57, 69],
  premax: [70, 82],
  premin: [83, 95],
  preult: [109, 121],
  quatot: [153, 170],
} as const;
const LINE_LENGTH = 245;
/** BDI 12: real-estate funds (FII); market 010: cash (à vista). */
const FII_BDI = '12';
const CASH_MARKET = '010';

export interface CotahistQuote {
  ticker: string;
  traded_at: string;
  open: number;
  max: number;
  min: number;
  close: number;
  quantity: number;
}

function field(line: string, [from, to]: readonly [number, number]): string {
  return line.slice(from - 1, to);
}

/** Parses a COTAHIST text (daily, monthly or yearly file) into the FII closes of the cash market; a bad line stops it, naming the line. */
export function parseCotahist(text: string, shownAs: string): { quotes: CotahistQuote[]; fileDate: string | null } {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  if (!lines.length || !lines[0].startsWith('00COTAHIST')) throw new FeedError(`${shownAs}: line 1: not a COTAHIST header`, false);
  if (!lines[lines.length - 1].startsWith('99COTAHIST')) throw new FeedError(`${shownAs}: no trailer line (99): the file is cut short`, false);
  const fileDate = fromCompact(lines[0].slice(23, 31));
  const quotes: CotahistQuote[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('01')) return;
    const at = `${shownAs}: line ${i + 1}`;
    if (line.length < LINE_LENGTH) throw new FeedError(`${at}: ${line.length} characters, the layout has ${LINE_LENGTH}`, false);
    if (field(line, FIELDS.codbdi) !== FII_BDI || field(line, FIELDS.tpmerc) !== CASH_MARKET) return;
    const ticker = field(line, FIELDS.codneg).trim();
    if (!TICKER_RE.test(ticker)) return; // codes that are not a fund ticker as the project defines one (YUFI11B, 003H11)
    const date = fromCompact(field(line, FIELDS.datpre));
    if (!date) throw new FeedError(`${at}: DATPRE '${field(line, FIELDS.datpre)}' is not a date`, false);
    const num = (name: keyof typeof FIELDS, scale: number): number => {
      const raw = field(line, FIELDS[name]);
      if (!/^\d+$/.test(raw)) throw new FeedError(`${at}: ${name.toUpperCase()} '${raw.trim()}' is not a number`, false);
      return Number(raw) / scale;
    };
    quotes.push({ ticker, traded_at: date, open: num('preabe', 100), max: num('premax', 100), min: num('premin', 100), close: num('preult', 100), quantity: num('quatot', 1) });
  });
  return { quotes, fileDate };
}

export interface CotahistOptions {
  baseUrl: string;
  /** First session asked when nothing was read yet. */
  start: string;
  /** Sessions fetched at most per run (a long gap is caught up over several runs). */
  maxDaysPerRun: number;
  timeoutMs: number;
}

/** B3's daily quote files (`COTAHIST_DDDMMAAAA.ZIP`), one per session, incremental by the last session read. */
export class CotahistFeed implements Feed {
  readonly name = 'b3-cotahist' as const;
  constructor(private readonly opts: CotahistOptions) {}

  async read(watermark: Watermark, today: string): Promise<FeedBatch> {
    const last = typeof watermark.session === 'string' ? watermark.session : null;
    let day = last ? addDays(last, 1) : this.opts.start;
    let session = last;
    const prices: Row[] = [];
    const notes: string[] = [];
    for (let fetched = 0; day <= today && fetched < this.opts.maxDaysPerRun; day = addDays(day, 1)) {
      if (!isBusinessDay(day)) continue;
      fetched++;
      const name = `COTAHIST_D${toDayMonthYear(day)}`;
      const url = joinUrl(this.opts.baseUrl, `${name}.ZIP`);
      const res = await httpGet(url, { timeoutMs: this.opts.timeoutMs });
      if (res.status !== 200) {
        // Not published: today's file comes out in the evening; an older day without a file had no session.
        notes.push(`${name}: não publicado`);
        if (day === today) break;
        continue;
      }
      const text = await this.textOf(res.body, url, name);
      const { quotes } = parseCotahist(text, url);
      for (const q of quotes) {
        prices.push({
          ticker: q.ticker,
          traded_at: q.traded_at,
          close_price: q.close,
          adj_close_price: null,
          open_price: q.open,
          max_price: q.max,
          min_price: q.min,
          volume: q.quantity,
          daily_variation_pct: null,
          frequency: 'daily',
          source: this.name,
        });
      }
      if (!quotes.length) notes.push(`${name}: nenhuma cota de FII no pregão`);
      session = day;
    }
    return { tables: { wh_prices: prices }, watermark: session ? { session } : {}, dataUntil: session, notes };
  }

  /** The daily file is a zip holding one TXT (ISO-8859-1 text). */
  private async textOf(body: Buffer, url: string, name: string): Promise<string> {
    let files: Map<string, Buffer>;
    try {
      files = await readZipBuffer(body, url);
    } catch (e) {
      throw new FeedError(e instanceof IngestError ? e.message : `${url}: ${(e as Error).message}`, false);
    }
    const txt = [...files.entries()].find(([n]) => n.toUpperCase().startsWith(name.toUpperCase()) || n.toUpperCase().endsWith('.TXT'));
    if (!txt) throw new FeedError(`${url}: the archive has no ${name}.TXT`, false);
    return txt[1].toString('latin1');
  }
}
