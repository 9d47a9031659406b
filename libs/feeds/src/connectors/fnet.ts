import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import { TICKER_RE } from '@cota/text';
import { FeedError } from '../errors';
import { fromBrazilian, validIso } from '../dates';
import { httpGet, joinUrl } from '../http';
import type { Feed, FeedBatch, Watermark } from '../feed';
import type { Row } from '../rows';

/** One income announcement as the fund published it. */
export interface Announcement {
  ticker: string;
  /** Data-base (data-com): who holds the share at its close receives the income. */
  record_date: string;
  payment_date: string | null;
  amount: number;
}

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (name) => ['Provento', 'Rendimento'].includes(name) });

type Node = Record<string, unknown>;

function text(node: unknown, tag: string): string | null {
  const v = (node as Node | undefined)?.[tag];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/**
 * Parses FundosNet's structured "Aviso aos Cotistas - Rendimentos e Amortizações" XML. Two layouts are
 * published: until ~2022 the ticker in `DadosGerais/CodNegociacaoCota` and one
 * `InformeRendimentos/Rendimento` with `ValorProventoCota`; since then one `InformeRendimentos/Provento`
 * per share class with its `CodNegociacao` and `Rendimento/ValorProvento`. Amortizations are not income
 * and are left out.
 */
export function parseAnnouncement(body: string, shownAs: string): Announcement[] {
  let doc: Node;
  try {
    doc = xml.parse(body, true) as Node;
  } catch (e) {
    throw new FeedError(`${shownAs}: not XML (${(e as Error).message.split('\n')[0]})`, false);
  }
  const root = doc.DadosEconomicoFinanceiros as Node | undefined;
  const informe = root?.InformeRendimentos as Node | undefined;
  if (!root || !informe) throw new FeedError(`${shownAs}: no DadosEconomicoFinanceiros/InformeRendimentos: not an income announcement`, false);
  const generalTicker = text(root.DadosGerais, 'CodNegociacaoCota');
  const parts: Array<{ ticker: string | null; rendimento: Node }> = [];
  for (const p of (informe.Provento as Node[] | undefined) ?? []) {
    for (const r of (p.Rendimento as Node[] | undefined) ?? []) parts.push({ ticker: text(p, 'CodNegociacao') ?? generalTicker, rendimento: r });
  }
  for (const r of (informe.Rendimento as Node[] | undefined) ?? []) parts.push({ ticker: generalTicker, rendimento: r });
  const out: Announcement[] = [];
  for (const { ticker, rendimento } of parts) {
    const value = text(rendimento, 'ValorProventoCota') ?? text(rendimento, 'ValorProvento');
    if (value === null) continue; // an empty <Rendimento/>: the notice is about an amortization only
    const amount = Number(value.replace(',', '.'));
    if (!Number.isFinite(amount) || amount < 0) throw new FeedError(`${shownAs}: ValorProvento '${value.slice(0, 20)}' is not an amount`, false);
    const base = text(rendimento, 'DataBase');
    const record = base && (validIso(base) ?? fromBrazilian(base));
    if (!record) throw new FeedError(`${shownAs}: DataBase '${base ?? ''}' is not a date`, false);
    const payRaw = text(rendimento, 'DataPagamento');
    const payment = payRaw ? (validIso(payRaw) ?? fromBrazilian(payRaw)) : null;
    if (payRaw && !payment) throw new FeedError(`${shownAs}: DataPagamento '${payRaw}' is not a date`, false);
    const t = ticker?.toUpperCase() ?? null;
    if (!t) throw new FeedError(`${shownAs}: no CodNegociacao/CodNegociacaoCota: the fund's ticker is unknown`, false);
    if (!TICKER_RE.test(t) || amount === 0) continue; // codes that are not a fund ticker (YUFI11B) and nil announcements
    out.push({ ticker: t, record_date: record, payment_date: payment, amount });
  }
  return out;
}

/** The listing FundosNet's search answers (DataTables JSON); ids grow with each delivery. */
const Listing = z.object({
  recordsTotal: z.number().optional(),
  data: z.array(z.object({ id: z.number().int(), dataEntrega: z.string().optional(), status: z.string().optional() }).passthrough()),
});

export interface FnetOptions {
  baseUrl: string;
  /** Listing page size and the most pages read per run. */
  pageSize: number;
  maxPages: number;
  timeoutMs: number;
}

/**
 * FundosNet (B3/CVM) structured income announcements: the listing of category "Aviso aos Cotistas -
 * Estruturado", type "Rendimentos e Amortizações", newest first; each document downloaded as published
 * (base64 of the XML). Incremental by the highest document id read. A document that cannot be read is
 * named in the run's notes and skipped (one fund's bad file never stops the others).
 */
export class FnetFeed implements Feed {
  readonly name = 'fnet' as const;
  constructor(private readonly opts: FnetOptions) {}

  async read(watermark: Watermark, _today: string): Promise<FeedBatch> {
    const lastId = typeof watermark.last_id === 'number' ? watermark.last_id : 0;
    const ids = await this.newIds(lastId);
    const rows: Row[] = [];
    const notes: string[] = [];
    let maxId = lastId;
    let dataUntil: string | null = null;
    for (const id of ids.sort((a, b) => a - b)) {
      const url = joinUrl(this.opts.baseUrl, `downloadDocumento?id=${id}`);
      const res = await httpGet(url, { timeoutMs: this.opts.timeoutMs });
      maxId = Math.max(maxId, id);
      if (res.status !== 200) {
        notes.push(`documento ${id}: não encontrado`);
        continue;
      }
      try {
        for (const a of parseAnnouncement(decodeDocument(res.body), url)) {
          rows.push({ ticker: a.ticker, traded_until_date: a.record_date, payment_date: a.payment_date, dividend_amt: a.amount, source: this.name });
          if (!dataUntil || a.record_date > dataUntil) dataUntil = a.record_date;
        }
      } catch (e) {
        if (!(e instanceof FeedError)) throw e;
        notes.push(`documento ${id} recusado: ${e.message}`);
      }
    }
    return { tables: { wh_dividends: rows }, watermark: { last_id: maxId }, dataUntil, notes };
  }

  private async newIds(lastId: number): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 0; page < this.opts.maxPages; page++) {
      const url = joinUrl(
        this.opts.baseUrl,
        `pesquisarGerenciadorDocumentosDados?d=${page}&s=${page * this.opts.pageSize}&l=${this.opts.pageSize}&o%5B0%5D%5BdataEntrega%5D=desc&tipoFundo=1&idCategoriaDocumento=14&idTipoDocumento=41&idEspecieDocumento=0`,
      );
      const res = await httpGet(url, { timeoutMs: this.opts.timeoutMs });
      if (res.status !== 200) throw new FeedError(`${url}: listing not found`, false);
      let json: unknown;
      try {
        json = JSON.parse(res.body.toString('utf8'));
      } catch {
        throw new FeedError(`${url}: listing is not JSON`, false);
      }
      const listing = Listing.safeParse(json);
      if (!listing.success) throw new FeedError(`${url}: not a FundosNet listing (${listing.error.issues[0].path.join('.')}: ${listing.error.issues[0].message})`, false);
      const fresh = listing.data.data.filter((d) => d.id > lastId && d.status !== 'IN').map((d) => d.id);
      ids.push(...fresh);
      // Newest first: a page holding an id already read (or a short page) is the last one needed.
      if (fresh.length < listing.data.data.length || listing.data.data.length < this.opts.pageSize) break;
    }
    return [...new Set(ids)];
  }
}

/** downloadDocumento answers the XML as base64 text (sometimes quoted); plain XML is accepted too. */
export function decodeDocument(body: Buffer): string {
  const t = body.toString('utf8').trim().replace(/^"|"$/g, '');
  if (t.startsWith('<')) return t;
  return Buffer.from(t, 'base64').toString('utf8');
}
